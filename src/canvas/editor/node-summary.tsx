import { createContext, memo, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { FlowNode, NodeConfig } from '../../../schemas/flow';
import type { AnyNodePlugin, NodeRegistry, NodeSummaryRow, SummaryResource } from '../../plugin-sdk';
import { WorkspaceResourcesContext, type WorkspaceResources } from '../widgets/context';
import s from './editor.module.css';

/**
 * A node's summary under its title (the plugin's `summary(config)`: its model, knowledge bases,
 * condition count, the first line of its code …).
 *
 * Cheap at 1,000 nodes: the rows are computed once per config object (a WeakMap, so a node that
 * scrolls out of view and back, or re-renders for its selection, does not parse its config again;
 * an edit gives the node a new config and so new rows), and resource names (knowledge bases, tools,
 * MCP servers) are listed once per editor, only when a row names one.
 */

const EMPTY: readonly NodeSummaryRow[] = Object.freeze([]);
const rowsByConfig = new WeakMap<AnyNodePlugin, WeakMap<NodeConfig, readonly NodeSummaryRow[]>>();

/** The summary rows of a node (memoised per plugin and config object; none when the plugin fails). */
export function summaryRows(registry: NodeRegistry, plugin: AnyNodePlugin, node: FlowNode): readonly NodeSummaryRow[] {
  let byConfig = rowsByConfig.get(plugin);
  if (!byConfig) rowsByConfig.set(plugin, (byConfig = new WeakMap()));
  let rows = byConfig.get(node.config);
  if (rows) return rows;
  try {
    // Older versions are migrated first; an invalid config (the checklist reports it) has no summary rather than a wrong one.
    const current = node.kindVersion < plugin.version ? registry.normalizeNode(node) : node;
    const parsed = plugin.configSchema.safeParse(current.config);
    rows = parsed.success ? plugin.summary(parsed.data) : EMPTY;
  } catch {
    rows = EMPTY;
  }
  rows = rows.length ? rows.slice(0, 4) : EMPTY;
  byConfig.set(node.config, rows);
  return rows;
}

type Names = Partial<Record<SummaryResource, ReadonlyMap<string, string>>>;
interface NamesStore {
  names: Names;
  /** Lists a resource once (the first row naming one asks). */
  want(resource: SummaryResource): void;
}

function createNamesStore(resources: WorkspaceResources): StoreApi<NamesStore> {
  const asked = new Set<SummaryResource>();
  const store = createStore<NamesStore>()(() => ({
    names: {},
    want(resource) {
      const source = resources[resource];
      if (asked.has(resource) || !source) return;
      asked.add(resource);
      source.list({ signal: new AbortController().signal }).then(
        (items) => store.setState((st) => ({ names: { ...st.names, [resource]: new Map(items.map((i) => [i.id, i.name])) } })),
        () => undefined, // the ids stay shown
      );
    },
  }));
  return store;
}

const NamesContext = createContext<StoreApi<NamesStore> | null>(null);

/** Resource names for the nodes' summaries (inside the flow editor). */
export function SummaryNamesProvider({ children }: { children: ReactNode }) {
  const resources = useContext(WorkspaceResourcesContext);
  const store = useMemo(() => createNamesStore(resources), [resources]);
  return <NamesContext.Provider value={store}>{children}</NamesContext.Provider>;
}

const noStore = createNamesStore({});

function RefsText({ refs }: { refs: NonNullable<NodeSummaryRow['refs']> }) {
  const store = useContext(NamesContext) ?? noStore;
  const names = useStore(store, (st) => st.names[refs.resource]);
  useEffect(() => store.getState().want(refs.resource), [store, refs.resource]);
  return <>{refs.ids.map((id) => names?.get(id) ?? id).join(', ')}</>;
}

type T = (key: string, options?: Record<string, unknown>) => string;

/** The rows under a node's title. Memoised on its rows: a node's re-render for its selection or run status skips it. */
export const NodeSummary = memo(function NodeSummary({ rows, ns, t, nodeId }: { rows: readonly NodeSummaryRow[]; ns: string; t: T; nodeId: string }) {
  if (!rows.length) return null;
  return (
    <div className={s.summary} data-testid={`node-summary-${nodeId}`}>
      {rows.map((row, i) => (
        <div key={i} className={s.summaryRow} data-mono={row.mono || undefined}>
          {row.labelKey && <span className={s.summaryLabel}>{t(`${ns}:${row.labelKey}`)}</span>}
          <span className={s.summaryText}>
            {row.textKey ? t(`${ns}:${row.textKey}`, row.params) : row.text}
            {row.refs && row.refs.ids.length > 0 && <RefsText refs={row.refs} />}
          </span>
        </div>
      ))}
    </div>
  );
});
