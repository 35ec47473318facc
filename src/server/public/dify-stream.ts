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

export interface DifyRunContext {
  started: StartedRun;
  chat: boolean;
  mode: string;
  versionId: string;
  /** Show the knowledge passages (the app's citations feature). */
  citations: boolean;
  /** When the request came (ms). */
  at: number;
  /** The flow's edges, for each node's `predecessor_node_id` (streaming only). */
  edges?: readonly { source: string; target: string }[];
}

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

export function workflowData(r: DifyRunContext, result: RunResult): WorkflowRunData {
  return {
    id: r.started.created.runId,
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
  data: workflowData(r, result),
});

const frame = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;

/** One engine event as Dify frames (most events have none). */
function framesOf(r: DifyRunContext, e: RunEvent, base: Record<string, unknown>, before: Map<string, string>): string | null {
  const { runId } = r.started.created;
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
      return frame({ event: 'workflow_started', ...base, data: { id: runId, workflow_id: r.versionId, sequence_number: 1, inputs: e.inputs, created_at: seconds(e.at) } });
    case 'node_started':
      return frame({ event: 'node_started', ...base, data: { ...node(e), inputs: e.inputs, created_at: seconds(e.at) } });
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
      });
    }
    case 'answer_chunk':
      return r.chat
        ? frame({ event: 'message', ...base, id: r.started.created.messageId, answer: e.text })
        : frame({ event: 'text_chunk', ...base, data: { text: e.text, from_variable_selector: [e.nodeId, 'answer'] } });
    default:
      return null;
  }
}

/**
 * The Dify stream of a started run: every frame as its event comes, then `workflow_finished`, and
 * for chat `message_end` (or `error` when the run failed). Ends once the run is stored.
 */
export async function* difyStream(r: DifyRunContext): AsyncGenerator<string> {
  const { runId, messageId, conversationId } = r.started.created;
  const createdAt = seconds(r.at);
  const base: Record<string, unknown> = r.chat
    ? { task_id: runId, workflow_run_id: runId, conversation_id: conversationId, message_id: messageId, created_at: createdAt }
    : { task_id: runId, workflow_run_id: runId };
  // Each node's predecessor (the source of its first incoming edge; none for the start node).
  const before = new Map<string, string>();
  for (const edge of r.edges ?? []) if (!before.has(edge.target)) before.set(edge.target, edge.source);
  const it = r.started.execution[Symbol.asyncIterator]();
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
    const out = framesOf(r, got.value, base, before);
    if (out) yield out;
  }
  const result = await r.started.stored;
  yield frame({ event: 'workflow_finished', ...base, data: workflowData(r, result) });
  if (r.chat && result.status === 'failed') {
    yield frame({ event: 'error', task_id: runId, message_id: messageId, conversation_id: conversationId, status: 400, code: result.error?.code ?? 'RUN-1100', message: result.error?.message ?? 'The run failed' });
  } else if (r.chat) {
    yield frame({
      event: 'message_end',
      ...base,
      id: messageId,
      metadata: { usage: difyUsage(result.usage, result.elapsedMs), retriever_resources: r.citations ? retrieverResources(r.started.citations) : [] },
      files: [],
    });
  }
}
