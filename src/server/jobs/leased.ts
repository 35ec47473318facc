/**
 * Leased jobs: long background work held by a lease its worker renews (knowledge tasks, broadcast
 * renders). The job queue (./boss `consume`) hands a job over; this runner keeps what every such job
 * does the same, and the caller (`LeasedWork`) keeps only its own record and work:
 *
 * - the attempt starts with a fresh lease (a retried job carries the grown one of its last attempt),
 *   then `claim` takes the caller's record (nothing to claim: the job is completed);
 * - while it works, the job's lease is renewed at most a second apart, single-flight (a slow
 *   database never stacks renewals), and `heartbeat` renews the record's side: it answers `stop`
 *   (cancelled, deleted, superseded) or `lost` (another worker owns it now); a job whose lease could
 *   not be renewed is lost too. `checkNow` runs a renewal at once (a stop request);
 * - the server stopping aborts the work: `released` puts the record back and the job is failed into
 *   a retry (another process, or the next start, takes it);
 * - each ending hook answers what becomes of the job: completed, cancelled, failed into a retry
 *   (pg-boss moves a job out of retries to the queue's dead-letter queue, whose `dead` hook ends the
 *   record), or nothing (the record is no longer this worker's: the job is left to its lease).
 */
import type { BossJob, Jobs } from './boss';
import type { QueueName } from './queues';

/** Lease renewals (and the caller's checks) of a running job at most this far apart. */
export const RENEW_EVERY_MS = 1_000;

/** What becomes of the job after an ending: `retry` fails it into a retry (dead-letter when out of them); null leaves it alone. */
export type JobEnd = 'complete' | 'cancel' | 'retry' | null;

export interface LeasedWork<R> {
  /** Takes the job's record for this attempt; null when there is nothing to do (deleted, edited since, ended). */
  claim(job: BossJob): Promise<R | null>;
  /** The record asks to stop before any work (a stop requested while the job waited). */
  stopAtStart?(record: R): boolean;
  /** Each renewal, after the job's lease (`held`: it was still this attempt's): the record's side. */
  heartbeat(record: R, held: boolean): Promise<'stop' | 'lost' | undefined>;
  /** The work itself; ends soon after `signal` aborts. */
  work(record: R, signal: AbortSignal): Promise<void>;
  done(record: R): Promise<JobEnd>;
  /** After a `done` ending's job end (what may follow it, such as warming a cache). */
  afterDone?(record: R): void;
  /** The work threw (not because it was aborted). */
  failed(record: R, error: unknown): Promise<JobEnd>;
  /** Stopped at start or by a heartbeat. */
  stopped(record: R): Promise<JobEnd>;
  /** The server stops: the record goes back to the queue (the job is failed into a retry unless this answers null). */
  released(record: R): Promise<JobEnd>;
  /** Names the record in the log ("knowledge task …"). */
  label(record: R): string;
}

export interface LeasedOptions {
  queues: readonly QueueName[];
  concurrency: number;
  /** The job data field that groups the queues' jobs (./boss `consume`). */
  group?: string;
  /** The dead-letter queue of `queues`, and what ends the record of a job that ran out of retries. */
  deadLetter?: { queue: QueueName; dead(job: BossJob): Promise<void> };
  log: (e: unknown) => void;
}

class Shutdown extends Error {
  constructor() {
    super('The server is shutting down');
  }
}
class Stop extends Error {
  constructor() {
    super('Stopped');
  }
}
class Lost extends Error {
  constructor() {
    super('The job was taken over by another worker');
  }
}

/** Consumes `opts.queues` with `work` (and the dead-letter queue); `checkNow` renews every running job's lease at once. */
export function consumeLeased<R>(jobs: Jobs, opts: LeasedOptions, work: LeasedWork<R>): { checkNow(): void } {
  const { log } = opts;
  const renewers = new Set<() => void>();

  async function end(job: BossJob, what: JobEnd, message: string) {
    if (what === 'complete') await jobs.boss.complete(job.name, job.id);
    else if (what === 'cancel') await jobs.boss.cancel(job.name, job.id);
    else if (what === 'retry') await jobs.boss.fail(job.name, job.id, { message });
  }
  const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)) || 'Failed';

  async function run(job: BossJob, shutdown: AbortSignal) {
    // The job's new attempt starts with a fresh lease (a retried job carries the grown one of the last).
    await jobs.renew(job);
    const record = await work.claim(job);
    if (record === null) return void (await jobs.boss.complete(job.name, job.id));
    if (work.stopAtStart?.(record)) return void (await end(job, await work.stopped(record), 'Stopped'));

    const controller = new AbortController();
    const onShutdown = () => controller.abort(new Shutdown());
    shutdown.addEventListener('abort', onShutdown);
    if (shutdown.aborted) onShutdown();

    let renewing: Promise<void> | null = null;
    const renew = () => {
      renewing ??= (async () => {
        try {
          if (controller.signal.aborted) return;
          const held = await jobs.renew(job);
          const verdict = await work.heartbeat(record, held);
          if (verdict === 'stop') controller.abort(new Stop());
          else if (verdict === 'lost' || !held) controller.abort(new Lost());
        } catch (e) {
          log(e);
        } finally {
          renewing = null;
        }
      })();
    };
    renewers.add(renew);
    const timer = setInterval(renew, Math.min(RENEW_EVERY_MS, (jobs.options.leaseSeconds * 1000) / 3));
    timer.unref?.();

    try {
      await work.work(record, controller.signal);
      controller.signal.throwIfAborted();
      await end(job, await work.done(record), 'Done');
      work.afterDone?.(record);
    } catch (e) {
      const reason = controller.signal.aborted ? controller.signal.reason : null;
      // Every ending below is caught: the job is then left to its lease, as after a crash.
      const ending = async (what: () => Promise<JobEnd>, message: string) => {
        const decided = await what().catch((x) => (log(x), null));
        await end(job, decided, message).catch(log);
      };
      if (reason instanceof Lost) log(`${work.label(record)}: its job was taken over by another process`);
      else if (reason instanceof Shutdown) await ending(() => work.released(record), 'The server stopped');
      else if (reason instanceof Stop) await ending(() => work.stopped(record), 'Stopped');
      else await ending(() => work.failed(record, e), messageOf(e));
    } finally {
      clearInterval(timer);
      renewers.delete(renew);
      shutdown.removeEventListener('abort', onShutdown);
      await renewing;
    }
  }

  for (const queue of opts.queues) jobs.consume(queue, { concurrency: opts.concurrency, group: opts.group, run });
  const dl = opts.deadLetter;
  if (dl) {
    jobs.consume(dl.queue, {
      concurrency: 1,
      async run(job) {
        await dl.dead(job);
        await jobs.boss.complete(job.name, job.id);
      },
    });
  }
  return { checkNow: () => renewers.forEach((r) => r()) };
}
