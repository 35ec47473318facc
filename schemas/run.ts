import { z } from 'zod';
import { FlowMode } from './flow';

/**
 * Run events: what the engine (`src/engine`) emits while a flow runs, what the server streams to
 * the browser as SSE and stores for the log and trace views. One discriminated union on `type`.
 *
 * Every event has the run id, a sequence number (`seq`, from 0, in emission order) and `at`
 * (epoch milliseconds). Node events carry an `executionId` (unique within the run: a node inside an
 * iteration runs once per round) and `scope`: the containers and rounds it runs in, outermost first.
 *
 * Chat text: `answer_chunk` is the reply the user sees (answer nodes, streamed in order);
 * `node_chunk` is one node's own streaming output (an llm's tokens) for the trace.
 */

export const TokenUsage = z
  .object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative(), totalTokens: z.number().int().nonnegative() })
  .strict();
export type TokenUsage = z.infer<typeof TokenUsage>;

/** An error in a run: a code (`src/engine/errors.ts` RUN_ERRORS, or an executor's own) and an English message. */
export const RunError = z.object({ code: z.string(), message: z.string(), nodeId: z.string().optional() }).strict();
export type RunError = z.infer<typeof RunError>;

export const RunStatus = z.enum(['running', 'succeeded', 'failed', 'stopped']);
export type RunStatus = z.infer<typeof RunStatus>;

/** `exception`: failed, handled by the node's error strategy (fail branch or default values). */
export const NodeRunStatus = z.enum(['running', 'succeeded', 'exception', 'failed', 'stopped', 'skipped']);
export type NodeRunStatus = z.infer<typeof NodeRunStatus>;

/** One level of nesting: the container node, its execution and the round (iteration index / loop round). */
export const RunScopeFrame = z.object({ containerId: z.string(), executionId: z.string(), index: z.number().int().nonnegative() }).strict();
export type RunScopeFrame = z.infer<typeof RunScopeFrame>;

const Values = z.record(z.string(), z.unknown());
const ms = z.number().nonnegative();

const base = { runId: z.string(), seq: z.number().int().nonnegative(), at: z.number() };
const nodeBase = {
  ...base,
  executionId: z.string(),
  nodeId: z.string(),
  kind: z.string(),
  title: z.string(),
  parentId: z.string().optional(),
  scope: z.array(RunScopeFrame),
};

export const RunStartedEvent = z.object({ type: z.literal('run_started'), ...base, mode: FlowMode, inputs: Values }).strict();
export const RunFinishedEvent = z
  .object({ type: z.literal('run_finished'), ...base, elapsedMs: ms, outputs: Values, answer: z.string(), usage: TokenUsage, steps: z.number().int() })
  .strict();
/** The run ended without success: `failed` (an error, a limit) or `stopped` (cancelled). */
export const RunFailedEvent = z
  .object({
    type: z.literal('run_failed'),
    ...base,
    status: z.enum(['failed', 'stopped']),
    elapsedMs: ms,
    error: RunError,
    outputs: Values,
    answer: z.string(),
    usage: TokenUsage,
    steps: z.number().int(),
  })
  .strict();

export const NodeStartedEvent = z.object({ type: z.literal('node_started'), ...nodeBase, inputs: Values }).strict();
export const NodeChunkEvent = z.object({ type: z.literal('node_chunk'), ...nodeBase, text: z.string() }).strict();
/** A failed try that will be tried again after `delayMs`. */
export const NodeRetryEvent = z
  .object({ type: z.literal('node_retry'), ...nodeBase, attempt: z.number().int().positive(), delayMs: ms, error: RunError })
  .strict();
export const NodeFinishedEvent = z
  .object({
    type: z.literal('node_finished'),
    ...nodeBase,
    status: z.enum(['succeeded', 'exception']),
    elapsedMs: ms,
    inputs: Values,
    outputs: Values,
    handle: z.string(),
    usage: TokenUsage.optional(),
    retries: z.number().int().nonnegative(),
    /** Present when `status` is `exception`. */
    error: RunError.optional(),
  })
  .strict();
/** `stopped`: the node was cut short (stop button, a limit, or another node failing the run). */
export const NodeFailedEvent = z
  .object({
    type: z.literal('node_failed'),
    ...nodeBase,
    status: z.enum(['failed', 'stopped']),
    elapsedMs: ms,
    inputs: Values,
    error: RunError,
    retries: z.number().int().nonnegative(),
  })
  .strict();
/** A node on a branch not taken (or fed only by such branches). */
export const NodeSkippedEvent = z
  .object({ type: z.literal('node_skipped'), ...base, nodeId: z.string(), kind: z.string(), parentId: z.string().optional(), scope: z.array(RunScopeFrame) })
  .strict();
/**
 * The node waits for a shared resource before it can work (`sandbox`: a free code sandbox, with
 * `ahead` jobs queued before it); its timeout does not run meanwhile. Sent again when its place
 * changes; `waiting: false` ends the wait, after `waitedMs`.
 */
export const NodeWaitingEvent = z
  .object({
    type: z.literal('node_waiting'),
    ...nodeBase,
    reason: z.enum(['sandbox']),
    waiting: z.boolean(),
    ahead: z.number().int().nonnegative(),
    waitedMs: ms.optional(),
  })
  .strict();
/** Text of the reply, from an answer node. */
export const AnswerChunkEvent = z.object({ type: z.literal('answer_chunk'), ...base, nodeId: z.string(), text: z.string() }).strict();

export const IterationStartedEvent = z
  .object({ type: z.literal('iteration_started'), ...nodeBase, total: z.number().int().nonnegative(), parallelism: z.number().int().positive() })
  .strict();
/** Round `index` of an iteration begins (its nodes' events carry the same index in `scope`). */
export const IterationNextEvent = z.object({ type: z.literal('iteration_next'), ...nodeBase, index: z.number().int().nonnegative() }).strict();
export const LoopStartedEvent = z.object({ type: z.literal('loop_started'), ...nodeBase, maxCount: z.number().int().nonnegative() }).strict();
/** Round `index` of a loop begins, with the loop variables as they are then. */
export const LoopNextEvent = z
  .object({ type: z.literal('loop_next'), ...nodeBase, index: z.number().int().nonnegative(), variables: Values })
  .strict();

export const RunEvent = z.discriminatedUnion('type', [
  RunStartedEvent,
  RunFinishedEvent,
  RunFailedEvent,
  NodeStartedEvent,
  NodeChunkEvent,
  NodeRetryEvent,
  NodeFinishedEvent,
  NodeFailedEvent,
  NodeSkippedEvent,
  NodeWaitingEvent,
  AnswerChunkEvent,
  IterationStartedEvent,
  IterationNextEvent,
  LoopStartedEvent,
  LoopNextEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent['type'];
/** The event of one type. */
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
