import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobsOf, startJobs, type BossJob, type Jobs } from '../../src/server/jobs/boss';
import { consumeLeased, type JobEnd, type LeasedWork } from '../../src/server/jobs/leased';
import type { QueueName } from '../../src/server/jobs/queues';
import { useStudio } from './harness';

// The leased-job runner (src/server/jobs/leased) that knowledge tasks and broadcast renders share, on
// queues of this file's own (no worker of the server takes their jobs), over the real pg-boss and database:
// a job whose work throws is retried and, out of retries, reaches its dead-letter hook; lease renewal keeps
// a long job from being taken by another worker; a job running at shutdown is handed back, not lost.

const h = useStudio();

/** This file's queues are not the server's: the runner's types name the server's. */
const q = (name: string) => name as QueueName;

async function until(test: () => boolean | Promise<boolean>, what: string, jobs?: Jobs, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    // Wakes the consumers (a dead-letter or retried job is otherwise seen at the next poll).
    jobs?.nudge();
    await new Promise((r) => setTimeout(r, 20));
  }
}

const jobRow = async (id: string) => {
  const rows = (await h.studio.ctx.db.execute(sql`select state, retry_count, output from pgboss.job where id = ${id}::uuid`)) as unknown;
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { state: string; retry_count: number; output: { message?: string } | null }[];
  return list[0];
};

/** The record of one attempt: its job and retry count. */
type Rec = { id: string; attempt: number };

/** A record per attempt; every hook answers as `ends` says and is counted. */
function recorder(ends: Partial<Record<'done' | 'failed' | 'stopped' | 'released', JobEnd>> = {}) {
  const calls: string[] = [];
  const hook = (name: 'done' | 'failed' | 'stopped' | 'released') => async () => {
    calls.push(name);
    return ends[name] === undefined ? (name === 'released' ? 'retry' : 'complete') : ends[name]!;
  };
  const work = {
    claim: async (job: BossJob): Promise<Rec> => ({ id: job.id, attempt: job.retryCount }),
    heartbeat: async () => (calls.push('heartbeat'), undefined),
    done: hook('done'),
    failed: hook('failed'),
    stopped: hook('stopped'),
    released: hook('released'),
    label: (r: Rec) => `test job ${r.id}`,
  };
  return { calls, work };
}

async function createQueue(jobs: Jobs, name: string, options: { retryLimit: number; deadLetter?: string }) {
  await jobs.boss.createQueue(name, { name, policy: 'standard', retryDelay: 0, retryBackoff: false, expireInSeconds: jobs.options.leaseSeconds, ...options });
}

describe('the leased-job runner', () => {
  it('retries a job whose work throws when its hook says so, and ends it in its dead-letter hook out of retries', async () => {
    const jobs = jobsOf(h.studio.ctx.db)!;
    await createQueue(jobs, 'test-leased-dead', { retryLimit: 0 });
    await createQueue(jobs, 'test-leased-throws', { retryLimit: 1, deadLetter: 'test-leased-dead' });
    const { calls, work } = recorder({ failed: 'retry' });
    const attempts: number[] = [];
    const dead: unknown[] = [];
    consumeLeased(
      jobs,
      { queues: [q('test-leased-throws')], concurrency: 1, log: () => undefined, deadLetter: { queue: q('test-leased-dead'), dead: async (job) => void dead.push(job.data) } },
      {
        ...work,
        async work(r) {
          attempts.push(r.attempt);
          throw new Error(`boom ${r.attempt}`);
        },
      },
    );
    const id = (await jobs.send(q('test-leased-throws'), { n: 7 }))!;
    await until(() => dead.length === 1, 'the dead-letter hook', jobs);
    // The first attempt and its one retry, each failed by its hook into a retry; then the dead letter.
    expect(attempts).toEqual([0, 1]);
    expect(calls.filter((c) => c !== 'heartbeat')).toEqual(['failed', 'failed']);
    expect(dead).toEqual([{ n: 7 }]);
    expect(await jobRow(id)).toMatchObject({ state: 'failed', retry_count: 1, output: { message: 'boom 1' } });
  });

  it('renews the lease of a long job, so that another worker cannot take it', async () => {
    const jobs = jobsOf(h.studio.ctx.db)!;
    await createQueue(jobs, 'test-leased-long', { retryLimit: 2 });
    const { calls, work } = recorder();
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    let started = 0;
    const leased = consumeLeased(
      jobs,
      { queues: [q('test-leased-long')], concurrency: 1, log: () => undefined },
      {
        ...work,
        // Until the test lets it end, or the server stops (a failed test must not hold up the stop).
        async work(_r, signal) {
          started++;
          await Promise.race([finished, new Promise((r) => signal.addEventListener('abort', r))]);
        },
      },
    );
    const id = (await jobs.send(q('test-leased-long'), {}))!;
    await until(() => started === 1, 'the work to start');
    // As if it had run for an hour: its lease (60 s) would have run out long ago without renewals.
    await h.studio.ctx.db.execute(sql`update pgboss.job set started_on = now() - interval '1 hour' where id = ${id}::uuid`);
    const beats = calls.length;
    leased.checkNow();
    await until(() => calls.length > beats, 'a renewal');
    // pg-boss's maintenance (any process) expires the jobs whose lease ran out; another worker then asks for one.
    await (jobs.boss as unknown as { expire(): Promise<void> }).expire();
    expect(await jobs.boss.fetch(q('test-leased-long'))).toEqual([]);
    expect(await jobRow(id)).toMatchObject({ state: 'active', retry_count: 0 });
    finish();
    await until(async () => (await jobRow(id))?.state === 'completed', 'the job to complete');
    expect(started).toBe(1);
    expect(calls.filter((c) => c !== 'heartbeat')).toEqual(['done']);
  });

  // Last: it stops the server's job queue (the database stays open).
  it('hands a job still running at shutdown back to the queue, and another start finishes it', async () => {
    const jobs = jobsOf(h.studio.ctx.db)!;
    await createQueue(jobs, 'test-leased-stop', { retryLimit: 2 });
    const first = recorder();
    let aborted: unknown = null;
    let started = false;
    consumeLeased(
      jobs,
      { queues: [q('test-leased-stop')], concurrency: 1, log: () => undefined },
      {
        ...first.work,
        // Runs until the server stops.
        work: (_r, signal) =>
          new Promise<void>((_, reject) => {
            started = true;
            signal.addEventListener('abort', () => {
              aborted = signal.reason;
              reject(signal.reason as Error);
            });
          }),
      },
    );
    const id = (await jobs.send(q('test-leased-stop'), {}))!;
    await until(() => started, 'the work to start');
    await jobs.stop();
    expect(aborted).toBeInstanceOf(Error);
    expect(first.calls.filter((c) => c !== 'heartbeat')).toEqual(['released']);
    expect(await jobRow(id)).toMatchObject({ state: 'retry', retry_count: 0, output: { message: 'The server stopped' } });

    // The next start (another process, or this one again) takes it as its second attempt and finishes it.
    const next = await startJobs(h.studio.database, jobs.options);
    try {
      const second = recorder();
      const attempts: number[] = [];
      consumeLeased(next, { queues: [q('test-leased-stop')], concurrency: 1, log: () => undefined }, {
        ...second.work,
        work: async (r) => void attempts.push(r.attempt),
      } satisfies LeasedWork<Rec>);
      next.nudge();
      await until(async () => (await jobRow(id))?.state === 'completed', 'the job to complete on the next start');
      expect(attempts).toEqual([1]);
      expect(second.calls.filter((c) => c !== 'heartbeat')).toEqual(['done']);
    } finally {
      await next.stop();
    }
  });
});
