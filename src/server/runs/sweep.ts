import { and, eq, lt, sql } from 'drizzle-orm';
import { DEFAULT_RUN_LIMITS } from '../../engine/run';
import type { Database } from '../db/client';
import { messages, nodeExecutions, runEvents, runs } from '../db/schema';

/** The error a run gets when its server went away while it was going. */
export const RUN_INTERRUPTED = { code: 'RUN-INTERRUPTED', message: 'The server stopped while this run was going; run it again' } as const;

/**
 * Ends runs left `running` by a server that stopped mid-run (a crash, a kill): they, their running
 * node executions and their messages become `failed` with RUN-INTERRUPTED, so the log and the
 * debug pane never show a run that spins forever. The run keeps what its stored nodes say happened:
 * `steps` counts the node executions that ended (the recorder writes a node's row when it starts
 * and when it ends), the token usage is theirs summed.
 *
 * The embedded database belongs to one process, so at its start every running run is an orphan.
 * On a shared PostgreSQL server another process may be running a run right now: only runs older
 * than the engine's run-time limit (which no live run outlives) are taken, on start and then
 * every few minutes. Answers how many runs it ended.
 */
export async function sweepOrphanedRuns(database: Pick<Database, 'db' | 'kind'>, opts: { all?: boolean } = {}): Promise<number> {
  const { db } = database;
  const everything = opts.all ?? database.kind === 'pglite';
  const cutoff = new Date(Date.now() - DEFAULT_RUN_LIMITS.maxRunTimeMs - 60_000);
  const where = everything ? eq(runs.status, 'running') : and(eq(runs.status, 'running'), lt(runs.createdAt, cutoff));
  // Over the run's stored node executions that ended (not running, not skipped).
  const ended = (expr: string) =>
    sql`(SELECT ${sql.raw(expr)} FROM ${nodeExecutions} n WHERE n.run_id = ${runs.id} AND n.status NOT IN ('running', 'skipped'))::int`;
  return db.transaction(async (tx) => {
    const swept = await tx
      .update(runs)
      .set({
        status: 'failed',
        error: { ...RUN_INTERRUPTED },
        finishedAt: new Date(),
        steps: ended('count(*)'),
        promptTokens: ended('coalesce(sum(n.prompt_tokens), 0)'),
        completionTokens: ended('coalesce(sum(n.completion_tokens), 0)'),
        totalTokens: ended('coalesce(sum(n.total_tokens), 0)'),
      })
      .where(where)
      .returning({ id: runs.id });
    if (!swept.length) return 0;
    const ids = swept.map((r) => r.id);
    const inIds = sql`(${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`;
    await tx
      .update(nodeExecutions)
      .set({ status: 'failed', error: { ...RUN_INTERRUPTED }, finishedAt: new Date() })
      .where(and(eq(nodeExecutions.status, 'running'), sql`${nodeExecutions.runId} in ${inIds}`));
    await tx
      .update(messages)
      .set({ status: 'failed', error: { ...RUN_INTERRUPTED }, updatedAt: new Date() })
      .where(and(eq(messages.status, 'running'), sql`${messages.runId} in ${inIds}`));
    return ids.length;
  });
}

/**
 * How long a run's stream stays in the event log (run_events): a client resumes a stream within
 * seconds of losing it; the trace and the log keep the run for good. Longer than any run lasts.
 */
export const RUN_EVENTS_KEEP_MS = DEFAULT_RUN_LIMITS.maxRunTimeMs + 60 * 60_000;

/** Deletes the event log's rows older than {@link RUN_EVENTS_KEEP_MS}; answers how many. */
export async function pruneRunEvents(db: Database['db'], keepMs = RUN_EVENTS_KEEP_MS): Promise<number> {
  const gone = await db.delete(runEvents).where(lt(runEvents.createdAt, new Date(Date.now() - keepMs))).returning({ seq: runEvents.seq });
  return gone.length;
}
