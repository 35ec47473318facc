import { Handle, NodeResizer, Position as Side, type NodeProps } from '@xyflow/react';
import { Plus } from 'lucide-react';
import { memo, useMemo, useState, type MouseEvent } from 'react';
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
import { countNodeRender } from './render-probe';
import { kindTitle } from './plugin-texts';
import s from './editor.module.css';

/**
 * The node shell: icon, title, kind colour, target handle, one source handle per branch with its
 * label and a "+" that opens the palette, the checklist badge and the run-status ring. It reads its
 * own node from the store by id (React Flow only passes the id), so a change elsewhere in the flow
 * does not re-render it. Containers (iteration, loop) use the same shell as a resizable group.
 */

const readOnlySelector = (st: { readOnly: boolean }) => st.readOnly;

// One `useTranslation` per node, passed down: a thousand nodes each with several cost ~0.2 s on open.
type T = (key: string, options?: Record<string, unknown>) => string;

function nodeTitle(t: T, node: FlowNode | undefined, plugin: AnyNodePlugin | undefined): string {
  if (!node) return '';
  if (node.title) return node.title;
  return plugin ? kindTitle(t as never, plugin) : node.kind;
}

function SourceHandle({ t, nodeId, spec, label, readOnly }: { t: T; nodeId: string; spec: HandleSpec; label?: string; readOnly: boolean }) {
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
      {!readOnly && (
        <button
          type="button"
          className={`${s.addNext} nodrag nopan`}
          aria-label={t('editor:node.addNext')}
          title={t('editor:node.addNext')}
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
function NodeTitle({ t, id, title, stored, readOnly }: { t: T; id: string; title: string; stored: string; readOnly: boolean }) {
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
        aria-label={t('editor:node.rename')}
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
    <span className={s.title} data-testid={`node-title-${id}`} title={readOnly ? title : t('editor:node.renameHint')} onDoubleClick={readOnly ? undefined : () => setEditing(true)}>
      {title}
    </span>
  );
}

function NodeView({ id, container }: { id: string; container: boolean }) {
  countNodeRender(id);
  const { t } = useTranslation(['editor']);
  const store = useFlowStoreApi();
  const node = useFlowStore(selectNode(id));
  const selected = useFlowStore(selectIsSelected(id));
  const runStatus = useNodeRunStatus(id);
  const readOnly = useFlowStore(readOnlySelector);
  const issues = useChecklist((c) => c.counts.get(id) ?? 0);
  // The editor's registry holds plugins with their views (plugins/index.ts).
  const plugin = (node ? store.registry.get(node.kind) : undefined) as AnyEditorNodePlugin | undefined;
  const tx = t as unknown as T;
  const title = nodeTitle(tx, node, plugin);
  const handles = useMemo(() => (node && plugin ? store.registry.sourceHandlesOf(node) : []), [node, plugin, store]);
  const config = useMemo(() => (node && plugin?.view?.Body ? store.registry.normalizeNode(node).config : undefined), [node, plugin, store]);
  if (!node) return null;
  const Body = plugin?.view?.Body;
  const handleLabel = (h: HandleSpec) => h.label ?? (h.labelKey && plugin ? t(`${plugin.ns}:${h.labelKey}` as never) : undefined);
  const single = handles.length === 1 && handles[0].id === DEFAULT_SOURCE_HANDLE && !handleLabel(handles[0]);
  return (
    <div
      className={container ? s.container : s.node}
      style={{ ['--kind-color' as string]: plugin?.color ?? 'var(--color-primary)' }}
      data-testid={`node-${id}`}
      data-kind={node.kind}
      data-selected={selected || undefined}
      data-run-status={runStatus}
      aria-label={title}
    >
      {container && !readOnly && <NodeResizer isVisible={selected} minWidth={240} minHeight={160} color="var(--color-primary)" onResizeStart={() => store.beginGesture()} onResizeEnd={() => store.endGesture()} />}
      {plugin?.targetHandle !== false && <Handle type="target" position={Side.Left} id={DEFAULT_TARGET_HANDLE} className={`${s.handle} ${s.targetHandle}`} />}
      <div className={`${s.header} ${container ? 'weft-container-drag' : ''}`}>
        <span className={s.icon}>{plugin ? <NodeIcon icon={plugin.icon} size={14} /> : null}</span>
        <NodeTitle t={tx} id={id} title={title} stored={node.title} readOnly={readOnly} />
        <NodeRunBadge id={id} />
        {issues > 0 && (
          <span className={s.issueBadge} title={t('editor:node.issues', { count: issues })} data-testid={`node-issues-${id}`}>
            {issues}
          </span>
        )}
        {single && <SourceHandle t={tx} nodeId={id} spec={handles[0]} readOnly={readOnly} />}
      </div>
      {Body && config && (
        <div className={s.body}>
          <Body node={node} config={config} selected={selected} readOnly={readOnly} />
        </div>
      )}
      {!single && handles.length > 0 && (
        <div className={s.branches}>
          {handles.map((h) => (
            <SourceHandle key={h.id} t={tx} nodeId={id} spec={h} label={handleLabel(h) ?? h.id} readOnly={readOnly} />
          ))}
        </div>
      )}
    </div>
  );
}

/** A step of the flow. */
export const ShellNode = memo(function ShellNode({ id }: NodeProps) {
  return <NodeView id={id} container={false} />;
});

/** An iteration or loop: a resizable group whose children (its start first) sit inside. */
export const ContainerNode = memo(function ContainerNode({ id }: NodeProps) {
  return <NodeView id={id} container />;
});
