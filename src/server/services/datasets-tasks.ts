import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { ErrorCode } from '../../../schemas/errors';
import type { DatasetDocument } from '../../../schemas/knowledge';
import type { DatasetTask, GraphIndexDataResult, TaskCreateBody } from '../../../schemas/knowledge-tasks';
import { SEGMENT_INDEX_TYPES } from '../../../schemas/knowledge-tasks';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { datasetDocuments, datasetSegments, datasetTasks } from '../db/schema';
import { AppError, badRequest, notFoundOrForeign } from '../errors';
import { enqueueTask, nudgeWorkers, queuePositions, type TaskType } from '../knowledge/queue';
import { assertCanEdit, loadDataset, loadDocument, toDocuments, type DocumentRow } from './datasets';
import { getDefault } from './models';
import type { Scope, Tx } from './workspace-resources';

/**
 * Knowledge tasks as their own calls (spec 7.5 datasets: task create and batch create,
 * handle-graph-index-data) and a URL unit's "refresh now". A task of a type already queued or
 * running for its unit is answered instead of a second one. Same roles as ./datasets.
 */

/** States in which a unit is being processed (its segments are being made). */
const PROCESSING = ['waiting', 'queued', 'parsing', 'segmenting', 'indexing', 'cancelling'];
/** Task states that are still on their way. */
export const ACTIVE_TASK = ['queued', 'running', 'cancelling'];

const unitState = (msg: string, doc: DocumentRow) => new AppError(409, ErrorCode.KNOWLEDGE_UNIT_STATE, msg, { status: doc.status });

/** The unit is not being processed (its segments can be written). */
export function assertUnitIdle(doc: DocumentRow) {
  if (PROCESSING.includes(doc.status)) throw unitState('The unit is still being processed; try again when it is done', doc);
}

/** The unit's vector analysis completed (what generation and graph analysis read). */
export function assertUnitReady(doc: DocumentRow) {
  if (doc.status !== 'completed') throw unitState('This needs the unit’s vector analysis to succeed first', doc);
}

/** The tenant's default chat model (KNOWLEDGE-1002 without one). */
export async function chatModelOf(ctx: ServerContext, tenantId: string) {
  const m = await getDefault(ctx, tenantId, 'llm');
  if (!m) throw new AppError(400, ErrorCode.KNOWLEDGE_NO_MODEL, 'This needs a default chat model (LLM) in this tenant; set one in model management');
  return m;
}

type TaskRow = typeof datasetTasks.$inferSelect;

export async function toTasks(ctx: ServerContext, rows: TaskRow[]): Promise<DatasetTask[]> {
  const positions = await queuePositions(ctx, rows.filter((t) => t.status === 'queued').map((t) => t.id));
  return rows.map((t) => ({
    id: t.id,
    document_id: t.documentId,
    type: t.type,
    status: t.status,
    progress: t.progress === null ? null : Math.round(t.progress * 1000) / 10,
    queue_position: positions.get(t.id) ?? null,
    error: t.error,
    created_at: t.createdAt.toISOString(),
    finished_at: t.finishedAt ? t.finishedAt.toISOString() : null,
  }));
}

/**
 * Queues a task of the unit (in the caller's transaction when given): a graphic one shows the unit
 * `analysing`; `params` travel with the task (an index task's entry types).
 */
export async function enqueueUnitTask(ctx: ServerContext, s: Scope, doc: DocumentRow, type: TaskType, params: Record<string, unknown> = {}, tx?: Tx): Promise<TaskRow> {
  const run = async (db: Tx) => {
    const task = await enqueueTask(ctx, { tenantId: doc.tenantId, workspaceId: s.workspaceId, datasetId: doc.datasetId, documentId: doc.id, type, createdBy: s.caller.userId }, db);
    if (Object.keys(params).length) await db.update(datasetTasks).set({ params }).where(eq(datasetTasks.id, task.id));
    if (type === 'graphic') await db.update(datasetDocuments).set({ graphStatus: 'analysing', graphError: null, updatedAt: new Date() }).where(eq(datasetDocuments.id, doc.id));
    return { ...task, params };
  };
  const task = tx ? await run(tx) : await ctx.db.transaction(run);
  nudgeWorkers(ctx);
  return task;
}

async function activeTask(ctx: ServerContext, documentId: string, type: TaskType): Promise<TaskRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(datasetTasks)
    .where(and(eq(datasetTasks.documentId, documentId), eq(datasetTasks.type, type), inArray(datasetTasks.status, ACTIVE_TASK)))
    .orderBy(desc(datasetTasks.createdAt))
    .limit(1);
  return row;
}

/** Fetches a URL unit again now (its segments are made again; a graph that was on is analysed again after). */
export async function refreshNow(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<DatasetDocument> {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  if (!doc.sourceUrl) throw new AppError(400, ErrorCode.KNOWLEDGE_NOT_URL, 'Only a unit made from a URL can be refreshed');
  assertUnitIdle(doc);
  if (await activeTask(ctx, doc.id, 'normal')) throw unitState('The unit is already being refreshed', doc);
  await enqueueUnitTask(ctx, s, doc, 'normal');
  const [row] = await ctx.db.select().from(datasetDocuments).where(eq(datasetDocuments.id, doc.id));
  return (await toDocuments(ctx, [row!]))[0]!;
}

interface Planned {
  doc: DocumentRow;
  type: TaskType;
  params: Record<string, unknown>;
  existing?: TaskRow;
}

/** Checks one task request (throws a 4xx) and answers what to do; nothing is written. */
async function plan(ctx: ServerContext, s: Scope, datasetId: string, item: TaskCreateBody, llm: { checked: boolean }): Promise<Planned> {
  const doc = await loadDocument(ctx, s, datasetId, item.document_id);
  if (item.index_types && item.type !== 'index') throw badRequest('index_types are for index tasks only', [{ path: 'body/index_types', message: 'unexpected' }]);
  const params = item.type === 'index' ? { types: item.index_types ?? [...SEGMENT_INDEX_TYPES] } : {};
  const existing = await activeTask(ctx, doc.id, item.type);
  if (existing) return { doc, type: item.type, params, existing };
  if (item.type === 'normal') {
    assertUnitIdle(doc);
    if (!doc.sourceUrl && !doc.fileId) throw unitState('The file of this unit was deleted: it cannot be processed again', doc);
    return { doc, type: item.type, params };
  }
  assertUnitReady(doc);
  if (!llm.checked) {
    await chatModelOf(ctx, doc.tenantId);
    llm.checked = true;
  }
  if (item.type === 'graphic') {
    const [seg] = await ctx.db.select({ id: datasetSegments.id }).from(datasetSegments).where(and(eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child'))).limit(1);
    if (!seg) throw unitState('The unit has no text segments to analyse', doc);
  }
  return { doc, type: item.type, params };
}

/** Creates the tasks (all checked first: one bad request creates none), in the order asked. */
export async function createTasks(ctx: ServerContext, s: Scope, datasetId: string, items: TaskCreateBody[]): Promise<DatasetTask[]> {
  await assertCanEdit(ctx, s);
  await loadDataset(ctx, s, datasetId);
  const llm = { checked: false };
  const plans: Planned[] = [];
  for (const item of items) plans.push(await plan(ctx, s, datasetId, item, llm));
  const made = new Map<string, TaskRow>();
  const rows = await ctx.db.transaction(async (tx) => {
    const out: TaskRow[] = [];
    for (const p of plans) {
      // The same unit and type twice in one call: one task.
      const key = `${p.doc.id}|${p.type}`;
      const t = p.existing ?? made.get(key) ?? (await enqueueUnitTask(ctx, s, p.doc, p.type, p.params, tx));
      made.set(key, t);
      out.push(t);
    }
    return out;
  });
  nudgeWorkers(ctx);
  // Fresh rows: the worker may have taken one meanwhile.
  const fresh = new Map((await ctx.db.select().from(datasetTasks).where(inArray(datasetTasks.id, [...new Set(rows.map((r) => r.id))]))).map((r) => [r.id, r]));
  return toTasks(
    ctx,
    rows.map((r) => fresh.get(r.id) ?? r),
  );
}

/**
 * Runs the graph analysis of units again (handle-graph-index-data): the listed ones, or every unit of
 * the base whose graph is on, failed or was stopped. Units not processed yet, without text segments,
 * or whose analysis is already on its way are skipped with the reason.
 */
export async function handleGraphIndexData(ctx: ServerContext, s: Scope, datasetId: string, documentIds?: string[]): Promise<GraphIndexDataResult> {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  let docs: DocumentRow[];
  if (documentIds) {
    const ids = [...new Set(documentIds)];
    const bad = ids.find((id) => !UUID_RE.test(id));
    if (bad) throw notFoundOrForeign('Knowledge unit', bad);
    docs = await ctx.db.select().from(datasetDocuments).where(and(eq(datasetDocuments.datasetId, ds.id), inArray(datasetDocuments.id, ids)));
    const missing = ids.find((id) => !docs.some((d) => d.id === id));
    if (missing) throw notFoundOrForeign('Knowledge unit', missing);
    docs.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  } else {
    docs = await ctx.db
      .select()
      .from(datasetDocuments)
      .where(and(eq(datasetDocuments.datasetId, ds.id), inArray(datasetDocuments.graphStatus, ['enabled', 'failed', 'cancelled', 'analysing'])))
      .orderBy(datasetDocuments.createdAt);
  }
  const skipped: GraphIndexDataResult['skipped'] = [];
  const todo: DocumentRow[] = [];
  const withSegments = new Set(
    docs.length
      ? (
          await ctx.db
            .selectDistinct({ id: datasetSegments.documentId })
            .from(datasetSegments)
            .where(and(inArray(datasetSegments.documentId, docs.map((d) => d.id)), ne(datasetSegments.kind, 'child')))
        ).map((r) => r.id)
      : [],
  );
  for (const doc of docs) {
    if (doc.status !== 'completed') skipped.push({ document_id: doc.id, reason: 'not_processed' });
    else if (await activeTask(ctx, doc.id, 'graphic')) skipped.push({ document_id: doc.id, reason: 'running' });
    else if (!withSegments.has(doc.id)) skipped.push({ document_id: doc.id, reason: 'no_segments' });
    else todo.push(doc);
  }
  if (!todo.length) return { queued: [], skipped };
  await chatModelOf(ctx, ds.tenantId);
  const rows = await ctx.db.transaction(async (tx) => {
    const out: TaskRow[] = [];
    for (const doc of todo) out.push(await enqueueUnitTask(ctx, s, doc, 'graphic', {}, tx));
    return out;
  });
  return { queued: await toTasks(ctx, rows), skipped };
}
