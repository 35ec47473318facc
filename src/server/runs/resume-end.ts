import { desc, eq } from 'drizzle-orm';
import type { RunEventOf } from '../../../schemas/run';
import type { ServerContext } from '../context';
import { messages, runEvents, runs } from '../db/schema';

/** How long a resumed stream waits, after the run's last event, for the run to be stored as ended. */
const STORED_WAIT_MS = 10_000;
const STORED_POLL_MS = 50;

/** The last event of a run (`run_finished` / `run_failed`) and its number in the run's log. */
export interface LoggedEnd {
  seq: number;
  event: RunEventOf<'run_finished' | 'run_failed'>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The end of a run, for the closing frames of a resumed portal or public-API stream (the portal's
 * `message_end`, Dify's `workflow_finished` and `message_end`): the live stream sends them once the
 * run is stored, so this waits (polling, at most {@link STORED_WAIT_MS}) for the run's row to leave
 * `running`, then reads its last logged event. Undefined when the client went away, the run is not
 * stored in time, or its log has no end (a batch whose write failed).
 */
export async function storedEnd(ctx: ServerContext, runId: string, signal: AbortSignal): Promise<LoggedEnd | undefined> {
  for (const until = Date.now() + STORED_WAIT_MS; ; await sleep(STORED_POLL_MS)) {
    if (signal.aborted) return undefined;
    const [run] = await ctx.db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId));
    if (run && run.status !== 'running') break;
    if (Date.now() > until) return undefined;
  }
  const [last] = await ctx.db.select({ seq: runEvents.seq, event: runEvents.event }).from(runEvents).where(eq(runEvents.runId, runId)).orderBy(desc(runEvents.seq)).limit(1);
  if (!last) return endOfRow(ctx, runId);
  const event = last.event as LoggedEnd['event'] | undefined;
  if (event?.type !== 'run_finished' && event?.type !== 'run_failed') return undefined;
  return { seq: last.seq, event };
}

/**
 * The end of a stored run whose stream was not logged (a blocking public-API run, runs/launch.ts
 * `logEvents`), as the event it ended with, numbered 0 (the log's first place): its closing frames
 * follow as 1, 2. Undefined when the row is gone or still running.
 */
async function endOfRow(ctx: ServerContext, runId: string): Promise<LoggedEnd | undefined> {
  const [run] = await ctx.db
    .select({
      status: runs.status,
      outputs: runs.outputs,
      answer: runs.answer,
      error: runs.error,
      promptTokens: runs.promptTokens,
      completionTokens: runs.completionTokens,
      totalTokens: runs.totalTokens,
      steps: runs.steps,
      elapsedMs: runs.elapsedMs,
      finishedAt: runs.finishedAt,
    })
    .from(runs)
    .where(eq(runs.id, runId));
  if (!run || run.status === 'running') return undefined;
  const common = {
    runId,
    seq: 0,
    at: (run.finishedAt ?? new Date()).getTime(),
    elapsedMs: run.elapsedMs,
    outputs: run.outputs,
    answer: run.answer,
    usage: { promptTokens: run.promptTokens, completionTokens: run.completionTokens, totalTokens: run.totalTokens },
    steps: run.steps,
  };
  if (run.status === 'succeeded') return { seq: 0, event: { type: 'run_finished', ...common } };
  return { seq: 0, event: { type: 'run_failed', ...common, status: run.status, error: run.error ?? { code: 'RUN-1100', message: 'The run failed' } } };
}

/** The message a chat run answered (its id, conversation and the citations stored with it), if any. */
export async function runMessage(ctx: ServerContext, runId: string) {
  const [m] = await ctx.db
    .select({ id: messages.id, conversationId: messages.conversationId, citations: messages.citations })
    .from(messages)
    .where(eq(messages.runId, runId))
    .limit(1);
  return m;
}
