/**
 * Background work of every server process on the database, on pg-boss (issue 34): one PgBoss per
 * process, started and stopped with the server, over the app's own database access (./db-adapter:
 * the same code on PGlite and on a PostgreSQL server). pg-boss's schema is migration 0043, so a start
 * only reads its version. Queues are created at start when missing (./queues), schedules replace the
 * in-process timers, and any process may take any job.
 *
 * Two ways to take jobs:
 * - `work` (pg-boss's own worker): short jobs, scheduled passes (sweeps, refreshes);
 * - `consume`: long jobs held by a lease that the worker renews (`renew`) while it works. pg-boss 10
 *   has no heartbeat: an active job's lease is its `expire_in`, which its worker's own timer also
 *   applies in `work`. A consumer takes jobs with pg-boss's `fetch` (SKIP LOCKED), grows the job's
 *   `expire_in` while it is alive, and completes, fails (retry) or cancels it; a process that dies
 *   stops renewing, and pg-boss's maintenance (any process) expires the job into a retry.
 */
import type PgBoss from 'pg-boss';
import type { Database, Db } from '../db/client';
import type { Tx } from '../services/workspace-resources';
import { clientAdapter, executorAdapter } from './db-adapter';
import { fetchKeyed } from './fetch';
import { JOB_QUEUES, type QueueName } from './queues';

export type BossJob<T = Record<string, unknown>> = PgBoss.JobWithMetadata<T>;

export interface JobsOptions {
  /** How often an idle consumer asks for jobs (ms): sends in this process wake it at once. */
  pollMs: number;
  /** A running job's lease (s): a process that stops renewing it loses the job after this, plus `maintenanceSeconds`. */
  leaseSeconds: number;
  /** How often pg-boss's maintenance (expiry of dead processes' jobs, archiving) runs, in one process at a time. */
  maintenanceSeconds: number;
  log: (e: unknown) => void;
}

export interface ConsumeOptions {
  concurrency: number;
  /**
   * A job data field that groups the queue's jobs (the knowledge base of a knowledge task): jobs are
   * taken one per singleton key, groups with nothing running first, and one slot beyond `concurrency`
   * is kept for a job of a group with nothing running anywhere (./fetch), so one group's long jobs do
   * not hold up the others.
   */
  group?: string;
  /** Does one job; `shutdown` aborts when the process stops (hand the job back). */
  run(job: BossJob, shutdown: AbortSignal): Promise<void>;
}

export interface Jobs {
  readonly boss: PgBoss;
  readonly options: JobsOptions;
  /** Sends a job, in `db`'s transaction when given; wakes this process's consumer of the queue. */
  send(queue: QueueName, data: object, options?: PgBoss.SendOptions, db?: Db | Tx): Promise<string | null>;
  /** Wakes this process's consumer of `queue` (after a transaction that sent jobs commits). */
  nudge(queue?: QueueName): void;
  consume(queue: QueueName, opts: ConsumeOptions): void;
  work(queue: QueueName, handler: (jobs: PgBoss.Job<object>[]) => Promise<void>, pollingIntervalSeconds?: number): Promise<void>;
  /** Renews the lease of a job this process runs; false when the job is no longer this attempt's (cancelled, expired, taken). */
  renew(job: BossJob): Promise<boolean>;
  /** Jobs a consumer of this process is running, by queue (tests, the clean stop). */
  running(): number;
  stop(): Promise<void>;
}

const registry = new Map<Db, Jobs>();

/** This process's job queue on `db` (undefined before the server started it, or after its stop). */
export const jobsOf = (db: Db): Jobs | undefined => registry.get(db);

/** Starts pg-boss on the database, creates the missing queues, and registers the process's job queue. */
export async function startJobs(database: Pick<Database, 'db' | 'kind'>, opts: JobsOptions): Promise<Jobs> {
  const { default: PgBossClass } = await import('pg-boss');
  const adapter = clientAdapter(database);
  let stopping = false;
  const boss = new PgBossClass({
    db: adapter,
    schema: 'pgboss',
    maintenanceIntervalSeconds: opts.maintenanceSeconds,
    // Finished jobs stay a day for the log, then a week in the archive (dataset_tasks keeps the tasks' story).
    archiveCompletedAfterSeconds: 24 * 3600,
    deleteAfterDays: 7,
  });
  boss.on('error', (e) => {
    if (!stopping) opts.log(e);
  });
  await boss.start();
  await ensureQueues(boss, opts);
  // The embedded database belongs to this process: a job left active there was a previous start's.
  if (database.kind === 'pglite') await releaseOrphans(boss, database.db);

  const consumers = new Map<QueueName, { wake(): void; done: Promise<void>; running: Set<Promise<void>> }>();
  const shutdown = new AbortController();

  const jobs: Jobs = {
    boss,
    options: opts,
    async send(queue, data, options = {}, db) {
      const id = await boss.send(queue, data, { ...options, ...(db ? { db: executorAdapter(db) } : {}) });
      if (!db) jobs.nudge(queue);
      return id;
    },
    nudge(queue) {
      for (const [name, c] of consumers) if (!queue || name === queue) c.wake();
    },
    consume(queue, { concurrency, run, group }) {
      const running = new Set<Promise<void>>();
      const limit = concurrency + (group === undefined ? 0 : 1);
      let wake: () => void = () => undefined;
      let woken = false;
      const sleep = (ms: number) =>
        new Promise<void>((resolve) => {
          if (woken || shutdown.signal.aborted) return resolve();
          const timer = setTimeout(done, ms);
          function done() {
            clearTimeout(timer);
            wake = () => undefined;
            resolve();
          }
          wake = done;
        });
      const loop = async () => {
        while (!shutdown.signal.aborted) {
          woken = false;
          const free = concurrency - running.size;
          // The kept slot: taken only by a job of a group with nothing running.
          const kept = group !== undefined && free <= 0 && running.size < limit;
          let got = 0;
          if (free > 0 || kept) {
            try {
              const found = group
                ? await fetchKeyed(adapter, queue, kept ? 1 : free, group, kept)
                : ((await boss.fetch(queue, { batchSize: free, includeMetadata: true })) as BossJob[]);
              got = found.length;
              for (const job of found) {
                const p: Promise<void> = run(job, shutdown.signal)
                  .catch(opts.log)
                  .finally(() => {
                    running.delete(p);
                    c.wake();
                  });
                running.add(p);
              }
            } catch (e) {
              if (!shutdown.signal.aborted) opts.log(e);
            }
          }
          // Found some with room left: there may be more. Otherwise wait for a poll, a send or a job's end.
          if (got > 0 && running.size < limit) continue;
          await sleep(opts.pollMs);
        }
      };
      const c = {
        wake: () => {
          woken = true;
          wake();
        },
        running,
        done: Promise.resolve(),
      };
      consumers.set(queue, c);
      c.done = loop();
    },
    async work(queue, handler, pollingIntervalSeconds = 10) {
      await boss.work(queue, { pollingIntervalSeconds, batchSize: 1 }, handler);
    },
    async renew(job) {
      const { rows } = await adapter.executeSql(
        `UPDATE pgboss.job SET expire_in = (now() - started_on) + $4 * interval '1 second'
         WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3 RETURNING id`,
        [job.name, job.id, job.retryCount, opts.leaseSeconds],
      );
      return rows.length === 1;
    },
    running: () => [...consumers.values()].reduce((n, c) => n + c.running.size, 0),
    async stop() {
      if (stopping) return;
      stopping = true;
      registry.delete(database.db);
      // Consumers stop taking jobs and hand the running ones back (their `run` sees the abort).
      shutdown.abort();
      for (const c of consumers.values()) c.wake();
      await Promise.all([...consumers.values()].map(async (c) => {
        await c.done;
        await Promise.all([...c.running]);
      }));
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      // pg-boss's own pollers may still have a statement under way: it ends before the database closes.
      const until = Date.now() + 5_000;
      while (adapter.inflight() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      adapter.close();
    },
  };
  registry.set(database.db, jobs);
  return jobs;
}

/** Creates the queues this version uses that the database lacks, and brings changed options up to date. */
async function ensureQueues(boss: PgBoss, opts: JobsOptions) {
  const existing = new Map((await boss.getQueues()).map((q) => [q.name, q]));
  // In order: a dead-letter queue before the queues that name it.
  for (const [name, make] of Object.entries(JOB_QUEUES)) {
    const wanted = make(opts);
    const had = existing.get(name);
    if (!had) await boss.createQueue(name, { name, ...wanted });
    else if (had.expireInSeconds !== wanted.expireInSeconds || had.retryLimit !== wanted.retryLimit || had.policy !== wanted.policy) {
      await boss.updateQueue(name, { name, ...wanted });
    }
  }
}

/** Fails (into a retry) every job left active on the embedded database: its process is gone. */
async function releaseOrphans(boss: PgBoss, db: Db) {
  const { rows } = await executorAdapter(db).executeSql(`SELECT name, id FROM pgboss.job WHERE state = 'active' AND name NOT LIKE '\\_\\_pgboss%'`);
  for (const r of rows as { name: string; id: string }[]) await boss.fail(r.name, r.id, { message: 'The server stopped while this job was running' });
}
