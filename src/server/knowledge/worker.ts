/**
 * This process's knowledge workers: one pg-boss consumer per task type (src/server/jobs), each running
 * up to `concurrency` tasks at once. For each job it takes the task's record (dataset_tasks: running,
 * this worker as its owner, one more attempt), runs the type's handler, renews the job's lease while it
 * works (which also hears stop requests and deletions), and ends the record and the job together:
 *
 * - done → task `completed`, job completed; the handler threw → task `failed`, job completed (a task's
 *   own failure is not retried: the message is shown to the user);
 * - stopped, or its unit deleted → task `cancelled`, job cancelled (the handler removes what it wrote);
 * - the server stops → task back to `queued`, job failed into a retry (it starts again from scratch:
 *   handlers are idempotent);
 * - its lease lost (the process stalled past it and another took the task) → nothing written: the
 *   other worker owns the record now.
 *
 * A job out of retries (its processes kept dying) goes to the dead-letter queue, whose worker fails
 * the task.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { datasetDocuments, datasetTasks } from '../db/schema';
import type { BossJob, Jobs } from '../jobs/boss';
import { KNOWLEDGE_QUEUES } from '../jobs/queues';
import { cancelChecks, logTask, MAX_ATTEMPTS, mirrorOnUnit, type TaskType } from './queue';
import type { DatasetTaskRow, TaskHandler, TaskJob } from './types';
import { vectorCacheOf } from './vector-cache';

const PROGRESS_EVERY_MS = 250;
/** Lease renewals (and stop checks) of a running task at most this far apart. */
const RENEW_EVERY_MS = 1_000;

export interface KnowledgeWorkerOptions {
  /** Tasks of each type run at once by this process. */
  concurrency?: number;
  handlers?: Partial<Record<TaskType, TaskHandler>>;
  log?: (e: unknown) => void;
}

class ShutdownError extends Error {
  constructor() {
    super('The server is shutting down');
  }
}
class StopError extends Error {
  constructor() {
    super('Stopped by the user');
  }
}
class LostError extends Error {
  constructor() {
    super('The task was taken over by another worker');
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)) || 'Failed';

/** Registers the consumers of the four task types and the dead-letter worker on `jobs`. */
export function startKnowledgeWorkers(ctx: ServerContext, jobs: Jobs, opts: KnowledgeWorkerOptions = {}): { stop(): void } {
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = opts.log ?? ((e: unknown) => console.error('[weft] knowledge worker:', e));
  const leaseMs = jobs.options.leaseSeconds * 1000;
  const renewers = new Set<() => void>();
  let checks = cancelChecks.get(ctx.db);
  if (!checks) cancelChecks.set(ctx.db, (checks = new Set()));
  const checkAll = () => renewers.forEach((r) => r());
  checks.add(checkAll);

  const handlerOf = async (type: TaskType): Promise<TaskHandler> => {
    const h = opts.handlers?.[type];
    if (h) return h;
    const { taskHandlers } = await import('./handlers');
    return taskHandlers[type];
  };

  /** Ends the record while this worker still owns it; answers whether it did. */
  async function finish(task: DatasetTaskRow, outcome: 'completed' | 'failed' | 'cancelled' | 'released', error?: string): Promise<boolean> {
    const held = and(eq(datasetTasks.id, task.id), eq(datasetTasks.lockedBy, workerId), eq(datasetTasks.status, 'running'));
    if (outcome === 'released') {
      const rows = await ctx.db.update(datasetTasks).set({ status: 'queued', lockedBy: null, lockedUntil: null, updatedAt: new Date() }).where(held).returning({ id: datasetTasks.id });
      if (!rows.length) return false;
      await mirrorOnUnit(ctx.db, task, 'queued');
      await logTask(ctx, task.id, 'warn', 'The server stopped; the task goes back to the queue');
      return true;
    }
    const [row] = await ctx.db
      .update(datasetTasks)
      .set({
        status: outcome,
        error: outcome === 'failed' ? (error ?? 'Failed') : null,
        progress: outcome === 'completed' ? 1 : task.progress,
        lockedBy: null,
        lockedUntil: null,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(held)
      .returning();
    if (!row) return false;
    await mirrorOnUnit(ctx.db, task, outcome, error);
    if (outcome === 'completed') await logTask(ctx, task.id, 'info', 'Completed');
    else if (outcome === 'cancelled') await logTask(ctx, task.id, 'info', 'Cancelled');
    else await logTask(ctx, task.id, 'error', error ?? 'Failed');
    return true;
  }

  async function run(job: BossJob, shutdown: AbortSignal) {
    const taskId = (job.data as { taskId?: string }).taskId ?? job.id;
    // The job's new attempt starts with a fresh lease (a retried job carries the grown one of the last).
    await jobs.renew(job);
    const [task] = await ctx.db
      .update(datasetTasks)
      .set({
        status: 'running',
        lockedBy: workerId,
        lockedUntil: sql`now() + ${leaseMs}::int * interval '1 millisecond'`,
        attempts: sql`${datasetTasks.attempts} + 1`,
        startedAt: sql`coalesce(${datasetTasks.startedAt}, now())`,
        updatedAt: new Date(),
      })
      .where(and(eq(datasetTasks.id, taskId), inArray(datasetTasks.status, ['queued', 'running'])))
      .returning();
    // Cancelled from the queue, deleted with its unit, or already ended: nothing to do.
    if (!task) return void (await jobs.boss.complete(job.name, job.id));
    if (task.cancelRequested) {
      await finish(task, 'cancelled');
      return void (await jobs.boss.cancel(job.name, job.id));
    }
    const controller = new AbortController();
    const onShutdown = () => controller.abort(new ShutdownError());
    shutdown.addEventListener('abort', onShutdown);
    if (shutdown.aborted) onShutdown();

    let renewing: Promise<void> | null = null;
    const renew = () => {
      renewing ??= (async () => {
        try {
          if (controller.signal.aborted) return;
          const held = await jobs.renew(job);
          const [row] = await ctx.db
            .update(datasetTasks)
            .set({ lockedUntil: sql`now() + ${leaseMs}::int * interval '1 millisecond'` })
            .where(and(eq(datasetTasks.id, task.id), eq(datasetTasks.lockedBy, workerId), eq(datasetTasks.status, 'running')))
            .returning({ cancel: datasetTasks.cancelRequested });
          if (row?.cancel) controller.abort(new StopError());
          else if (!row) {
            // Deleted (with its unit or base) → stop; owned by another worker → let go.
            const [still] = await ctx.db.select({ id: datasetTasks.id }).from(datasetTasks).where(eq(datasetTasks.id, task.id));
            controller.abort(still ? new LostError() : new StopError());
          } else if (!held) controller.abort(new LostError());
        } catch (e) {
          log(e);
        } finally {
          renewing = null;
        }
      })();
    };
    renewers.add(renew);
    const timer = setInterval(renew, Math.min(RENEW_EVERY_MS, leaseMs / 3));
    timer.unref?.();

    let lastWrite = 0;
    const tj: TaskJob = {
      ctx,
      task,
      signal: controller.signal,
      async progress(fraction) {
        const f = Math.max(0, Math.min(1, fraction));
        const now = Date.now();
        if (f < 1 && now - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = now;
        await ctx.db.update(datasetTasks).set({ progress: f }).where(eq(datasetTasks.id, task.id));
        if (task.type === 'normal') await ctx.db.update(datasetDocuments).set({ progress: f }).where(eq(datasetDocuments.id, task.documentId));
      },
      log: (level, message) => logTask(ctx, task.id, level, message),
    };
    try {
      if (task.attempts > 1) await tj.log('warn', `Started again (attempt ${task.attempts} of ${MAX_ATTEMPTS}): the previous attempt's server stopped before it ended`);
      else await tj.log('info', 'Started');
      await (await handlerOf(task.type as TaskType))(tj);
      controller.signal.throwIfAborted();
      if (await finish(task, 'completed')) await jobs.boss.complete(job.name, job.id);
      // The unit is searchable now: its vectors go into memory before anyone searches it.
      if (task.type === 'normal') vectorCacheOf(ctx.db).warm([task.documentId]).catch(log);
    } catch (e) {
      const reason = controller.signal.aborted ? controller.signal.reason : null;
      if (reason instanceof LostError) log(`knowledge task ${task.id}: ${reason.message}`);
      else if (reason instanceof ShutdownError) {
        if (await finish(task, 'released').catch((x) => (log(x), false))) await jobs.boss.fail(job.name, job.id, { message: 'The server stopped' }).catch(log);
      } else if (reason instanceof StopError) {
        await finish(task, 'cancelled').catch(log);
        await jobs.boss.cancel(job.name, job.id).catch(log);
      } else if (await finish(task, 'failed', messageOf(e)).catch((x) => (log(x), false))) await jobs.boss.complete(job.name, job.id).catch(log);
    } finally {
      clearInterval(timer);
      renewers.delete(renew);
      shutdown.removeEventListener('abort', onShutdown);
      await renewing;
    }
  }

  const concurrency = opts.concurrency ?? ctx.settings.knowledgeConcurrency;
  // Grouped by knowledge base: a long task of one base never holds up a task of another (jobs/fetch).
  for (const queue of Object.values(KNOWLEDGE_QUEUES)) jobs.consume(queue, { concurrency, run, group: 'datasetId' });

  // Jobs whose processes kept dying: their tasks fail (unless they ended meanwhile).
  jobs.consume('knowledge-dead', {
    concurrency: 1,
    async run(job) {
      const taskId = (job.data as { taskId?: string }).taskId;
      const error = 'The server stopped too many times while working on this task';
      const [t] = taskId
        ? await ctx.db
            .update(datasetTasks)
            .set({ status: 'failed', error, lockedBy: null, lockedUntil: null, finishedAt: new Date(), updatedAt: new Date() })
            .where(and(eq(datasetTasks.id, taskId), inArray(datasetTasks.status, ['queued', 'running'])))
            .returning()
        : [];
      if (t) {
        await mirrorOnUnit(ctx.db, t, 'failed', error);
        await logTask(ctx, t.id, 'error', error);
      }
      await jobs.boss.complete(job.name, job.id);
    },
  });
  return { stop: () => void checks!.delete(checkAll) };
}
