/**
 * The periodic passes, as pg-boss schedules instead of a timer in every process: each runs in one
 * process at a time, whichever takes the job (pg-boss's cron sends one job per slot for all of them).
 *
 * - `knowledge-refresh` every 10 minutes: URL units that are due are queued again (knowledge/refresh);
 * - `runs-sweep` every 5 minutes: runs a dead process left `running` end as interrupted (on a server;
 *   the embedded database's are ended at start), and the run event log is pruned (runs/sweep);
 * - `overview-keep` every 10 minutes: the overview's settled days are kept (services/overview-keeper).
 *
 * The refresh and the overview's pass also run once after a start: one queued job for all the
 * processes that start at once (policy short). Not in the first seconds (issue 32): the overview's
 * pass vacuums in a transaction that holds the embedded database, and the first runs after a start
 * (the warm-up's, a client's) would wait behind it.
 */
import type { ServerContext } from '../context';
import type { Database } from '../db/client';
import { refreshDueUnits } from '../knowledge/refresh';
import { pruneRunEvents, sweepOrphanedRuns } from '../runs/sweep';
import { keepOverviewDays, STATEMENTS_PER_PASS } from '../services/overview-keeper';
import type { Jobs } from './boss';
import type { QueueName } from './queues';

/** Seconds after a start before its first refresh pass (the overview's comes 5 s later). */
export const START_PASS_DELAY_S = 15;

const SCHEDULES: Record<'knowledge-refresh' | 'runs-sweep' | 'overview-keep', string> = {
  'knowledge-refresh': '*/10 * * * *',
  'runs-sweep': '*/5 * * * *',
  'overview-keep': '*/10 * * * *',
};

/** Registers the passes' workers (unless this process takes no jobs) and schedules, and queues the first refresh and overview pass. */
export async function startPasses(ctx: ServerContext, database: Pick<Database, 'db' | 'kind'>, jobs: Jobs, log: (e: unknown) => void, opts: { work: boolean }): Promise<void> {
  const passes: Record<keyof typeof SCHEDULES, () => Promise<unknown>> = {
    'knowledge-refresh': () => refreshDueUnits(ctx),
    'runs-sweep': async () => {
      if (database.kind !== 'pglite') await sweepOrphanedRuns(database);
      await pruneRunEvents(database.db);
    },
    'overview-keep': () => keepOverviewDays(ctx, STATEMENTS_PER_PASS, log),
  };
  const scheduled = new Map((await jobs.boss.getSchedules()).map((s) => [s.name, s.cron]));
  for (const [queue, pass] of Object.entries(passes) as [keyof typeof SCHEDULES, () => Promise<unknown>][]) {
    // A failing pass is logged and waits for its next slot; it does not go on failing in a loop.
    if (opts.work) await jobs.work(queue, async () => void (await pass().catch(log)));
    if (scheduled.get(queue) !== SCHEDULES[queue]) await jobs.boss.schedule(queue, SCHEDULES[queue]);
  }
  for (const [queue, after] of [['knowledge-refresh', START_PASS_DELAY_S], ['overview-keep', START_PASS_DELAY_S + 5]] as [QueueName, number][]) {
    await jobs.send(queue, {}, { startAfter: after, singletonKey: 'start' });
  }
}
