/**
 * CONSOLE runs group: debug runs of an app's draft (chat and workflow, streamed as SSE), stopping a
 * run, the run log with each run's trace, conversations with their messages and variables.
 *
 * A run is a POST whose answer is `text/event-stream`, so it is sent with `request(…, { responseType:
 * 'stream' })`: the same headers, token refresh on 401 and error envelope as every other call (an error
 * before the stream is an ordinary JSON envelope with its HTTP status); the body is then read with the
 * SSE parser of ./sse.ts. Frames are `event: <type>` + `data: <json>`; the first is `run_created`, the
 * rest are the RunEvents of schemas/run.ts. Frames of a type this client does not know are skipped.
 */
import { z } from 'zod';
import {
  ConversationMessage,
  ConversationSummary,
  ConversationVariables,
  listPage,
  NodeRunResult,
  RunDetail,
  RunStopResult,
  RunStreamEvent,
  RunSummary,
  type ConversationListQuery,
  type DraftChatBody,
  type DraftWorkflowBody,
  type MessageListQuery,
  type RunListQuery,
} from '../../schemas/run-api';
import { call, request, type Endpoint, type RequestOptions } from './request';
import { resumableRunEvents } from './run-stream';
import { readSseFrames } from './sse';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

export { LOG_PERIODS, type LogPeriod, type NodeRunResult, type RunStreamEvent, type DraftChatBody, type DraftWorkflowBody, type RunFileRef, type RunSummary, type RunDetail, type NodeExecution, type ConversationSummary, type ConversationMessage } from '../../schemas/run-api';

// ------------------------------------------------------------------ endpoints

const base = '/api/v1/console/apps/:app_id';
export const runEndpoints = {
  draftChat: { method: 'POST', url: `${base}/draft/chat-messages`, name: 'runs.draftChat' },
  draftWorkflow: { method: 'POST', url: `${base}/draft/workflow-runs`, name: 'runs.draftWorkflow' },
  draftNode: { method: 'POST', url: `${base}/draft/nodes/:node_id/run`, name: 'runs.draftNode' },
  stop: { method: 'POST', url: `${base}/runs/:run_id/stop`, name: 'runs.stop' },
  events: { method: 'GET', url: `${base}/runs/:run_id/events`, name: 'runs.events' },
  list: { method: 'GET', url: `${base}/runs`, name: 'runs.list' },
  get: { method: 'GET', url: `${base}/runs/:run_id`, name: 'runs.get' },
  conversations: { method: 'GET', url: `${base}/conversations`, name: 'runs.conversations' },
  messages: { method: 'GET', url: `${base}/conversations/:conversation_id/messages`, name: 'runs.messages' },
  deleteConversation: { method: 'DELETE', url: `${base}/conversations/:conversation_id`, name: 'runs.deleteConversation' },
  variables: { method: 'GET', url: `${base}/conversations/:conversation_id/variables`, name: 'runs.variables' },
  setVariables: { method: 'PUT', url: `${base}/conversations/:conversation_id/variables`, name: 'runs.setVariables' },
} as const satisfies Record<string, Endpoint>;

/**
 * The events of a run stream, parsed and checked. Unknown event types and frames whose data does not
 * parse are skipped (a newer server may send more kinds than this client knows).
 */
export async function* readRunEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<RunStreamEvent> {
  for await (const frame of readSseFrames(body, signal)) {
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      continue;
    }
    if (data && typeof data === 'object' && !('type' in data)) data = { ...data, type: frame.event };
    const parsed = RunStreamEvent.safeParse(data);
    if (parsed.success) yield parsed.data;
  }
}

async function* stream(endpoint: Endpoint, app_id: string, body: object, opts: Opts): AsyncGenerator<RunStreamEvent> {
  const sse = { ...opts, responseType: 'stream' as const, headers: { Accept: 'text/event-stream', ...opts.headers } };
  const res = await request(endpoint, { app_id, ...body }, sse);
  // A dropped connection is picked up again after the last event received, on any server process (./run-stream.ts).
  const resume = (run_id: string, last: number) => request(runEndpoints.events, { app_id, run_id }, { ...sse, headers: { ...sse.headers, 'Last-Event-ID': String(last) } });
  yield* resumableRunEvents(res, resume, opts.signal);
}

/**
 * Sends a chat message to the app's draft and yields the run's events as they come; a connection
 * that drops mid-run is resumed where it stopped (./run-stream.ts). Aborting `opts.signal` closes
 * the connection (call {@link stopRun} too, to stop the run on the server).
 * @example
 * for await (const e of streamDraftChat(appId, { query: 'hi' }, { workspaceId, signal })) if (e.type === 'answer_chunk') out += e.text;
 */
export const streamDraftChat = (app_id: string, body: DraftChatBody, opts: Opts = {}) => stream(runEndpoints.draftChat, app_id, body, opts);

/** Runs the draft workflow with the start form's values; yields the events. */
export const streamDraftWorkflow = (app_id: string, body: DraftWorkflowBody, opts: Opts = {}) => stream(runEndpoints.draftWorkflow, app_id, body, opts);

/**
 * Runs one node of the stored draft alone; `inputs` are the values of its references keyed
 * `nodeId.path` (`sys.query`, `llm.text`). Answers when the node ends (status, outputs, error).
 */
export const runDraftNode = (app_id: string, node_id: string, inputs: Record<string, unknown>, opts?: Opts, run_id?: string) =>
  call(NodeRunResult, runEndpoints.draftNode, { app_id, node_id, inputs, ...(run_id ? { run_id } : {}) }, opts);

/** Stops a run of the app (its stream then ends with `run_failed`, status `stopped`). */
export const stopRun = (app_id: string, run_id: string, opts?: Opts) => call(RunStopResult, runEndpoints.stop, { app_id, run_id }, opts);

/** The app's runs, newest first, within `period` (default all), by status and keyword. */
export const listRuns = (app_id: string, q: Partial<z.input<typeof RunListQuery>> = {}, opts?: Opts) =>
  call(listPage(RunSummary), runEndpoints.list, { app_id, page: 1, page_size: 20, ...q }, opts);

/** A stored run with its node executions (iteration and loop rounds carry their parent, scope and index). */
export const getRun = (app_id: string, run_id: string, opts?: Opts) => call(RunDetail, runEndpoints.get, { app_id, run_id }, opts);

/** The app's conversations (chat modes), newest first. */
export const listConversations = (app_id: string, q: Partial<z.input<typeof ConversationListQuery>> = {}, opts?: Opts) =>
  call(listPage(ConversationSummary), runEndpoints.conversations, { app_id, page: 1, page_size: 20, ...q }, opts);

/** A conversation's messages, oldest first; each names its run (for the trace). */
export const listMessages = (app_id: string, conversation_id: string, q: Partial<z.input<typeof MessageListQuery>> = {}, opts?: Opts) =>
  call(listPage(ConversationMessage), runEndpoints.messages, { app_id, conversation_id, ...q }, opts);

export const deleteConversation = (app_id: string, conversation_id: string, opts?: Opts) =>
  call(z.unknown(), runEndpoints.deleteConversation, { app_id, conversation_id }, opts);

export const getConversationVariables = (app_id: string, conversation_id: string, opts?: Opts) =>
  call(ConversationVariables, runEndpoints.variables, { app_id, conversation_id }, opts).then((r) => r.variables);

export const setConversationVariables = (app_id: string, conversation_id: string, variables: Record<string, unknown>, opts?: Opts) =>
  call(z.unknown(), runEndpoints.setVariables, { app_id, conversation_id, variables }, opts);
