/**
 * Knowledge work (dataset_tasks) on the job queue (pg-boss, src/server/jobs): normal (parse + segment +
 * embed), graphic (graph analysis), faq (Q&A generation) and index (segment index entries).
 *
 * dataset_tasks stays the record the UI and the admin read (state, progress, logs, queue position);
 * each task is one pg-boss job of its type's queue with the task's id as the job's id and the unit as
 * its singleton key, sent in the same transaction as the task's row. ./worker takes the jobs:
 * - stop asks a running task to stop (`cancel_requested`) and cancels its job; the worker's lease
 *   renewal sees it and aborts the handler, and the task and its unit end `cancelled`;
 * - cancel-queue cancels a queued task and its job (a worker that fetched it meanwhile finds the task
 *   no longer queued and drops it);
 * - a process that dies stops renewing its jobs' leases; pg-boss retries them in another process (or
 *   the next start on the embedded database), up to KNOWLEDGE_ATTEMPTS starts.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { datasetDocuments, datasetTaskLogs, datasetTasks } from '../db/schema';
import { jobsOf } from '../jobs/boss';
import { KNOWLEDGE_ATTEMPTS, KNOWLEDGE_QUEUES } from '../jobs/queues';
import type { Tx } from '../services/workspace-resources';
import type { DatasetTaskRow } from './types';

export type TaskType = 'normal' | 'graphic' | 'faq' | 'index';
/** Starts of a task before it fails because its process kept stopping. */
export const MAX_ATTEMPTS = KNOWLEDGE_ATTEMPTS;

export interface EnqueueInput {
  tenantId: string;
  workspaceId: string;
  datasetId: string;
  documentId: string;
  type: TaskType;
  createdBy: string;
}

type Db = ServerContext['db'];
/** The database or a transaction of it. */
type Executor = Db | Tx;

/** Adds a queued task (the unit of a normal task becomes `queued`) and wakes this process's worker. */
export async function enqueueTask(ctx: Pick<ServerContext, 'db'>, t: EnqueueInput, db: Executor = ctx.db): Promise<DatasetTaskRow> {
  const [row] = await db
    .insert(datasetTasks)
    .values({
      id: randomUUID(),
      tenantId: t.tenantId,
      workspaceId: t.workspaceId,
      datasetId: t.datasetId,
      documentId: t.documentId,
      type: t.type,
      status: 'queued',
      createdBy: t.createdBy,
      // The queue's order: distinct even for tasks added in one transaction (now() is the transaction's start).
      createdAt: sql`clock_timestamp()`,
    })
    .returning();
  if (t.type === 'normal') {
    await db
      .update(datasetDocuments)
      .set({ status: 'queued', progress: 0, error: null, updatedAt: new Date() })
      .where(eq(datasetDocuments.id, t.documentId));
  }
  await db.insert(datasetTaskLogs).values({ taskId: row!.id, level: 'info', message: `Task queued (${t.type})` });
  const jobs = jobsOf(ctx.db);
  if (!jobs) throw new Error('The job queue is not running on this database');
  // In the caller's transaction: the job exists exactly when the task does. Outside one, the send wakes this process's worker.
  const inTx = db !== ctx.db;
  // The base groups the queue's jobs (its consumers take bases with nothing running first: jobs/fetch).
  await jobs.send(KNOWLEDGE_QUEUES[t.type], { taskId: row!.id, datasetId: t.datasetId }, { id: row!.id, singletonKey: t.documentId }, inTx ? db : undefined);
  // pg-boss orders a queue by created_on, which is now(): the transaction's start, the same for every
  // task it queues. The order they were queued in is the order they are taken in (as the task's own created_at).
  if (inTx) await db.execute(sql`update pgboss.job set created_on = clock_timestamp() where name = ${KNOWLEDGE_QUEUES[t.type]} and id = ${row!.id}::uuid`);
  return row!;
}

/** 1-based places of queued tasks among all queued tasks (oldest first); tasks not queued are absent. */
export async function queuePositions(ctx: Pick<ServerContext, 'db'>, taskIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!taskIds.length) return out;
  const rows = await ctx.db.execute<{ id: string; pos: number }>(sql`
    select q.id, q.pos::int as pos from (
      select id, row_number() over (order by created_at, id) as pos from dataset_tasks where status = 'queued'
    ) q where q.id in (${sql.join(
      taskIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  for (const r of rowsOf<{ id: string; pos: number }>(rows)) out.set(r.id, Number(r.pos));
  return out;
}

/** The task's 1-based place in the queue, null when it is not queued. */
export async function queuePosition(ctx: Pick<ServerContext, 'db'>, taskId: string): Promise<number | null> {
  return (await queuePositions(ctx, [taskId])).get(taskId) ?? null;
}

/** Rows of db.execute on either driver (node-postgres: { rows }, PGlite: { rows } too; older: array). */
export function rowsOf<T>(r: unknown): T[] {
  if (Array.isArray(r)) return r as T[];
  return ((r as { rows?: T[] }).rows ?? []) as T[];
}

export async function logTask(ctx: Pick<ServerContext, 'db'>, taskId: string, level: 'info' | 'warn' | 'error', message: string) {
  await ctx.db.insert(datasetTaskLogs).values({ taskId, level, message: message.slice(0, 4000) });
}

/** Sets the unit's fields that mirror a task's state (normal tasks: status; graphic: graph_status). */
export async function mirrorOnUnit(db: Db, task: Pick<DatasetTaskRow, 'type' | 'documentId'>, state: 'cancelling' | 'cancelled' | 'failed' | 'completed' | 'queued', error?: string | null) {
  const now = new Date();
  if (task.type === 'normal') {
    await db
      .update(datasetDocuments)
      .set({
        status: state,
        ...(state === 'completed' ? { progress: 1, error: null } : {}),
        ...(state === 'failed' ? { error: error ?? 'Failed' } : {}),
        ...(state === 'queued' ? { progress: 0 } : {}),
        updatedAt: now,
      })
      .where(eq(datasetDocuments.id, task.documentId));
  } else if (task.type === 'graphic' && state !== 'cancelling') {
    // Only while the unit still shows its analysis: turning the graph off (disabled) wins over the task's end.
    const graph = state === 'completed' ? 'enabled' : state === 'queued' ? 'analysing' : state;
    await db
      .update(datasetDocuments)
      .set({ graphStatus: graph, graphError: state === 'failed' ? (error ?? 'Failed') : null, updatedAt: now })
      .where(and(eq(datasetDocuments.id, task.documentId), eq(datasetDocuments.graphStatus, 'analysing')));
  }
}

/**
 * Takes a queued task out of the queue (it ends `cancelled`); a task that is no longer queued is
 * VALIDATION-1000 for the caller (answers false here).
 */
export async function cancelQueued(ctx: Pick<ServerContext, 'db'>, taskId: string): Promise<boolean> {
  const [row] = await ctx.db
    .update(datasetTasks)
    .set({ status: 'cancelled', finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(datasetTasks.id, taskId), eq(datasetTasks.status, 'queued')))
    .returning();
  if (!row) return false;
  await jobsOf(ctx.db)?.boss.cancel(KNOWLEDGE_QUEUES[row.type], row.id);
  await mirrorOnUnit(ctx.db, row, 'cancelled');
  await logTask(ctx, taskId, 'info', 'Removed from the queue');
  return true;
}

/**
 * Stops a task: a queued one is cancelled at once; a running one is asked to stop (its unit shows
 * `cancelling` until the handler ends). Answers false when the task has already ended.
 */
export async function requestStop(ctx: Pick<ServerContext, 'db'>, taskId: string): Promise<boolean> {
  if (await cancelQueued(ctx, taskId)) return true;
  const [row] = await ctx.db
    .update(datasetTasks)
    .set({ cancelRequested: true, updatedAt: new Date() })
    .where(and(eq(datasetTasks.id, taskId), eq(datasetTasks.status, 'running')))
    .returning();
  if (!row) return false;
  // The job's cancel reaches the worker of any process at its next lease renewal (this process's at once).
  await jobsOf(ctx.db)?.boss.cancel(KNOWLEDGE_QUEUES[row.type], row.id);
  await mirrorOnUnit(ctx.db, row, 'cancelling');
  await logTask(ctx, taskId, 'info', 'Stop requested');
  checkCancelsNow(ctx);
  return true;
}

/** Wakes this process's workers (after a transaction that enqueued tasks commits). */
export function nudgeWorkers(ctx: Pick<ServerContext, 'db'>) {
  jobsOf(ctx.db)?.nudge();
}

/** Makes this process's workers look for stopped or deleted tasks now (./worker registers its check). */
export function checkCancelsNow(ctx: Pick<ServerContext, 'db'>) {
  for (const check of cancelChecks.get(ctx.db) ?? []) check();
}

/** Per database, what makes its workers renew their leases now. */
export const cancelChecks = new Map<Db, Set<() => void>>();

/** Tests: waits until no knowledge task is queued or running, nor a job of them under way in this process. */
export async function runQueuedTasksNow(ctx: Pick<ServerContext, 'db'>, timeoutMs = 60_000): Promise<void> {
  const jobs = jobsOf(ctx.db);
  if (!jobs) throw new Error('No job queue runs on this database');
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(datasetTasks)
      .where(inArray(datasetTasks.status, ['queued', 'running']));
    if (Number(n) === 0 && !jobs.running()) return;
    if (Date.now() > until) throw new Error(`The knowledge queue did not drain in ${timeoutMs} ms (${n} tasks left)`);
    jobs.nudge();
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The tasks of a unit, newest first (for logs and admin). */
export async function tasksOfDocument(ctx: Pick<ServerContext, 'db'>, documentId: string) {
  return ctx.db.select().from(datasetTasks).where(eq(datasetTasks.documentId, documentId)).orderBy(asc(datasetTasks.createdAt));
}
