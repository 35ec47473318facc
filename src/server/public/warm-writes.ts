import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { RunResult } from '../../engine';
import type { ServerContext } from '../context';
import { apiKeys, apiRateCounters, nodeExecutions } from '../db/schema';
import { combine, executeRaw } from '../runs/raw-sql';
import type { NodeRow } from '../runs/recorder';
import { wholeRun } from '../runs/whole-run';
import type { ApiApp } from './target';

/** No key has this id: the warm-up's key update matches no row. */
const NO_KEY = '00000000-0000-0000-0000-000000000000';

/** Thrown inside the warm-up's transaction to roll it back (nothing it wrote is kept). */
class WarmRollback extends Error {}

/**
 * The statements a public-API run makes, run once after a start so that the first real run does
 * not pay for their first use (issue 22: the first run after start within 50 ms). A fresh embedded
 * database plans each statement, loads the tables' and indexes' catalog entries and prepares each
 * foreign key's check on first use; with the JavaScript that builds them cold too, the first run
 * spent about twice the main thread's time of a warm one (prof: 30–45 ms against 10–17 ms).
 *
 * Nothing is kept: the run's whole write (the run row of `app` and its node rows, the statement a
 * short run's end makes: runs/whole-run.ts) goes in a transaction that is rolled back; the key
 * update and the request counter's upsert match no row. Never fails the start.
 */
export async function warmRunWrites(ctx: ServerContext, app: ApiApp, versionId: string): Promise<void> {
  // The key's `last_used_at` (security/api-keys.ts touchApiKey) and the request counters'
  // upsert (security/rate-limit.ts), as the first request makes them.
  await ctx.db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, NO_KEY));
  await ctx.db.execute(sql`INSERT INTO ${apiRateCounters} (key_id, window_start, count)
    SELECT ${NO_KEY}::uuid, now(), 1 WHERE false
    ON CONFLICT (key_id, window_start) DO UPDATE SET count = ${apiRateCounters}.count + excluded.count
    RETURNING key_id, count`);

  const runId = randomUUID();
  const now = new Date();
  const node = (seq: number, kind: string): NodeRow => ({
    id: randomUUID(),
    runId,
    executionId: randomUUID(),
    seq,
    nodeId: kind,
    kind,
    title: kind,
    parentId: null,
    parentExecutionId: null,
    itemIndex: null,
    scope: [],
    status: 'succeeded',
    inputs: {},
    outputs: {},
    handle: null,
    error: null,
    elapsedMs: 0,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    retries: 0,
    startedAt: now,
    finishedAt: now,
  });
  const result: RunResult = {
    runId,
    status: 'succeeded',
    outputs: {},
    answer: '',
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    elapsedMs: 0,
    steps: 3,
    conversation: {},
  };
  const parts = wholeRun({
    runId,
    app,
    source: 'api',
    versionId,
    query: '',
    inputs: {},
    files: [],
    userId: randomUUID(),
    endUser: 'warm-up',
    startedAt: now,
  })([node(1, 'start'), node(2, 'code'), node(3, 'end')], result, {});
  const statement = combine(parts);
  try {
    await ctx.db.transaction(async (tx) => {
      await executeRaw(tx as unknown as typeof ctx.db, statement);
      // Nothing of it may stay: not even a row another statement of this transaction could see.
      const [left] = await tx.select({ n: sql<number>`count(*)::int` }).from(nodeExecutions).where(eq(nodeExecutions.runId, runId));
      if (!left || left.n !== 3) throw new Error('warming the run writes: the rows were not written');
      throw new WarmRollback();
    });
  } catch (e) {
    if (!(e instanceof WarmRollback)) throw e;
  }
}
