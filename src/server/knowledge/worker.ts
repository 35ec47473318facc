/**
 * This process's knowledge workers: one pg-boss consumer per task type, each running up to
 * `concurrency` tasks at once, on the leased-job runner (src/server/jobs/leased: lease renewal, abort on
 * shutdown, job endings, dead letters). For each job it takes the task's record (dataset_tasks: running,
 * this worker as its owner, one more attempt), runs the type's handler, renews the record's lock with
 * the job's lease (which also hears stop requests and deletions), and ends the record and the job together:
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
import type { Jobs } from '../jobs/boss';
import { consumeLeased } from '../jobs/leased';
import { KNOWLEDGE_QUEUES } from '../jobs/queues';
import { cancelChecks, logTask, MAX_ATTEMPTS, mirrorOnUnit, type TaskType } from './queue';
import type { DatasetTaskRow, TaskHandler, TaskJob } from './types';
import { vectorCacheOf } from './vector-cache';

const PROGRESS_EVERY_MS = 250;

export interface KnowledgeWorkerOptions {
  /** Tasks of each type run at once by this process. */
  concurrency?: number;
  handlers?: Partial<Record<TaskType, TaskHandler>>;
  log?: (e: unknown) => void;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)) || 'Failed';

/** Registers the consumers of the four task types and the dead-letter worker on `jobs`. */
export function startKnowledgeWorkers(ctx: ServerContext, jobs: Jobs, opts: KnowledgeWorkerOptions = {}): { stop(): void } {
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = opts.log ?? ((e: unknown) => console.error('[weft] knowledge worker:', e));
  const leaseMs = jobs.options.leaseSeconds * 1000;
  let checks = cancelChecks.get(ctx.db);
  if (!checks) cancelChecks.set(ctx.db, (checks = new Set()));

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

  const concurrency = opts.concurrency ?? ctx.settings.knowledgeConcurrency;
  const leased = consumeLeased<DatasetTaskRow>(
    jobs,
    {
      queues: Object.values(KNOWLEDGE_QUEUES),
      concurrency,
      // Grouped by knowledge base: a long task of one base never holds up a task of another (jobs/fetch).
      group: 'datasetId',
      log,
      // Jobs whose processes kept dying: their tasks fail (unless they ended meanwhile).
      deadLetter: {
        queue: 'knowledge-dead',
        async dead(job) {
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
        },
      },
    },
    {
      async claim(job) {
        const taskId = (job.data as { taskId?: string }).taskId ?? job.id;
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
        return task ?? null;
      },
      stopAtStart: (task) => task.cancelRequested,
      async heartbeat(task) {
        const [row] = await ctx.db
          .update(datasetTasks)
          .set({ lockedUntil: sql`now() + ${leaseMs}::int * interval '1 millisecond'` })
          .where(and(eq(datasetTasks.id, task.id), eq(datasetTasks.lockedBy, workerId), eq(datasetTasks.status, 'running')))
          .returning({ cancel: datasetTasks.cancelRequested });
        if (row?.cancel) return 'stop';
        if (row) return undefined;
        // Deleted (with its unit or base) → stop; owned by another worker → let go.
        const [still] = await ctx.db.select({ id: datasetTasks.id }).from(datasetTasks).where(eq(datasetTasks.id, task.id));
        return still ? 'lost' : 'stop';
      },
      async work(task, signal) {
        let lastWrite = 0;
        const tj: TaskJob = {
          ctx,
          task,
          signal,
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
        if (task.attempts > 1) await tj.log('warn', `Started again (attempt ${task.attempts} of ${MAX_ATTEMPTS}): the previous attempt's server stopped before it ended`);
        else await tj.log('info', 'Started');
        await (await handlerOf(task.type as TaskType))(tj);
      },
      done: async (task) => ((await finish(task, 'completed')) ? 'complete' : null),
      // The unit is searchable now: its vectors go into memory before anyone searches it.
      afterDone: (task) => void (task.type === 'normal' && vectorCacheOf(ctx.db).warm([task.documentId]).catch(log)),
      // A task's own failure is not retried: its message is shown to the user.
      failed: async (task, e) => ((await finish(task, 'failed', messageOf(e))) ? 'complete' : null),
      async stopped(task) {
        await finish(task, 'cancelled').catch(log);
        return 'cancel';
      },
      released: async (task) => ((await finish(task, 'released')) ? 'retry' : null),
      label: (task) => `knowledge task ${task.id}`,
    },
  );
  // A stop request renews this process's leases at once: the stop is heard within the request, not a second later.
  const checkAll = () => leased.checkNow();
  checks.add(checkAll);
  return { stop: () => void checks!.delete(checkAll) };
}
