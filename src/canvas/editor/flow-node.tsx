import { Handle, NodeResizer, Position as Side, useStore as useReactFlowStore, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { Plus } from 'lucide-react';
import { createContext, memo, useContext, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SOURCE_HANDLE, DEFAULT_TARGET_HANDLE, type FlowNode } from '../../../schemas/flow';
import type { AnyNodePlugin, HandleSpec } from '../../plugin-sdk';
import type { AnyEditorNodePlugin } from '../../plugin-sdk/view';
import { useFlowStore } from '../react/use-flow-store';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { selectIsSelected, selectNode } from '../store/selectors';
import { NodeRunBadge, useNodeRunStatus } from '../debug/node-run-badge';
import { useChecklist, useEditorServices } from './editor-context';
import { NodeIcon } from './node-icon';
import { NodeSummary, summaryRows } from './node-summary';
import { countNodeRender } from './render-probe';
import { kindTitle } from './plugin-texts';
import { keepFieldKeys } from './use-editor-keys';
import s from './editor.module.css';

/**
 * The node shell: icon, title, kind colour, target handle, one source handle per branch with its
 * label and a "+" that opens the palette, the checklist badge and the run-status ring. It reads its
 * own node from the store by id (React Flow only passes the id), so a change elsewhere in the flow
 * does not re-render it. Containers (iteration, loop) use the same shell as a resizable group.
 *
 * Zoomed out below {@link OVERVIEW_ZOOM} (a big flow fitted into view) the text is too small to
 * read and the "+" too small to hit, so a node draws an overview: the same box with its kind's
 * colour and its title, handles (edges attach to them) and the issue count, but no icon glyph, no
 * "+" buttons, no run badge and no plugin body. Opening a 1,000-node flow mounts every node once:
 * this halves the DOM and the components per node (see bench/canvas-editor.ts).
 */

/** Below this zoom nodes draw their overview (labels are ~6 px high there). */
export const OVERVIEW_ZOOM = 0.5;

const readOnlySelector = (st: { readOnly: boolean }) => st.readOnly;
// A boolean, so zooming re-renders the nodes only when it crosses the threshold, and dragging never.
const overviewSelector = (st: ReactFlowState) => st.transform[2] < OVERVIEW_ZOOM;

const OverviewContext = createContext(false);

/**
 * Whether the canvas draws its overview, read from React Flow's store once for the whole canvas
 * (inside the flow editor, around React Flow): a selector in each of a thousand nodes ran on every
 * change of that store (each step of a pan or a zoom), and the edges need the flag too. Crossing
 * the threshold re-renders the nodes and edges through the context.
 */
export function OverviewProvider({ children }: { children: ReactNode }) {
  const overview = useReactFlowStore(overviewSelector);
  return <OverviewContext.Provider value={overview}>{children}</OverviewContext.Provider>;
}

/** Whether the canvas is zoomed out below {@link OVERVIEW_ZOOM} (see {@link OverviewProvider}). */
export const useOverview = () => useContext(OverviewContext);

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * The words every node shows, translated once per language for the whole canvas: a `useTranslation`
 * and a few `t` calls in each of a thousand nodes cost ~0.2 s on open.
 */
interface NodeTexts {
  t: T;
  /** The kind's title (cached per kind). */
  kindTitle(plugin: AnyNodePlugin): string;
  /** The issue badge's tooltip (cached per count). */
  issues(count: number): string;
  addNext: string;
  /** The "+" on an edge. */
  insertHere: string;
  rename: string;
  renameHint: string;
}

const NodeTextsContext = createContext<NodeTexts | null>(null);

/** Provides the nodes' texts (inside the flow editor, around React Flow). */
export function NodeTextsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation(['editor']);
  const texts = useMemo<NodeTexts>(() => {
    const tx = t as unknown as T;
    const titles = new Map<string, string>();
    const issues = new Map<number, string>();
    return {
      t: tx,
      kindTitle(plugin) {
        let title = titles.get(plugin.kind);
        if (title === undefined) titles.set(plugin.kind, (title = kindTitle(t as never, plugin)));
        return title;
      },
      issues(count) {
        let text = issues.get(count);
        if (text === undefined) issues.set(count, (text = tx('editor:node.issues', { count })));
        return text;
      },
      addNext: tx('editor:node.addNext'),
      insertHere: tx('editor:node.insertHere'),
      rename: tx('editor:node.rename'),
      renameHint: tx('editor:node.renameHint'),
    };
  }, [t]);
  return <NodeTextsContext.Provider value={texts}>{children}</NodeTextsContext.Provider>;
}

export function useNodeTexts(): NodeTexts {
  const texts = useContext(NodeTextsContext);
  if (!texts) throw new Error('Nodes must be rendered inside <FlowEditor>');
  return texts;
}

/**
 * Equal but for the position: a move (a drag, the tidy-up's glide) gives the node a new object but
 * changes nothing the shell draws (React Flow moves the box), so it must not re-render the node.
 * The shell (and a plugin's Body) may then hold the node with its previous position.
 */
function sameButPosition(a: FlowNode | undefined, b: FlowNode | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a) as (keyof FlowNode)[];
  return keys.length === Object.keys(b).length && keys.every((k) => k === 'position' || a[k] === b[k]);
}

function nodeTitle(texts: NodeTexts, node: FlowNode | undefined, plugin: AnyNodePlugin | undefined): string {
  if (!node) return '';
  if (node.title) return node.title;
  return plugin ? texts.kindTitle(plugin) : node.kind;
}

/** A source handle and its row; the "+" only at readable zoom (in the overview it is too small to hit). */
function SourceHandle({ texts, nodeId, spec, label, readOnly, overview }: { texts: NodeTexts; nodeId: string; spec: HandleSpec; label?: string; readOnly: boolean; overview: boolean }) {
  const { ui } = useEditorServices();
  const open = (e: MouseEvent<HTMLButtonElement>) => {
    e.stopPropagation();
    const r = e.currentTarget.getBoundingClientRect();
    ui.setState({ addFrom: { nodeId, handleId: spec.id, x: r.right + 8, y: r.top }, menu: null });
  };
  return (
    <div className={s.branch} data-handle={spec.id}>
      {label && <span className={s.branchLabel}>{label}</span>}
      <Handle type="source" position={Side.Right} id={spec.id} className={s.handle} data-testid={`handle-${nodeId}-${spec.id}`} />
      {!readOnly && !overview && (
        <button
          type="button"
          className={`${s.addNext} nodrag nopan`}
          aria-label={texts.addNext}
          title={texts.addNext}
          data-testid={`add-next-${nodeId}-${spec.id}`}
          onClick={open}
        >
          <Plus aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

/** The title; a double click edits it in place (one undo step per burst of typing, empty = the kind's title). */
function NodeTitle({ texts, id, title, stored, readOnly }: { texts: NodeTexts; id: string; title: string; stored: string; readOnly: boolean }) {
  const store = useFlowStoreApi();
  const [editing, setEditing] = useState(false);
  const done = () => {
    store.sealHistory();
    setEditing(false);
  };
  if (editing) {
    return (
      <input
        className={`${s.titleInput} nodrag`}
        autoFocus
        defaultValue={stored || title}
        maxLength={200}
        aria-label={texts.rename}
        data-testid={`node-title-input-${id}`}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => store.setTitle(id, e.target.value)}
        onBlur={done}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === 'Escape') done();
        }}
      />
    );
  }
  return (
    <span className={s.title} data-testid={`node-title-${id}`} title={readOnly ? title : texts.renameHint} onDoubleClick={readOnly ? undefined : () => setEditing(true)}>
      {title}
    </span>
  );
}

function NodeView({ id, container }: { id: string; container: boolean }) {
  countNodeRender(id);
  const texts = useNodeTexts();
  const store = useFlowStoreApi();
  const node = useFlowStore(selectNode(id), sameButPosition);
  const selected = useFlowStore(selectIsSelected(id));
  const runStatus = useNodeRunStatus(id);
  const readOnly = useFlowStore(readOnlySelector);
  const issues = useChecklist((c) => c.counts.get(id) ?? 0);
  const blocking = useChecklist((c) => c.errors.has(id));
  const overview = useOverview();
  // The editor's registry holds plugins with their views (./builtin-plugins.ts, installed packages).
  const plugin = (node ? store.registry.get(node.kind) : undefined) as AnyEditorNodePlugin | undefined;
  const title = nodeTitle(texts, node, plugin);
  const handles = useMemo(() => (node && plugin ? store.registry.sourceHandlesOf(node) : []), [node, plugin, store]);
  const Body = overview ? undefined : plugin?.view?.Body;
  const config = useMemo(() => (node && Body ? store.registry.normalizeNode(node).config : undefined), [node, Body, store]);
  // Not in the overview (unreadable there); memoised per config object inside summaryRows.
  const summary = useMemo(() => (node && plugin && !overview ? summaryRows(store.registry, plugin, node) : undefined), [node, plugin, overview, store]);
  if (!node) return null;
  const handleLabel = (h: HandleSpec) => h.label ?? (h.labelKey && plugin ? texts.t(`${plugin.ns}:${h.labelKey}`) : undefined);
  const single = handles.length === 1 && handles[0].id === DEFAULT_SOURCE_HANDLE && !handleLabel(handles[0]);
  return (
    <div
      className={container ? s.container : s.node}
      style={{ ['--kind-color' as string]: plugin?.color ?? 'var(--color-primary)' }}
      data-testid={`node-${id}`}
      data-kind={node.kind}
      data-selected={selected || undefined}
      data-run-status={runStatus}
      data-overview={overview || undefined}
      aria-label={title}
      onKeyDown={keepFieldKeys}
    >
      {container && !readOnly && <NodeResizer isVisible={selected} minWidth={240} minHeight={160} color="var(--color-primary)" onResizeStart={() => store.beginGesture()} onResizeEnd={() => store.endGesture()} />}
      {plugin?.targetHandle !== false && <Handle type="target" position={Side.Left} id={DEFAULT_TARGET_HANDLE} className={`${s.handle} ${s.targetHandle}`} />}
      <div className={`${s.header} ${container ? 'weft-container-drag' : ''}`}>
        {/* In the overview the kind's colour alone (an svg per node is the heaviest part of a node). */}
        <span className={s.icon}>{plugin && !overview ? <NodeIcon icon={plugin.icon} size={14} /> : null}</span>
        {overview ? (
          <span className={s.title} data-testid={`node-title-${id}`}>
            {title}
          </span>
        ) : (
          <NodeTitle texts={texts} id={id} title={title} stored={node.title} readOnly={readOnly} />
        )}
        {runStatus && !overview && <NodeRunBadge id={id} />}
        {issues > 0 && (
          <span className={s.issueBadge} data-severity={blocking ? 'error' : 'warning'} title={texts.issues(issues)} data-testid={`node-issues-${id}`}>
            {issues}
          </span>
        )}
        {/* In the overview (no "+") the handle alone, without its row: one element less a step. */}
        {single && (overview ? <Handle type="source" position={Side.Right} id={handles[0].id} className={s.handle} data-testid={`handle-${id}-${handles[0].id}`} /> : <SourceHandle texts={texts} nodeId={id} spec={handles[0]} readOnly={readOnly} overview={overview} />)}
      </div>
      {summary && summary.length > 0 && <NodeSummary rows={summary} ns={plugin!.ns} t={texts.t} nodeId={id} />}
      {Body && config && (
        <div className={s.body}>
          <Body node={node} config={config} selected={selected} readOnly={readOnly} />
        </div>
      )}
      {!single && handles.length > 0 && (
        <div className={s.branches}>
          {handles.map((h) => (
            <SourceHandle key={h.id} texts={texts} nodeId={id} spec={h} label={handleLabel(h) ?? h.id} readOnly={readOnly} overview={overview} />
          ))}
        </div>
      )}
    </div>
  );
}

// Every prop but the id is ignored: the node reads its state from the stores. React Flow passes new
// props when it measures a node or moves it; re-rendering for those would render every node twice
// on open, and the dragged node at every step.
const sameId = (a: NodeProps, b: NodeProps) => a.id === b.id;

/** A step of the flow. */
export const ShellNode = memo(function ShellNode({ id }: NodeProps) {
  return <NodeView id={id} container={false} />;
}, sameId);

/** An iteration or loop: a resizable group whose children (its start first) sit inside. */
export const ContainerNode = memo(function ContainerNode({ id }: NodeProps) {
  return <NodeView id={id} container />;
}, sameId);
