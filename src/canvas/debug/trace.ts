import { produce, type Draft } from 'immer';
import type { NodeRunStatus, RunError, RunEvent, RunScopeFrame, RunStatus, TokenUsage } from '../../../schemas/run';
import type { RunCreatedEvent } from '../../../schemas/run-api';

/**
 * A run's trace, built from its events: every node execution with status, time, tokens, inputs,
 * outputs and error; iteration and loop executions hold their rounds by index, each round the
 * executions inside it. Stored flat (execution id → item) with the tree as id lists, so an event
 * touches one item and the views resolve ids. Pure: `applyTraceEvent` returns a new trace.
 */

export interface TraceRound {
  index: number;
  /** Executions in this round, in start order. */
  ids: string[];
  /** Loop variables at the start of the round. */
  variables?: Record<string, unknown>;
}

export interface TraceItem {
  /** The execution id (`skip:<node>:<scope>` for a skipped node, which has none). */
  id: string;
  nodeId: string;
  kind: string;
  title: string;
  status: NodeRunStatus;
  startedAt?: number;
  elapsedMs?: number;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  usage?: TokenUsage;
  error?: RunError;
  retries: number;
  /** The node's own streamed text (an llm's tokens) while it runs. */
  text: string;
  /** The branch taken. */
  handle?: string;
  /** Iteration and loop executions: their rounds, by index. */
  rounds?: TraceRound[];
  /** Iteration size or loop maximum. */
  total?: number;
  /** Set while the node waits for a free sandbox: how many jobs are ahead of it. */
  waiting?: { reason: 'sandbox'; ahead: number };
  /** How long it waited for a sandbox (not counted against its timeout). */
  waitedMs?: number;
}

export interface RunTrace {
  runId?: string;
  conversationId?: string;
  messageId?: string;
  status: RunStatus | 'pending';
  startedAt?: number;
  elapsedMs?: number;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  /** The reply so far (answer chunks in order; the final answer once the run ends). */
  answer: string;
  usage?: TokenUsage;
  error?: RunError;
  steps?: number;
  /** Top-level executions in start order. */
  roots: string[];
  items: Record<string, TraceItem>;
}

export const emptyTrace = (): RunTrace => ({ status: 'pending', answer: '', roots: [], items: {} });

/** The event that opens a run stream, before the engine's own events. */
export type RunCreated = RunCreatedEvent;

const scopeKey = (scope: readonly RunScopeFrame[]) => scope.map((f) => `${f.executionId}#${f.index}`).join('/');

/** The id list an execution sits in: the run's roots or its innermost container's round. */
function siblings(t: Draft<RunTrace>, scope: readonly RunScopeFrame[]): string[] {
  const frame = scope[scope.length - 1];
  if (!frame) return t.roots;
  const container = t.items[frame.executionId];
  // A round of a container we never saw start (a partial stream): hang it at the top.
  if (!container) return t.roots;
  container.rounds ??= [];
  let round = container.rounds.find((r) => r.index === frame.index);
  if (!round) {
    round = { index: frame.index, ids: [] };
    container.rounds.push(round);
    container.rounds.sort((a, b) => a.index - b.index);
  }
  return round.ids;
}

type NodeEvent = Extract<RunEvent, { executionId: string }>;

function ensure(t: Draft<RunTrace>, e: NodeEvent): Draft<TraceItem> {
  let item = t.items[e.executionId];
  if (!item) {
    item = { id: e.executionId, nodeId: e.nodeId, kind: e.kind, title: e.title, status: 'running', startedAt: e.at, retries: 0, text: '' };
    t.items[e.executionId] = item;
    siblings(t, e.scope).push(e.executionId);
  }
  return item;
}

function applyDraft(t: Draft<RunTrace>, e: RunEvent | RunCreated): void {
  switch (e.type) {
    case 'run_created':
      t.runId = e.runId;
      if (e.conversationId) t.conversationId = e.conversationId;
      if (e.messageId) t.messageId = e.messageId;
      if (t.status === 'pending') t.status = 'running';
      return;
    case 'run_started':
      t.runId = e.runId;
      t.status = 'running';
      t.startedAt = e.at;
      t.inputs = e.inputs;
      return;
    case 'run_finished':
    case 'run_failed':
      t.status = e.type === 'run_finished' ? 'succeeded' : e.status;
      t.elapsedMs = e.elapsedMs;
      t.outputs = e.outputs;
      // The final answer wins over the chunks (they may have been cut by a reconnect).
      if (e.answer || !t.answer) t.answer = e.answer;
      t.usage = e.usage;
      t.steps = e.steps;
      if (e.type === 'run_failed') t.error = e.error;
      return;
    case 'answer_chunk':
      t.answer += e.text;
      return;
    case 'node_skipped': {
      const id = `skip:${e.nodeId}:${scopeKey(e.scope)}`;
      if (t.items[id]) return;
      t.items[id] = { id, nodeId: e.nodeId, kind: e.kind, title: '', status: 'skipped', retries: 0, text: '' };
      siblings(t, e.scope).push(id);
      return;
    }
    case 'node_started': {
      const item = ensure(t, e);
      item.status = 'running';
      item.startedAt = e.at;
      item.inputs = e.inputs;
      return;
    }
    case 'node_chunk':
      ensure(t, e).text += e.text;
      return;
    case 'node_retry': {
      const item = ensure(t, e);
      item.retries = e.attempt;
      item.error = e.error;
      return;
    }
    case 'node_waiting': {
      const item = ensure(t, e);
      if (e.waiting) item.waiting = { reason: e.reason, ahead: e.ahead };
      else {
        delete item.waiting;
        item.waitedMs = (item.waitedMs ?? 0) + (e.waitedMs ?? 0);
      }
      return;
    }
    case 'node_finished': {
      const item = ensure(t, e);
      delete item.waiting;
      Object.assign(item, { status: e.status, elapsedMs: e.elapsedMs, inputs: e.inputs, outputs: e.outputs, handle: e.handle, retries: e.retries });
      if (e.usage) item.usage = e.usage;
      if (e.error) item.error = e.error;
      else delete item.error;
      return;
    }
    case 'node_failed': {
      const item = ensure(t, e);
      delete item.waiting;
      Object.assign(item, { status: e.status, elapsedMs: e.elapsedMs, inputs: e.inputs, error: e.error, retries: e.retries });
      return;
    }
    case 'iteration_started':
      ensure(t, e).total = e.total;
      return;
    case 'loop_started':
      ensure(t, e).total = e.maxCount;
      return;
    case 'iteration_next':
    case 'loop_next': {
      const item = ensure(t, e);
      // Open the round so it shows (in order) even before its first node starts.
      siblings(t, [...e.scope, { containerId: e.nodeId, executionId: e.executionId, index: e.index }]);
      if (e.type === 'loop_next') {
        const r = item.rounds?.find((x) => x.index === e.index);
        if (r) r.variables = e.variables;
      }
      return;
    }
  }
}

/** The trace after one more event (a new object; unchanged items keep their identity). */
export function applyTraceEvent(trace: RunTrace, event: RunEvent | RunCreated): RunTrace {
  return produce(trace, (d) => applyDraft(d, event));
}

/** The trace of a whole list of events (a stored run, a test). */
export function buildTrace(events: Iterable<RunEvent | RunCreated>, start: RunTrace = emptyTrace()): RunTrace {
  return produce(start, (d) => {
    for (const e of events) applyDraft(d, e);
  });
}

/** Sum of token usage over the trace's items (for a run still going: the run's own total comes at the end). */
export function traceTokens(trace: RunTrace): number {
  if (trace.usage) return trace.usage.totalTokens;
  return Object.values(trace.items).reduce((n, i) => n + (i.usage?.totalTokens ?? 0), 0);
}

/** The stored run's fields the trace needs (schemas/run-api.ts RunDetail). */
export interface StoredRun {
  run: {
    id: string;
    status: RunStatus;
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
    answer: string;
    error: RunError | null;
    usage: TokenUsage;
    steps: number;
    elapsed_ms: number;
    conversation_id: string | null;
    created_at: string;
  };
  nodes: readonly {
    execution_id: string;
    node_id: string;
    kind: string;
    title: string;
    scope: RunScopeFrame[];
    status: NodeRunStatus;
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
    handle: string | null;
    error: RunError | null;
    elapsed_ms: number;
    usage: TokenUsage;
    retries: number;
    started_at: string;
  }[];
}

/**
 * The trace of a stored run (the log). Executions are placed in two passes, so a round's node listed
 * before its container still lands inside it.
 */
export function traceFromStored(stored: StoredRun): RunTrace {
  const { run, nodes } = stored;
  const trace: RunTrace = {
    runId: run.id,
    ...(run.conversation_id ? { conversationId: run.conversation_id } : {}),
    status: run.status,
    startedAt: Date.parse(run.created_at),
    elapsedMs: run.elapsed_ms,
    inputs: run.inputs,
    outputs: run.outputs,
    answer: run.answer,
    usage: run.usage,
    steps: run.steps,
    ...(run.error ? { error: run.error } : {}),
    roots: [],
    items: {},
  };
  for (const n of nodes) {
    trace.items[n.execution_id] = {
      id: n.execution_id,
      nodeId: n.node_id,
      kind: n.kind,
      title: n.title,
      status: n.status,
      startedAt: Date.parse(n.started_at),
      elapsedMs: n.elapsed_ms,
      inputs: n.inputs,
      outputs: n.outputs,
      ...(n.usage.totalTokens ? { usage: n.usage } : {}),
      ...(n.error ? { error: n.error } : {}),
      ...(n.handle ? { handle: n.handle } : {}),
      retries: n.retries,
      text: '',
    };
  }
  for (const n of nodes) {
    const frame = n.scope[n.scope.length - 1];
    const container = frame ? trace.items[frame.executionId] : undefined;
    if (!frame || !container) {
      trace.roots.push(n.execution_id);
      continue;
    }
    container.rounds ??= [];
    let round = container.rounds.find((r) => r.index === frame.index);
    if (!round) {
      round = { index: frame.index, ids: [] };
      container.rounds.push(round);
    }
    round.ids.push(n.execution_id);
  }
  for (const item of Object.values(trace.items)) item.rounds?.sort((a, b) => a.index - b.index);
  return trace;
}
