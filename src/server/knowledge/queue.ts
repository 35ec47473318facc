/**
 * The durable queue of knowledge work (dataset_tasks): normal (parse + segment + embed), graphic (graph
 * analysis) and faq (Q&A generation). Any server process on the database may take a task:
 *
 * - a worker claims the oldest runnable row with `FOR UPDATE SKIP LOCKED` (queued, or running with an
 *   expired lease: its process went away) and holds it by a lease (`locked_until`) renewed while it works;
 * - `attempts` bounds the retries of a task whose process keeps dying (MAX_ATTEMPTS);
 * - stop sets `cancel_requested`; the lease renewal sees it and aborts the handler's signal, and the
 *   task and its unit end `cancelled` (the handler removes what it wrote);
 * - a server that closes gives its running tasks back to the queue (they start again from scratch on
 *   the next start: handlers are idempotent); the embedded database belongs to one process, so at
 *   start every task left running there is taken again at once.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { datasetDocuments, datasetTaskLogs, datasetTasks } from '../db/schema';
import type { Tx } from '../services/workspace-resources';
import type { DatasetTaskRow, TaskHandler, TaskJob } from './types';
import { vectorCacheOf } from './vector-cache';

export type TaskType = 'normal' | 'graphic' | 'faq' | 'index';
export const MAX_ATTEMPTS = 3;
const LEASE_MS = 30_000;
const POLL_MS = 1_000;
const PROGRESS_EVERY_MS = 250;

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
  for (const w of workers.get(ctx.db) ?? []) w.nudge();
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
async function mirrorOnUnit(db: Db, task: Pick<DatasetTaskRow, 'type' | 'documentId'>, state: 'cancelling' | 'cancelled' | 'failed' | 'completed' | 'queued', error?: string | null) {
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
  await mirrorOnUnit(ctx.db, row, 'cancelling');
  await logTask(ctx, taskId, 'info', 'Stop requested');
  for (const w of workers.get(ctx.db) ?? []) w.checkCancels();
  return true;
}

/** Wakes this process's workers (after a transaction that enqueued tasks commits). */
export function nudgeWorkers(ctx: Pick<ServerContext, 'db'>) {
  for (const w of workers.get(ctx.db) ?? []) w.nudge();
}

/** Makes this process's workers look for stopped or deleted tasks now. */
export function checkCancelsNow(ctx: Pick<ServerContext, 'db'>) {
  for (const w of workers.get(ctx.db) ?? []) w.checkCancels();
}

// ---------------------------------------------------------------- the worker

export interface KnowledgeWorkerOptions {
  /** 'pglite': this process owns the database, so tasks left running are orphans at start. */
  kind?: 'pglite' | 'postgres';
  /** Tasks run at once by this process (default 1 on PGlite, 2 on a server). */
  concurrency?: number;
  /** Wait between polls while idle (enqueues in this process wake the worker at once). */
  pollMs?: number;
  leaseMs?: number;
  handlers?: Partial<Record<TaskType, TaskHandler>>;
  log?: (e: unknown) => void;
}

export interface KnowledgeWorker {
  stop(): Promise<void>;
  /** Resolves once no task is queued or running anywhere (tests). */
  drain(timeoutMs?: number): Promise<void>;
  nudge(): void;
  checkCancels(): void;
}

const workers = new Map<Db, Set<KnowledgeWorker>>();

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

/** Claims one runnable task for `workerId`; tasks out of attempts fail on the way. */
async function claim(ctx: Pick<ServerContext, 'db'>, workerId: string, leaseMs: number): Promise<DatasetTaskRow | null> {
  // A task whose process died too often fails instead of being taken again.
  const dead = await ctx.db
    .update(datasetTasks)
    .set({ status: 'failed', error: 'The server stopped too many times while working on this task', finishedAt: new Date(), lockedBy: null, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(datasetTasks.status, 'running'), sql`${datasetTasks.lockedUntil} < now()`, sql`${datasetTasks.attempts} >= ${MAX_ATTEMPTS}`))
    .returning();
  for (const t of dead) {
    await mirrorOnUnit(ctx.db, t, 'failed', t.error);
    await logTask(ctx, t.id, 'error', t.error ?? 'Failed');
  }
  const rows = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`
      update dataset_tasks set status = 'running', locked_by = ${workerId},
        locked_until = now() + ${leaseMs}::int * interval '1 millisecond',
        attempts = attempts + 1, started_at = coalesce(started_at, now()), updated_at = now()
      where id = (
        select id from dataset_tasks
        where (status = 'queued' and run_after <= now())
          -- A task out of attempts is never taken again, also when its lease ran out after the step above
          -- (another process's lease expiring in between): the next claim fails it.
          or (status = 'running' and locked_until < now() and attempts < ${MAX_ATTEMPTS})
        order by created_at, id
        for update skip locked
        limit 1
      )
      returning id`),
  );
  if (!rows[0]) return null;
  const [task] = await ctx.db.select().from(datasetTasks).where(eq(datasetTasks.id, rows[0].id));
  return task ?? null;
}

/** Ends a claimed task (only while this worker still holds it). */
async function finish(ctx: Pick<ServerContext, 'db'>, task: DatasetTaskRow, workerId: string, outcome: 'completed' | 'failed' | 'cancelled' | 'released', error?: string) {
  const held = and(eq(datasetTasks.id, task.id), eq(datasetTasks.lockedBy, workerId), eq(datasetTasks.status, 'running'));
  if (outcome === 'released') {
    await ctx.db
      .update(datasetTasks)
      .set({ status: 'queued', lockedBy: null, lockedUntil: null, updatedAt: new Date() })
      .where(held);
    await mirrorOnUnit(ctx.db, task, 'queued');
    await logTask(ctx, task.id, 'warn', 'The server stopped; the task goes back to the queue');
    return;
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
  if (!row) return;
  await mirrorOnUnit(ctx.db, task, outcome, error);
  if (outcome === 'completed') await logTask(ctx, task.id, 'info', 'Completed');
  else if (outcome === 'cancelled') await logTask(ctx, task.id, 'info', 'Cancelled');
  else await logTask(ctx, task.id, 'error', error ?? 'Failed');
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)) || 'Failed';

/**
 * Starts this process's worker: it polls (and is nudged on enqueue), runs up to `concurrency` tasks,
 * renews their leases and watches for stop requests. `stop()` aborts running tasks, gives them back
 * to the queue and waits for the handlers to end.
 */
export function startKnowledgeWorker(ctx: ServerContext, opts: KnowledgeWorkerOptions = {}): KnowledgeWorker {
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const kind = opts.kind ?? 'pglite';
  // One task at a time per process: several processes on one server share the queue (a busy machine is not made busier by one process).
  const concurrency = opts.concurrency ?? 1;
  const pollMs = opts.pollMs ?? POLL_MS;
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const log = opts.log ?? ((e: unknown) => console.error('[weft] knowledge worker:', e));
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;
  let again = false;

  const handlerOf = async (type: TaskType): Promise<TaskHandler> => {
    const h = opts.handlers?.[type];
    if (h) return h;
    const { taskHandlers } = await import('./handlers');
    return taskHandlers[type];
  };

  async function renew() {
    if (!running.size) return;
    const ids = [...running.keys()];
    const rows = await ctx.db
      .update(datasetTasks)
      .set({ lockedUntil: sql`now() + ${leaseMs}::int * interval '1 millisecond'` })
      .where(and(inArray(datasetTasks.id, ids), eq(datasetTasks.lockedBy, workerId), eq(datasetTasks.status, 'running')))
      .returning({ id: datasetTasks.id, cancel: datasetTasks.cancelRequested });
    const seen = new Map(rows.map((r) => [r.id, r.cancel]));
    for (const id of ids) {
      const cancel = seen.get(id);
      // Gone (unit or base deleted) or asked to stop: abort the handler.
      if (cancel === undefined || cancel) running.get(id)?.controller.abort(new StopError());
    }
  }

  async function run(task: DatasetTaskRow) {
    const controller = new AbortController();
    let lastWrite = 0;
    const job: TaskJob = {
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
    const done = (async () => {
      try {
        if (task.attempts > 1) await job.log('warn', `Started again (attempt ${task.attempts} of ${MAX_ATTEMPTS})`);
        else await job.log('info', 'Started');
        const handler = await handlerOf(task.type as TaskType);
        await handler(job);
        controller.signal.throwIfAborted();
        await finish(ctx, task, workerId, 'completed');
        // The unit is searchable now: its vectors go into memory before anyone searches it.
        if (task.type === 'normal') vectorCacheOf(ctx.db).warm([task.documentId]).catch(log);
      } catch (e) {
        const reason = controller.signal.aborted ? controller.signal.reason : null;
        if (reason instanceof ShutdownError) await finish(ctx, task, workerId, 'released').catch(log);
        else if (reason instanceof StopError) await finish(ctx, task, workerId, 'cancelled').catch(log);
        else await finish(ctx, task, workerId, 'failed', messageOf(e)).catch(log);
      }
    })().finally(() => {
      running.delete(task.id);
      if (!stopped) schedule(0);
    });
    running.set(task.id, { controller, done });
  }

  async function tick() {
    if (stopped) return;
    await renew();
    while (!stopped && running.size < concurrency) {
      const task = await claim(ctx, workerId, leaseMs);
      if (!task) break;
      if (task.cancelRequested) {
        await finish(ctx, task, workerId, 'cancelled');
        continue;
      }
      await run(task);
    }
  }

  function schedule(ms: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (ticking) {
        again = true;
        return;
      }
      ticking = tick()
        .catch(log)
        .finally(() => {
          ticking = null;
          if (again) {
            again = false;
            schedule(0);
          } else schedule(running.size ? Math.min(1_000, leaseMs / 3) : pollMs);
        });
    }, ms);
    timer.unref?.();
  }

  // The embedded database has one process: whatever it left running is taken again now.
  const orphans =
    kind === 'pglite'
      ? ctx.db
          .update(datasetTasks)
          .set({ lockedUntil: sql`now() - interval '1 second'` })
          .where(eq(datasetTasks.status, 'running'))
          .then(() => undefined, log)
      : Promise.resolve();

  const worker: KnowledgeWorker = {
    nudge: () => schedule(0),
    checkCancels: () => void renew().catch(log),
    async drain(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const [{ n }] = await ctx.db
          .select({ n: sql<number>`count(*)::int` })
          .from(datasetTasks)
          .where(inArray(datasetTasks.status, ['queued', 'running']));
        if (Number(n) === 0 && !running.size) return;
        if (Date.now() > until) throw new Error(`The knowledge queue did not drain in ${timeoutMs} ms (${n} tasks left)`);
        worker.nudge();
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking?.catch(() => undefined);
      for (const r of running.values()) r.controller.abort(new ShutdownError());
      await Promise.all([...running.values()].map((r) => r.done.catch(() => undefined)));
      workers.get(ctx.db)?.delete(worker);
    },
  };
  let set = workers.get(ctx.db);
  if (!set) workers.set(ctx.db, (set = new Set()));
  set.add(worker);
  void orphans.then(() => schedule(0));
  return worker;
}

/** Tests: waits until this process's worker has emptied the queue. */
export async function runQueuedTasksNow(ctx: Pick<ServerContext, 'db'>, timeoutMs = 60_000): Promise<void> {
  const set = workers.get(ctx.db);
  const w = set && [...set][0];
  if (!w) throw new Error('No knowledge worker runs on this database');
  await w.drain(timeoutMs);
}

/** The tasks of a unit, newest first (for logs and admin). */
export async function tasksOfDocument(ctx: Pick<ServerContext, 'db'>, documentId: string) {
  return ctx.db.select().from(datasetTasks).where(eq(datasetTasks.documentId, documentId)).orderBy(asc(datasetTasks.createdAt));
}
