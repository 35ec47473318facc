import type { RunEvent, TokenUsage } from '../../../schemas/run';
import type { Citation } from '../../../schemas/portal';
import type { ChatBlockingResponse, DifyUsage, RetrieverResource, WorkflowBlockingResponse, WorkflowRunData } from '../../../schemas/public-api';
import type { RunResult } from '../../engine';
import type { StartedRun } from '../runs/launch';

/**
 * Weft's run events as Dify's service API streams them (schemas/public-api.ts): `data: {json}` frames
 * with an `event` field (`workflow_started`, `node_started`, `node_finished`, `message` / `text_chunk`,
 * `workflow_finished`, `message_end`, `error`) and `event: ping` every PING_MS while nothing else went out.
 * The task id and the workflow run id are both the run's id; `workflow_id` is the version's id.
 */

const PING_MS = 10_000;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** What a run's Dify frames are made of: a live run's, or a stored one's when its stream resumes (./dify-resume.ts). */
export interface DifyFraming {
  ids: { runId: string; messageId?: string; conversationId?: string };
  chat: boolean;
  versionId: string;
  /** When the request came (ms). */
  at: number;
  /** The flow's edges, for each node's `predecessor_node_id` (streaming only). */
  edges?: readonly { source: string; target: string }[];
}

export interface DifyRunContext extends Omit<DifyFraming, 'ids'> {
  started: StartedRun;
  mode: string;
  /** Show the knowledge passages (the app's citations feature). */
  citations: boolean;
}

/** How a run ended, as the closing frames tell it (a RunResult, or a resumed stream's logged last event). */
export type DifyRunEnd = Pick<RunResult, 'status' | 'outputs' | 'error' | 'elapsedMs' | 'usage' | 'steps'>;

export function difyUsage(u: TokenUsage, elapsedMs: number): DifyUsage {
  return {
    prompt_tokens: u.promptTokens,
    prompt_unit_price: '0',
    prompt_price_unit: '0',
    prompt_price: '0',
    completion_tokens: u.completionTokens,
    completion_unit_price: '0',
    completion_price_unit: '0',
    completion_price: '0',
    total_tokens: u.totalTokens,
    total_price: '0',
    currency: 'USD',
    latency: elapsedMs / 1000,
  };
}

export const retrieverResources = (cs: readonly Citation[]): RetrieverResource[] =>
  cs.map((c, i) => ({
    position: i + 1,
    dataset_id: c.dataset_id,
    dataset_name: c.dataset_name,
    document_id: c.document_id,
    document_name: c.document_name,
    segment_id: c.segment_id,
    score: c.score,
    content: c.content,
  }));

export function workflowData(r: Pick<DifyFraming, 'versionId' | 'at'> & { ids: { runId: string } }, result: DifyRunEnd): WorkflowRunData {
  return {
    id: r.ids.runId,
    workflow_id: r.versionId,
    status: result.status,
    outputs: result.outputs,
    error: result.error ? result.error.message : null,
    elapsed_time: result.elapsedMs / 1000,
    total_tokens: result.usage.totalTokens,
    total_steps: result.steps,
    created_at: seconds(r.at),
    finished_at: seconds(r.at + result.elapsedMs),
  };
}

export function chatBlocking(r: DifyRunContext, result: RunResult): ChatBlockingResponse {
  const { runId, messageId, conversationId } = r.started.created;
  return {
    event: 'message',
    task_id: runId,
    id: messageId!,
    message_id: messageId!,
    conversation_id: conversationId!,
    mode: r.mode === 'agent' ? 'agent-chat' : r.mode === 'chatflow' ? 'advanced-chat' : 'chat',
    answer: result.answer,
    metadata: { usage: difyUsage(result.usage, result.elapsedMs), retriever_resources: r.citations ? retrieverResources(r.started.citations) : [] },
    created_at: seconds(r.at),
  };
}

export const workflowBlocking = (r: DifyRunContext, result: RunResult): WorkflowBlockingResponse => ({
  task_id: r.started.created.runId,
  workflow_run_id: r.started.created.runId,
  data: workflowData({ ...r, ids: r.started.created }, result),
});

/**
 * A Dify frame; `id` is the number of the run event it tells (the run's log numbering, as every run
 * stream's ids), or for the closing frames the numbers after the last event: a client that lost the
 * stream resumes after it with Last-Event-ID. Pings carry none.
 */
const frame = (o: unknown, id: number) => `id: ${id}\ndata: ${JSON.stringify(o)}\n\n`;

/** The frames' common fields. */
export function difyBase(r: DifyFraming): Record<string, unknown> {
  const { runId, messageId, conversationId } = r.ids;
  return r.chat
    ? { task_id: runId, workflow_run_id: runId, conversation_id: conversationId, message_id: messageId, created_at: seconds(r.at) }
    : { task_id: runId, workflow_run_id: runId };
}

/** Each node's predecessor (the source of its first incoming edge; none for the start node). */
export function predecessors(r: DifyFraming): Map<string, string> {
  const before = new Map<string, string>();
  for (const edge of r.edges ?? []) if (!before.has(edge.target)) before.set(edge.target, edge.source);
  return before;
}

/** One engine event (numbered `id` in the run) as Dify frames (most events have none). */
export function framesOf(r: DifyFraming, e: RunEvent, id: number, base: Record<string, unknown>, before: Map<string, string>): string | null {
  const { runId } = r.ids;
  const node = (x: Extract<RunEvent, { executionId: string }>) => ({
    id: x.executionId,
    node_id: x.nodeId,
    node_type: x.kind,
    title: x.title,
    index: x.seq,
    predecessor_node_id: before.get(x.nodeId) ?? null,
  });
  switch (e.type) {
    case 'run_started':
      return frame({ event: 'workflow_started', ...base, data: { id: runId, workflow_id: r.versionId, sequence_number: 1, inputs: e.inputs, created_at: seconds(e.at) } }, id);
    case 'node_started':
      return frame({ event: 'node_started', ...base, data: { ...node(e), inputs: e.inputs, created_at: seconds(e.at) } }, id);
    case 'node_finished':
    case 'node_failed': {
      const done = e.type === 'node_finished';
      return frame({
        event: 'node_finished',
        ...base,
        data: {
          ...node(e),
          inputs: e.inputs,
          process_data: null,
          outputs: done ? e.outputs : null,
          status: done ? (e.status === 'exception' ? 'exception' : 'succeeded') : e.status,
          error: e.error ? e.error.message : null,
          elapsed_time: e.elapsedMs / 1000,
          execution_metadata: { total_tokens: done ? (e.usage?.totalTokens ?? 0) : 0, total_price: 0, currency: 'USD' },
          created_at: seconds(e.at - e.elapsedMs),
          finished_at: seconds(e.at),
        },
      }, id);
    }
    case 'answer_chunk':
      return r.chat
        ? frame({ event: 'message', ...base, id: r.ids.messageId, answer: e.text }, id)
        : frame({ event: 'text_chunk', ...base, data: { text: e.text, from_variable_selector: [e.nodeId, 'answer'] } }, id);
    default:
      return null;
  }
}

/**
 * The closing frames once the run is stored: `workflow_finished` (numbered `last + 1`, after the run's
 * last event), and for chat `message_end` or, when the run failed, `error` (`last + 2`). `after`: the
 * client's Last-Event-ID on a resumed stream (what it already has is not sent again).
 */
export function endFrames(r: DifyFraming, result: DifyRunEnd, citations: RetrieverResource[], last: number, after = -1): string[] {
  const { runId, messageId, conversationId } = r.ids;
  const base = difyBase(r);
  const out: string[] = [];
  if (after < last + 1) out.push(frame({ event: 'workflow_finished', ...base, data: workflowData(r, result) }, last + 1));
  if (!r.chat || after >= last + 2) return out;
  if (result.status === 'failed') {
    out.push(
      frame(
        { event: 'error', task_id: runId, message_id: messageId, conversation_id: conversationId, status: 400, code: result.error?.code ?? 'RUN-1100', message: result.error?.message ?? 'The run failed' },
        last + 2,
      ),
    );
  } else {
    out.push(frame({ event: 'message_end', ...base, id: messageId, metadata: { usage: difyUsage(result.usage, result.elapsedMs), retriever_resources: citations }, files: [] }, last + 2));
  }
  return out;
}

/**
 * The Dify stream of a started run: every frame as its event comes, then `workflow_finished`, and
 * for chat `message_end` (or `error` when the run failed). Ends once the run is stored.
 */
export async function* difyStream(r: DifyRunContext): AsyncGenerator<string> {
  const framing: DifyFraming = { ...r, ids: r.started.created };
  const base = difyBase(framing);
  const before = predecessors(framing);
  const it = r.started.execution[Symbol.asyncIterator]();
  // The events are numbered as the run's log numbers them: run_created 0 (no Dify frame), then 1, 2…
  let seq = 0;
  // A `ping` goes out whenever nothing else did for PING_MS (Dify's keep-alive for proxies).
  let next = it.next();
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise<'ping'>((res) => (timer = setTimeout(() => res('ping'), PING_MS)));
    const got = await Promise.race([next, tick]);
    clearTimeout(timer);
    if (got === 'ping') {
      yield 'event: ping\n\n';
      continue;
    }
    if (got.done) break;
    next = it.next();
    const out = framesOf(framing, got.value, ++seq, base, before);
    if (out) yield out;
  }
  const result = await r.started.stored;
  yield* endFrames(framing, result, r.citations ? retrieverResources(r.started.citations) : [], seq);
}
