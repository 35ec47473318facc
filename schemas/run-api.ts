import { z } from 'zod';
import { Id, Timestamp } from './common';
import { FlowMode } from './flow';
import { pageNumber, pageSize } from './guards';
import { NodeRunStatus, RunError, RunEvent, RunScopeFrame, RunStatus, TokenUsage } from './run';

/**
 * The runs API (console): debug runs of an app's draft streamed as server-sent events, single-node
 * runs, stop, the run log with each run's trace, and the conversations of chat apps with their
 * messages and variables. Run events themselves are in ./run.ts.
 *
 * Stream framing: each event is `event: <type>\ndata: <json>\n\n`; the first is {@link RunCreatedEvent},
 * then every {@link RunEvent} as the engine emits it; the stream ends after `run_finished` or
 * `run_failed` (once the run is stored). Errors before the stream starts answer the JSON error
 * envelope. A client that disconnects does not stop the run (it goes on and is stored); stopping is
 * the explicit POST .../runs/{run_id}/stop.
 */

/** Page size maximum of the run, conversation and message lists. */
export const RUN_PAGE_MAX = 1000;

/** Log periods (spec 9: today, past 7, 30, 90 days, six months, all time). */
export const LOG_PERIODS = ['today', '7d', '30d', '90d', '180d', 'all'] as const;
export const LogPeriod = z.enum(LOG_PERIODS);
export type LogPeriod = z.infer<typeof LogPeriod>;

/**
 * Where a run comes from (one run path, one table: ARCHITECTURE "One run path"): `draft` a debug run
 * of the draft, `single-node` one node of the draft run alone, `portal` an end user in the portal,
 * `api` the public API, `tool` a workflow tool called by another run, `mcp` an MCP client.
 * `published` is what workflow-tool runs were stored as before `tool` existed (older rows).
 */
export const RUN_SOURCES = ['draft', 'single-node', 'portal', 'api', 'tool', 'mcp', 'published'] as const;
export const RunSource = z.enum(RUN_SOURCES);
export type RunSource = z.infer<typeof RunSource>;

/** The first event of a run stream: the ids to stop the run and to continue the conversation. */
export const RunCreatedEvent = z
  .object({ type: z.literal('run_created'), runId: z.string(), conversationId: z.string().optional(), messageId: z.string().optional() })
  .strict();
export type RunCreatedEvent = z.infer<typeof RunCreatedEvent>;

/** What a run stream carries. */
export const RunStreamEvent = z.union([RunCreatedEvent, RunEvent]);
export type RunStreamEvent = z.infer<typeof RunStreamEvent>;

/** A file given to a run (an upload's id). */
export const RunFileRef = z.object({ file_id: z.string().min(1).max(64), name: z.string().max(255).optional(), type: z.string().max(64).optional() }).strict();
export type RunFileRef = z.infer<typeof RunFileRef>;

const Values = z.record(z.string(), z.unknown());
const files = z.array(RunFileRef).max(100).optional();

export const RunAppParams = z.object({ app_id: z.string().max(64).describe('App id') });
export const RunParams = RunAppParams.extend({ run_id: z.string().max(64).describe('Run id') });
export const NodeRunParams = RunAppParams.extend({ node_id: z.string().min(1).max(64).describe('Node id in the draft flow') });
export const ConversationParams = RunAppParams.extend({ conversation_id: z.string().max(64).describe('Conversation id') });

/** A message to a chat app's draft (chatflow, agent); without `conversation_id` a new conversation starts. */
export const DraftChatBody = z
  .object({
    query: z.string().min(1).max(100_000),
    conversation_id: z.uuid().optional(),
    /** The start form's values. */
    inputs: Values.optional(),
    files,
  })
  .strict();
export type DraftChatBody = z.infer<typeof DraftChatBody>;

/** A run of a workflow app's draft with the start form's values. */
export const DraftWorkflowBody = z.object({ inputs: Values, files }).strict();
export type DraftWorkflowBody = z.infer<typeof DraftWorkflowBody>;

/**
 * One node of the draft run alone. `inputs` gives the values of the node's references, keyed as the
 * trace shows them: `nodeId.path` (`llm1.text`, `sys.query`, `conversation.topic`).
 */
export const NodeRunBody = z
  .object({
    inputs: Values,
    /** The id the run gets, chosen by the caller so it can stop exactly this run while it goes (unused ids only). */
    run_id: z.uuid().optional(),
  })
  .strict();
export type NodeRunBody = z.infer<typeof NodeRunBody>;

export const NodeRunResult = z.object({
  runId: z.string(),
  status: z.enum(['succeeded', 'failed', 'stopped']),
  inputs: Values,
  outputs: Values,
  error: RunError.optional(),
  elapsedMs: z.number(),
  usage: TokenUsage,
});
export type NodeRunResult = z.infer<typeof NodeRunResult>;

export const RunStopResult = z.object({ stopped: z.boolean() });

const LastEventId = z
  .string()
  .regex(/^\d{1,9}$/)
  .optional()
  .describe('The id of the last frame received; the stream resumes after it');

/**
 * Resuming a run's stream (GET .../runs/{run_id}/events): `Last-Event-ID` is the `id:` of the last
 * frame the client got (the stream goes on after it); without it the stream starts from `run_created`.
 */
export const RunEventsHeaders = z.looseObject({
  'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)'),
  'last-event-id': LastEventId,
});

/** Resuming a portal or public-API run stream: the same `Last-Event-ID`, with that group's own auth. */
export const StreamResumeHeaders = z.looseObject({ 'last-event-id': LastEventId });

export const RunListQuery = z.object({
  period: LogPeriod.default('all'),
  status: RunStatus.optional(),
  /** Only the runs of this source (the Logs tab's source filter: portal, debug…). */
  source: RunSource.optional(),
  /** Case-insensitive substring of the query, the answer or the inputs. */
  keyword: z.string().trim().max(200).optional(),
  page: pageNumber,
  page_size: pageSize(RUN_PAGE_MAX, 20),
});
export type RunListQuery = z.infer<typeof RunListQuery>;

export const ConversationListQuery = z.object({ period: LogPeriod.default('all'), page: pageNumber, page_size: pageSize(RUN_PAGE_MAX, 20) });
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;
export const MessageListQuery = z.object({ page: pageNumber, page_size: pageSize(RUN_PAGE_MAX, 100) });
export type MessageListQuery = z.infer<typeof MessageListQuery>;

/** A list page (runs, conversations, messages). */
export const listPage = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });

/** A run as the log lists it. */
export const RunSummary = z.object({
  id: Id,
  app_id: Id,
  mode: FlowMode,
  source: RunSource,
  /** The published version's number the run ran (null: the draft, or a version deleted since). */
  version: z.string().nullable(),
  /** Single-node runs: the node. */
  node_id: z.string().nullable(),
  status: RunStatus,
  query: z.string(),
  inputs: Values,
  outputs: Values,
  answer: z.string(),
  error: RunError.nullable(),
  usage: TokenUsage,
  steps: z.number().int(),
  elapsed_ms: z.number(),
  conversation_id: Id.nullable(),
  created_by: Id,
  created_by_name: z.string(),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type RunSummary = z.infer<typeof RunSummary>;

/** One node execution of a stored run. Inside iterations and loops: `parent_id`, `scope` and `index`. */
export const NodeExecution = z.object({
  id: Id,
  execution_id: z.string(),
  seq: z.number().int(),
  node_id: z.string(),
  kind: z.string(),
  title: z.string(),
  /** The container node (iteration, loop) this node is inside. */
  parent_id: z.string().nullable(),
  /** The container's execution (innermost frame of `scope`). */
  parent_execution_id: z.string().nullable(),
  /** The round (iteration index, loop round) of the innermost container. */
  index: z.number().int().nullable(),
  scope: z.array(RunScopeFrame),
  status: NodeRunStatus,
  inputs: Values,
  outputs: Values,
  handle: z.string().nullable(),
  error: RunError.nullable(),
  elapsed_ms: z.number(),
  usage: TokenUsage,
  retries: z.number().int(),
  started_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type NodeExecution = z.infer<typeof NodeExecution>;

export const RunDetail = z.object({ run: RunSummary, nodes: z.array(NodeExecution) });
export type RunDetail = z.infer<typeof RunDetail>;

export const ConversationSummary = z.object({
  id: Id,
  name: z.string(),
  message_count: z.number().int(),
  last_message_at: Timestamp.nullable(),
  created_by: Id,
  created_by_name: z.string(),
  created_at: Timestamp,
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const ConversationMessage = z.object({
  id: Id,
  query: z.string(),
  answer: z.string(),
  runId: Id.nullable(),
  status: RunStatus,
  error: RunError.nullable(),
  files: z.array(RunFileRef),
  usage: TokenUsage,
  elapsed_ms: z.number(),
  created_at: Timestamp,
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;

export const ConversationVariablesBody = z.object({ variables: Values }).strict();
export const ConversationVariables = z.object({ variables: Values });
export type ConversationVariables = z.infer<typeof ConversationVariables>;
