import { and, asc, count, countDistinct, desc, eq, inArray, ne } from 'drizzle-orm';
import type { SegmentIndex, SegmentIndexBatchBody, SegmentIndexStatus, SegmentIndexType, SegmentIndexUpdateBody } from '../../../schemas/knowledge-tasks';
import { SEGMENT_INDEXES_MAX } from '../../../schemas/knowledge-tasks';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { datasetSegmentIndexes, datasetSegments, datasetTasks } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { asAppError } from '../knowledge/hits';
import { embedderOfDataset, vectorColumnExists, vectorText } from '../knowledge/ingest';
import { queuePosition } from '../knowledge/queue';
import { prepareEntries, regenerateSegment, type EntryDraft, type IndexRow } from '../knowledge/segment-indexes';
import { searchTokens } from '../knowledge/tokenize';
import { sql } from 'drizzle-orm';
import { assertCanEdit, assertCanRead, loadDataset, loadDocument, type DocumentRow } from './datasets';
import { ACTIVE_TASK, assertUnitIdle, assertUnitReady, chatModelOf, enqueueUnitTask } from './datasets-tasks';
import type { Scope, Tx } from './workspace-resources';

/**
 * Segment indexes (spec 7.5: get, generate, update, regenerate, batch create, status): extra index
 * entries per segment that retrieval matches and that answer their segment. Members read; owner,
 * admin and ordinary members write. Writes wait until the unit is processed (KNOWLEDGE-1000);
 * generation needs the tenant's default chat model (KNOWLEDGE-1002).
 */

const toIndex = (r: IndexRow): SegmentIndex => ({
  id: r.id,
  segment_id: r.segmentId,
  document_id: r.documentId,
  type: r.type,
  source: r.source,
  content: r.content,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

/** A text segment (not a child) of the unit, VALIDATION-1000 when missing or another unit's. */
async function loadSegment(ctx: ServerContext, doc: DocumentRow, segmentId: string) {
  if (!UUID_RE.test(segmentId)) throw notFoundOrForeign('Segment', segmentId);
  const [row] = await ctx.db
    .select({ id: datasetSegments.id, documentId: datasetSegments.documentId, content: datasetSegments.content })
    .from(datasetSegments)
    .where(and(eq(datasetSegments.id, segmentId), eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child')));
  if (!row) throw notFoundOrForeign('Segment', segmentId);
  return row;
}

async function entriesOf(ctx: ServerContext, segmentId: string): Promise<SegmentIndex[]> {
  const rows = await ctx.db
    .select()
    .from(datasetSegmentIndexes)
    .where(eq(datasetSegmentIndexes.segmentId, segmentId))
    .orderBy(asc(datasetSegmentIndexes.createdAt), asc(datasetSegmentIndexes.id));
  return rows.map(toIndex);
}

export async function listIndexes(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, segmentId: string): Promise<SegmentIndex[]> {
  await assertCanRead(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const seg = await loadSegment(ctx, doc, segmentId);
  return entriesOf(ctx, seg.id);
}

/** Sets the segment's entries to the list: kept by id (changed ones embedded again, now manual), added, removed. */
export async function updateIndexes(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, segmentId: string, body: SegmentIndexUpdateBody): Promise<SegmentIndex[]> {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const seg = await loadSegment(ctx, doc, segmentId);
  assertUnitIdle(doc);
  const current = new Map((await ctx.db.select().from(datasetSegmentIndexes).where(eq(datasetSegmentIndexes.segmentId, seg.id))).map((r) => [r.id, r]));
  const seen = new Set<string>();
  body.indexes.forEach((e, i) => {
    if (e.id === undefined) return;
    if (!current.has(e.id)) throw notFoundOrForeign('Segment index', e.id);
    if (seen.has(e.id)) throw badRequest(`The entry ${e.id} is given twice`, [{ path: `body/indexes/${i}/id`, message: 'duplicate' }]);
    seen.add(e.id);
  });
  const changed = body.indexes.filter((e) => e.id !== undefined && (current.get(e.id)!.content !== e.content || current.get(e.id)!.type !== e.type));
  const added: EntryDraft[] = body.indexes.filter((e) => e.id === undefined).map((e) => ({ type: e.type, content: e.content, source: 'manual' }));
  const removed = [...current.keys()].filter((id) => !seen.has(id));
  // Embeddings (model calls that may fail) first; then one transaction.
  const embedder = await embedderOfDataset(ctx, ds);
  const vectors = changed.length ? await embedder.embed(changed.map((e) => e.content)) : [];
  const write = await prepareEntries(ctx, ds, seg, added, embedder);
  const withVector = await vectorColumnExists(ctx);
  await ctx.db.transaction(async (tx: Tx) => {
    if (removed.length) await tx.delete(datasetSegmentIndexes).where(inArray(datasetSegmentIndexes.id, removed));
    for (const [i, e] of changed.entries()) {
      const v = vectors[i] ?? null;
      await tx
        .update(datasetSegmentIndexes)
        .set({ type: e.type, content: e.content, tokens: searchTokens(e.content), source: 'manual', embedding: withVector ? null : v, updatedAt: new Date() })
        .where(eq(datasetSegmentIndexes.id, e.id!));
      if (withVector) await tx.execute(sql`update dataset_segment_indexes set embedding_v = ${v ? vectorText(v) : null}::vector where id = ${e.id!}::uuid`);
    }
    await write(tx);
  });
  return entriesOf(ctx, seg.id);
}

/** Generates the segment's entries of `types` again now (its earlier generated ones of those types replaced). */
export async function regenerateIndexes(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, segmentId: string, types: SegmentIndexType[]): Promise<SegmentIndex[]> {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const seg = await loadSegment(ctx, doc, segmentId);
  assertUnitReady(doc);
  const model = await chatModelOf(ctx, doc.tenantId);
  try {
    await regenerateSegment(ctx, ds, seg, model, types);
  } catch (e) {
    throw asAppError(e);
  }
  return entriesOf(ctx, seg.id);
}

/** Hand-written entries for many segments of the unit; all checked before any is stored. */
export async function batchCreateIndexes(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, body: SegmentIndexBatchBody) {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  assertUnitIdle(doc);
  const ids = [...new Set(body.items.map((i) => i.segment_id))];
  const bad = ids.find((id) => !UUID_RE.test(id));
  if (bad) throw notFoundOrForeign('Segment', bad);
  const segs = await ctx.db
    .select({ id: datasetSegments.id, documentId: datasetSegments.documentId })
    .from(datasetSegments)
    .where(and(inArray(datasetSegments.id, ids), eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child')));
  const missing = ids.find((id) => !segs.some((x) => x.id === id));
  if (missing) throw notFoundOrForeign('Segment', missing);
  const had = new Map(
    (
      await ctx.db
        .select({ id: datasetSegmentIndexes.segmentId, n: count() })
        .from(datasetSegmentIndexes)
        .where(inArray(datasetSegmentIndexes.segmentId, ids))
        .groupBy(datasetSegmentIndexes.segmentId)
    ).map((r) => [r.id, Number(r.n)]),
  );
  const embedder = await embedderOfDataset(ctx, ds);
  const writes: ((tx: Tx) => Promise<IndexRow[]>)[] = [];
  for (const seg of segs) {
    const drafts: EntryDraft[] = body.items.filter((i) => i.segment_id === seg.id).map((i) => ({ type: i.type, content: i.content, source: 'manual' }));
    if ((had.get(seg.id) ?? 0) + drafts.length > SEGMENT_INDEXES_MAX) throw badRequest(`A segment can have at most ${SEGMENT_INDEXES_MAX} index entries (segment ${seg.id})`);
    writes.push(await prepareEntries(ctx, ds, seg, drafts, embedder));
  }
  const rows = await ctx.db.transaction(async (tx: Tx) => (await Promise.all(writes.map((w) => w(tx)))).flat());
  return { created: rows.length, indexes: rows.map(toIndex) };
}

type TaskRow = typeof datasetTasks.$inferSelect;

async function latestIndexTask(ctx: ServerContext, documentId: string): Promise<TaskRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(datasetTasks)
    .where(and(eq(datasetTasks.documentId, documentId), eq(datasetTasks.type, 'index')))
    .orderBy(desc(datasetTasks.createdAt), desc(datasetTasks.id))
    .limit(1);
  return row;
}

async function statusOf(ctx: ServerContext, doc: DocumentRow, t: TaskRow | undefined): Promise<SegmentIndexStatus> {
  const [segs] = await ctx.db
    .select({ n: count() })
    .from(datasetSegments)
    .where(and(eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child')));
  const [entries] = await ctx.db
    .select({ n: count(), segments: countDistinct(datasetSegmentIndexes.segmentId) })
    .from(datasetSegmentIndexes)
    .where(eq(datasetSegmentIndexes.documentId, doc.id));
  return {
    task_id: t?.id ?? null,
    status: t?.status ?? 'none',
    progress: t?.progress == null ? null : Math.round(t.progress * 1000) / 10,
    queue_position: t?.status === 'queued' ? await queuePosition(ctx, t.id) : null,
    error: t?.error ?? null,
    segment_count: Number(segs?.n ?? 0),
    indexed_segment_count: Number(entries?.segments ?? 0),
    index_count: Number(entries?.n ?? 0),
    finished_at: t?.finishedAt ? t.finishedAt.toISOString() : null,
  };
}

export async function indexStatus(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<SegmentIndexStatus> {
  await assertCanRead(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  return statusOf(ctx, doc, await latestIndexTask(ctx, doc.id));
}

/** Queues the generation of every segment's entries of `types` (answers the one already on its way, if any). */
export async function generateUnitIndexes(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, types: SegmentIndexType[]): Promise<SegmentIndexStatus> {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const current = await latestIndexTask(ctx, doc.id);
  if (current && ACTIVE_TASK.includes(current.status)) return statusOf(ctx, doc, current);
  assertUnitReady(doc);
  await chatModelOf(ctx, doc.tenantId);
  const task = await enqueueUnitTask(ctx, s, doc, 'index', { types });
  return statusOf(ctx, doc, task);
}
