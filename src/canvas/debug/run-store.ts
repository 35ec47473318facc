import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { NodeRunStatus, RunEvent } from '../../../schemas/run';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import type { FlowStore } from '../store/create-flow-store';
import { applyTraceEvent, emptyTrace, type RunCreated, type RunTrace } from './trace';

/**
 * The debug run's state beside an editor: the current run's trace and, per canvas node, its latest
 * status and time (a node inside an iteration shows its latest round). View state only: never in the
 * flow document. One run store per flow store, found through {@link runStoreOf}, so canvas nodes reach
 * it without another provider, and each node selects its own primitive values: a status change
 * re-renders that node alone.
 */

export interface NodeRunInfo {
  status: NodeRunStatus;
  /** Set when the node ended. */
  elapsedMs?: number;
  /** Set while it waits for a free sandbox. */
  waiting?: true;
}

export interface RunState {
  trace: RunTrace;
  nodes: Readonly<Record<string, NodeRunInfo>>;
}

export interface RunStore {
  readonly api: StoreApi<RunState>;
  getState(): RunState;
  /** Takes one event of the run stream. */
  apply(event: RunEvent | RunCreated): void;
  /** Clears the canvas statuses and starts an empty trace. */
  reset(): void;
  /** The stream was cut (stop, abort, network) before the run said it ended: what still runs is stopped. */
  markEnded(status: 'stopped' | 'failed', error?: { code: string; message: string }): void;
}

function nodeInfo(e: RunEvent): [string, NodeRunInfo] | undefined {
  switch (e.type) {
    case 'node_started':
    case 'iteration_started':
    case 'loop_started':
      return [e.nodeId, { status: 'running' }];
    case 'node_finished':
    case 'node_failed':
      return [e.nodeId, { status: e.status, elapsedMs: e.elapsedMs }];
    case 'node_skipped':
      return [e.nodeId, { status: 'skipped' }];
    case 'node_waiting':
      return [e.nodeId, e.waiting ? { status: 'running', waiting: true } : { status: 'running' }];
    default:
      return undefined;
  }
}

function stopRunning(nodes: Readonly<Record<string, NodeRunInfo>>): Readonly<Record<string, NodeRunInfo>> {
  const running = Object.entries(nodes).filter(([, n]) => n.status === 'running');
  if (!running.length) return nodes;
  return { ...nodes, ...Object.fromEntries(running.map(([id, n]) => [id, { ...n, status: 'stopped' as const }])) };
}

export function createRunStore(): RunStore {
  const api = createStore<RunState>(() => ({ trace: emptyTrace(), nodes: {} }));
  return {
    api,
    getState: api.getState,
    apply(event) {
      const st = api.getState();
      const trace = applyTraceEvent(st.trace, event);
      const info = event.type === 'run_created' ? undefined : nodeInfo(event);
      let nodes = st.nodes;
      if (info) {
        const [id, next] = info;
        const prev = nodes[id];
        // A skip after the node ran (another round took the other branch) keeps the ran status.
        const keep = next.status === 'skipped' && prev && prev.status !== 'skipped';
        if (!keep && (prev?.status !== next.status || prev?.elapsedMs !== next.elapsedMs || prev?.waiting !== next.waiting)) nodes = { ...nodes, [id]: next };
      }
      // The run ended: nodes still shown running were cut short.
      if (event.type === 'run_failed') nodes = stopRunning(nodes);
      api.setState({ trace, nodes });
    },
    reset: () => api.setState({ trace: emptyTrace(), nodes: {} }),
    markEnded(status, error) {
      const st = api.getState();
      if (st.trace.status !== 'running' && st.trace.status !== 'pending') return;
      const items = Object.fromEntries(
        Object.entries(st.trace.items).map(([id, item]) => [id, item.status === 'running' ? { ...item, status: 'stopped' as const } : item]),
      );
      api.setState({ trace: { ...st.trace, status, items, ...(error ? { error } : {}) }, nodes: stopRunning(st.nodes) });
    },
  };
}

const stores = new WeakMap<FlowStore, RunStore>();

/** The run store of an editor (made on first use). */
export function runStoreOf(flow: FlowStore): RunStore {
  let store = stores.get(flow);
  if (!store) {
    store = createRunStore();
    stores.set(flow, store);
  }
  return store;
}

/** A node's status in the current debug run (undefined: not part of it). Inside a flow editor. */
export function useNodeRunStatus(nodeId: string): NodeRunStatus | undefined {
  return useStore(runStoreOf(useFlowStoreApi()).api, (s) => s.nodes[nodeId]?.status);
}

/** Whether the node waits for a free sandbox. */
export function useNodeRunWaiting(nodeId: string): boolean {
  return useStore(runStoreOf(useFlowStoreApi()).api, (s) => s.nodes[nodeId]?.waiting === true);
}

/** How long the node took, once it ended. */
export function useNodeRunElapsed(nodeId: string): number | undefined {
  return useStore(runStoreOf(useFlowStoreApi()).api, (s) => s.nodes[nodeId]?.elapsedMs);
}

/** The current trace (the debug pane). */
export function useRunTrace(store: RunStore): RunTrace {
  return useStore(store.api, (s) => s.trace);
}
