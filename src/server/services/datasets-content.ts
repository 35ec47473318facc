import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { datasetQaPairs, datasetSegments, datasetTaskLogs, datasetTasks } from '../db/schema';
import { AppError, badRequest, notFoundOrForeign } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import type { QaPair, Segment, TaskLog } from '../../../schemas/knowledge';
import { embedAndStoreQa, embedderOfDataset, fetchUrlText, prepareSegmentContent, ruleOf, segmentParsed, vectorColumnExists, writeSegments } from '../knowledge/ingest';
import { searchTokens } from '../knowledge/tokenize';
import { excelHeaders, excelSheets, fileKind, parseFile } from '../knowledge/parse';
import { removeSegmentsGraph } from '../knowledge/graph';
import { cancelQueued, requestStop } from '../knowledge/queue';
import { segmentText, validateProcessRule } from '../knowledge/segment';
import type { ParsedDoc, ProcessRule } from '../knowledge/types';
import { assertCanEdit, assertCanRead, loadDataset, loadDocument, loadFileRow, type DocumentRow } from './datasets';
import { assertUnitIdle } from './datasets-tasks';
import { fileBytes } from './files';
import { contains, page, type Scope, type Tx } from './workspace-resources';

/**
 * What is inside knowledge units (spec 3, 4, 5, 7.5 datasets): the segmentation preview, Excel sheets
 * and headers, segments (edited content is re-tokenised and re-embedded), Q&A pairs, and the units'
 * tasks (stop, leave the queue, logs). Same roles as ./datasets: members read, editors change.
 */

/** Segments shown by the preview. */
export const PREVIEW_SEGMENTS = 20;

const PROCESSING = ['waiting', 'queued', 'parsing', 'segmenting', 'indexing', 'cancelling'];

function checkRule(rule: ProcessRule) {
  const err = validateProcessRule(rule);
  if (err) throw badRequest(err, [{ path: 'body/process_rule', message: err }]);
}

async function knowledgeFile(ctx: ServerContext, s: Scope, fileId: string) {
  const f = await loadFileRow(ctx, s, fileId);
  if (f.bizType !== 'dataset') throw badRequest(`The file '${f.name}' was not uploaded as a knowledge file`);
  return { row: f, bytes: await fileBytes(ctx, f) };
}

const parserFailure = (e: unknown) => badRequest((e as Error).message || 'The file cannot be read');

/** Parses and segments a file or URL by the rule without storing anything: the first segments and the total. */
export async function segmentationPreview(
  ctx: ServerContext,
  s: Scope,
  datasetId: string,
  body: { file_id?: string; url?: string; process_rule: ProcessRule; sheet?: string; header_row?: number },
) {
  await assertCanEdit(ctx, s);
  await loadDataset(ctx, s, datasetId);
  checkRule(body.process_rule);
  let parsed: ParsedDoc;
  if (body.file_id) {
    const { row, bytes } = await knowledgeFile(ctx, s, body.file_id);
    parsed = await parseFile({ bytes, name: row.name }, { sheet: body.sheet || undefined, headerRow: body.header_row }).catch((e) => {
      throw parserFailure(e);
    });
  } else if (body.url) {
    let url: URL;
    try {
      url = new URL(body.url);
    } catch {
      throw badRequest(`'${body.url}' is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('The URL must start with http:// or https://');
    const pageText = await fetchUrlText(ctx, url.toString(), AbortSignal.timeout(30_000)).catch((e) => {
      // The outbound policy's refusal and its "could not connect" keep their own catalogue codes.
      const code = (e as { code?: unknown }).code;
      if (code === ErrorCode.NETWORK_NOT_ALLOWED || code === ErrorCode.NETWORK_UNREACHABLE) throw new AppError(400, code, `The page cannot be read: ${(e as Error).message}`);
      throw badRequest(`The page cannot be read: ${(e as Error).message}`);
    });
    parsed = { kind: 'text', text: pageText.text, title: pageText.title };
  } else {
    throw badRequest('Give a file_id or a url to preview');
  }
  const drafts = segmentParsed(parsed, body.process_rule);
  return {
    segments: drafts.slice(0, PREVIEW_SEGMENTS).map((d) => ({ content: d.content, ...(d.children ? { children: d.children } : {}) })),
    total: drafts.length,
  };
}

export async function sheetsOf(ctx: ServerContext, s: Scope, datasetId: string, fileId: string) {
  await assertCanRead(ctx, s);
  await loadDataset(ctx, s, datasetId);
  const { row, bytes } = await knowledgeFile(ctx, s, fileId);
  if (fileKind(row.name) !== 'table') throw badRequest(`'${row.name}' is not a table file (.xls .xlsx .csv)`);
  return { sheets: await excelSheets(bytes, row.name).catch((e) => Promise.reject(parserFailure(e))) };
}

export async function headersOf(ctx: ServerContext, s: Scope, datasetId: string, q: { file_id: string; sheet?: string; header_row: number }) {
  await assertCanRead(ctx, s);
  await loadDataset(ctx, s, datasetId);
  const { row, bytes } = await knowledgeFile(ctx, s, q.file_id);
  if (fileKind(row.name) !== 'table') throw badRequest(`'${row.name}' is not a table file (.xls .xlsx .csv)`);
  if (q.sheet) {
    const sheets = await excelSheets(bytes, row.name).catch((e) => Promise.reject(parserFailure(e)));
    if (!sheets.includes(q.sheet)) throw badRequest(`The workbook has no sheet named '${q.sheet}'`);
  }
  return { headers: await excelHeaders(bytes, row.name, q.sheet, q.header_row).catch((e) => Promise.reject(parserFailure(e))) };
}

// ---------------------------------------------------------------- segments

type SegmentRow = typeof datasetSegments.$inferSelect & { hitCount: number };
/** A segment's columns with its hit count (dataset_segment_hits, 0 before its first hit). */
const segmentColumns = {
  ...getTableColumns(datasetSegments),
  hitCount: sql<number>`coalesce((select h.hit_count from dataset_segment_hits h where h.segment_id = ${datasetSegments.id}), 0)::int`,
};
const toSegment = (r: SegmentRow): Segment => ({
  id: r.id,
  document_id: r.documentId,
  position: r.position,
  content: r.content,
  enabled: r.enabled,
  hit_count: r.hitCount,
  created_at: r.createdAt.toISOString(),
});

/** The unit's segments (parents in parent-child mode), by position. */
export async function listSegments(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, q: { page: number; page_size: number; keyword?: string }) {
  await assertCanRead(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const conds: SQL[] = [eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child')];
  if (q.keyword) conds.push(ilike(datasetSegments.content, contains(q.keyword)));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(datasetSegments).where(where);
  const rows = await ctx.db
    .select(segmentColumns)
    .from(datasetSegments)
    .where(where)
    .orderBy(asc(datasetSegments.position), asc(datasetSegments.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(rows.map(toSegment), total, q);
}

function assertEditable(doc: DocumentRow) {
  if (PROCESSING.includes(doc.status)) throw badRequest('The unit is still being processed; edit its segments when it is done');
}

/** Adds a segment at the end of the unit (parent-child units: a parent whose children are cut by the unit's rule). */
export async function createSegment(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, content: string): Promise<Segment> {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  assertEditable(doc);
  const rule = ruleOf(doc);
  const draft = doc.segmentMode === 'parent_child' ? { content, children: childrenOf(content, rule) } : { content };
  const before = await ctx.db.select({ id: datasetSegments.id }).from(datasetSegments).where(eq(datasetSegments.documentId, doc.id));
  await writeSegments(ctx, doc, [draft], await embedderOfDataset(ctx, ds));
  const known = new Set(before.map((b) => b.id));
  const rows = await ctx.db
    .select(segmentColumns)
    .from(datasetSegments)
    .where(and(eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child')))
    .orderBy(desc(datasetSegments.position));
  return toSegment(rows.find((r) => !known.has(r.id))!);
}

function childrenOf(content: string, rule: ProcessRule): string[] {
  const kids = segmentText(content, { ...rule, mode: 'general' }).map((d) => d.content);
  return kids.length ? kids : [content];
}

async function segmentRow(ctx: ServerContext, doc: DocumentRow, segmentId: string): Promise<SegmentRow> {
  if (!UUID_RE.test(segmentId)) throw notFoundOrForeign('Segment', segmentId);
  const [row] = await ctx.db
    .select(segmentColumns)
    .from(datasetSegments)
    .where(and(eq(datasetSegments.id, segmentId), eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child')));
  if (!row) throw notFoundOrForeign('Segment', segmentId);
  return row;
}

/** Changes a segment's content (re-tokenised and re-embedded; a parent's children are cut again) or its enabled flag. */
export async function updateSegment(
  ctx: ServerContext,
  s: Scope,
  datasetId: string,
  documentId: string,
  segmentId: string,
  body: { content?: string; enabled?: boolean },
): Promise<Segment> {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const row = await segmentRow(ctx, doc, segmentId);
  if (body.content === undefined && body.enabled === undefined) throw badRequest('Give content or enabled to change');
  // Embeddings (model calls that may fail) are made first, then every write goes in one
  // transaction: a failure changes nothing (a parent's children were deleted before its new ones
  // were embedded, and a failed embedding left the parent without children).
  const writes: ((tx: Tx) => Promise<unknown>)[] = [];
  if (body.content !== undefined && body.content !== row.content) {
    assertEditable(doc);
    const content = body.content;
    if (row.kind === 'parent') {
      const embedder = await embedderOfDataset(ctx, ds);
      const kids = childrenOf(content, ruleOf(doc));
      // Children of the edited parent, stored like writeSegments does.
      const vectors = await embedder.embed(kids);
      const withVector = await vectorColumnExists(ctx);
      const now = new Date();
      const inserted = kids.map((c, i) => ({
        id: randomUUID(),
        tenantId: doc.tenantId,
        datasetId: doc.datasetId,
        documentId: doc.id,
        parentId: row.id,
        kind: 'child' as const,
        position: i + 1,
        content: c,
        tokens: searchTokens(c),
        embedding: vectors[i] ?? null,
        metadata: row.metadata,
        enabled: body.enabled ?? row.enabled,
        createdAt: now,
        updatedAt: now,
      }));
      writes.push(async (tx) => {
        await tx.delete(datasetSegments).where(eq(datasetSegments.parentId, row.id));
        await tx.update(datasetSegments).set({ content, updatedAt: now }).where(eq(datasetSegments.id, row.id));
        if (inserted.length) await tx.insert(datasetSegments).values(inserted);
        if (inserted.length && withVector) {
          await tx.execute(sql`update dataset_segments set embedding_v = embedding::vector, embedding = null where parent_id = ${row.id}::uuid and embedding is not null`);
        }
      });
    } else {
      const write = await prepareSegmentContent(ctx, ds, content);
      writes.push((tx) => write(tx, row.id));
    }
  }
  if (body.enabled !== undefined) {
    const enabled = body.enabled;
    writes.push((tx) =>
      tx
        .update(datasetSegments)
        .set({ enabled, updatedAt: new Date() })
        .where(or(eq(datasetSegments.id, row.id), eq(datasetSegments.parentId, row.id))),
    );
  }
  await ctx.db.transaction(async (tx) => {
    for (const write of writes) await write(tx);
  });
  return toSegment((await ctx.db.select(segmentColumns).from(datasetSegments).where(eq(datasetSegments.id, row.id)))[0]!);
}

/**
 * Deletes a segment (a parent with its children): its vectors and full-text entry are in its row, its
 * hit count and index entries go with it (cascade), and the graph relations extracted from it, with
 * the entities no relation uses any more, in the same transaction.
 */
export async function deleteSegment(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, segmentId: string): Promise<void> {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const row = await segmentRow(ctx, doc, segmentId);
  assertUnitIdle(doc);
  await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .delete(datasetSegments)
      .where(or(eq(datasetSegments.id, row.id), eq(datasetSegments.parentId, row.id)))
      .returning({ id: datasetSegments.id });
    await removeSegmentsGraph(tx, doc.datasetId, gone.map((g) => g.id));
  });
}

// ---------------------------------------------------------------- Q&A pairs

type QaRow = typeof datasetQaPairs.$inferSelect;
const toQa = (r: QaRow): QaPair => ({ id: r.id, document_id: r.documentId, question: r.question, answer: r.answer, created_at: r.createdAt.toISOString() });

export async function listQa(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, q: { page: number; page_size: number; keyword?: string }) {
  await assertCanRead(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const conds: SQL[] = [eq(datasetQaPairs.documentId, doc.id)];
  if (q.keyword) conds.push(or(ilike(datasetQaPairs.question, contains(q.keyword)), ilike(datasetQaPairs.answer, contains(q.keyword)))!);
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(datasetQaPairs).where(where);
  const rows = await ctx.db
    .select()
    .from(datasetQaPairs)
    .where(where)
    .orderBy(desc(datasetQaPairs.createdAt), desc(datasetQaPairs.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(rows.map(toQa), total, q);
}

async function qaRow(ctx: ServerContext, doc: DocumentRow, qaId: string): Promise<QaRow> {
  if (!UUID_RE.test(qaId)) throw notFoundOrForeign('Q&A pair', qaId);
  const [row] = await ctx.db.select().from(datasetQaPairs).where(and(eq(datasetQaPairs.id, qaId), eq(datasetQaPairs.documentId, doc.id)));
  if (!row) throw notFoundOrForeign('Q&A pair', qaId);
  return row;
}

export async function saveQa(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, body: { question: string; answer: string }, qaId?: string): Promise<QaPair> {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  if (qaId) await qaRow(ctx, doc, qaId);
  return toQa(await embedAndStoreQa(ctx, ds, doc, { id: qaId, ...body }));
}

export async function deleteQa(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, qaId: string) {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const row = await qaRow(ctx, doc, qaId);
  await ctx.db.delete(datasetQaPairs).where(eq(datasetQaPairs.id, row.id));
}

// ---------------------------------------------------------------- tasks

async function taskOf(ctx: ServerContext, s: Scope, datasetId: string, taskId: string) {
  const ds = await loadDataset(ctx, s, datasetId);
  if (!UUID_RE.test(taskId)) throw notFoundOrForeign('Task', taskId);
  const [row] = await ctx.db.select().from(datasetTasks).where(and(eq(datasetTasks.id, taskId), eq(datasetTasks.datasetId, ds.id)));
  if (!row) throw notFoundOrForeign('Task', taskId);
  return row;
}

export async function stopTask(ctx: ServerContext, s: Scope, datasetId: string, taskId: string) {
  await assertCanEdit(ctx, s);
  const t = await taskOf(ctx, s, datasetId, taskId);
  if (!(await requestStop(ctx, t.id))) throw badRequest('The task has already ended');
}

export async function cancelQueuedTask(ctx: ServerContext, s: Scope, datasetId: string, taskId: string) {
  await assertCanEdit(ctx, s);
  const t = await taskOf(ctx, s, datasetId, taskId);
  if (!(await cancelQueued(ctx, t.id))) throw badRequest('The task is not waiting in the queue');
}

export async function taskLogs(ctx: ServerContext, s: Scope, datasetId: string, taskId: string): Promise<TaskLog[]> {
  await assertCanRead(ctx, s);
  const t = await taskOf(ctx, s, datasetId, taskId);
  const rows = await ctx.db.select().from(datasetTaskLogs).where(eq(datasetTaskLogs.taskId, t.id)).orderBy(asc(datasetTaskLogs.id)).limit(1000);
  return rows.map((r) => ({ time: r.createdAt.toISOString(), level: r.level, message: r.message }));
}
