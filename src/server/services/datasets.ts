import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE, type Membership } from '../context';
import { datasetDocuments, datasets, datasetQaPairs, datasetSegments, datasetTasks, files, users } from '../db/schema';
import { badRequest, exists, notFoundOrForeign } from '../errors';
import type { Dataset, DatasetDocument } from '../../../schemas/knowledge';
import { contains, isUniqueViolation, lockNames, nothingToChange, page, type Scope, type Tx } from './workspace-resources';
import { checkCancelsNow, enqueueTask, nudgeWorkers, queuePositions } from '../knowledge/queue';
import { extensionOf, fileKind, KNOWLEDGE_FILE_TYPES } from '../knowledge/parse';
import { validateProcessRule } from '../knowledge/segment';
import type { ProcessRule } from '../knowledge/types';
import { MAX_GRAPH_MIN_RELEVANCE, UPDATE_FREQUENCIES } from '../../../schemas/knowledge';

/**
 * Knowledge bases and their units (spec 3, 4, 5, 7.5 datasets). Any member of the project space
 * reads; owner, admin and ordinary members edit (like apps: knowledge is building material, spec 6
 * is silent). Every lookup is scoped by the caller's tenant and the X-Workspace-Id workspace; a
 * missing or foreign id is VALIDATION-1000.
 *
 * Shared with the search side (retrieve/graph routes): {@link loadDataset}, {@link loadDocument},
 * {@link assertCanEdit}, {@link assertCanRead}.
 */

export type DatasetRow = typeof datasets.$inferSelect;
export type DocumentRow = typeof datasetDocuments.$inferSelect;

/** Roles that may change knowledge bases, units, segments and Q&A pairs. */
export const KNOWLEDGE_EDITORS = ['owner', 'admin', 'ordinary_member'] as const;

/** Any member of the scope's workspace (403/VALIDATION-1000 otherwise). */
export function assertCanRead(ctx: ServerContext, s: Scope): Promise<Membership> {
  return requireMembership(ctx.db, s.caller, s.workspaceId);
}

/** A member who may edit knowledge in the scope's workspace (403 otherwise). */
export function assertCanEdit(ctx: ServerContext, s: Scope): Promise<Membership> {
  return requireMembership(ctx.db, s.caller, s.workspaceId, KNOWLEDGE_EDITORS);
}

/**
 * The knowledge base `datasetId` of the scope's workspace and tenant (VALIDATION-1000 when missing or
 * foreign). Checks no role: call {@link assertCanRead} or {@link assertCanEdit} first.
 */
export async function loadDataset(ctx: ServerContext, s: Scope, datasetId: string): Promise<DatasetRow> {
  if (!UUID_RE.test(datasetId)) throw notFoundOrForeign('Knowledge base', datasetId);
  const [row] = await ctx.db
    .select()
    .from(datasets)
    .where(and(eq(datasets.id, datasetId), eq(datasets.workspaceId, s.workspaceId), eq(datasets.tenantId, s.caller.tenantId)));
  if (!row) throw notFoundOrForeign('Knowledge base', datasetId);
  return row;
}

/** The unit `documentId` of the knowledge base (both in the scope), VALIDATION-1000 when missing or foreign. */
export async function loadDocument(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<DocumentRow> {
  const ds = await loadDataset(ctx, s, datasetId);
  if (!UUID_RE.test(documentId)) throw notFoundOrForeign('Knowledge unit', documentId);
  const [row] = await ctx.db
    .select()
    .from(datasetDocuments)
    .where(and(eq(datasetDocuments.id, documentId), eq(datasetDocuments.datasetId, ds.id)));
  if (!row) throw notFoundOrForeign('Knowledge unit', documentId);
  return row;
}

// ---------------------------------------------------------------- knowledge bases

/** The graph neighbours' minimum relevance when the base sets none. */
export const DEFAULT_GRAPH_MIN_RELEVANCE = 0.3;

/** The base's stored graph minimum relevance (retrieval.graph_min_relevance), read leniently. */
export function graphMinRelevanceOf(ds: Pick<DatasetRow, 'retrieval'>): number {
  const x = (ds.retrieval ?? {}).graph_min_relevance;
  return typeof x === 'number' && x >= 0 && x <= MAX_GRAPH_MIN_RELEVANCE ? x : DEFAULT_GRAPH_MIN_RELEVANCE;
}

async function toDatasets(ctx: ServerContext, rows: DatasetRow[]): Promise<Dataset[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const counts = await ctx.db
    .select({ id: datasetDocuments.datasetId, n: sql<number>`count(*)::int`, size: sql<number>`coalesce(sum(${datasetDocuments.size}), 0)::bigint` })
    .from(datasetDocuments)
    .where(inArray(datasetDocuments.datasetId, ids))
    .groupBy(datasetDocuments.datasetId);
  const byId = new Map(counts.map((c) => [c.id, c]));
  const creators = [...new Set(rows.map((r) => r.createdBy))];
  const names = await ctx.db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, creators));
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return rows.map((r) => ({
    id: r.id,
    workspace_id: r.workspaceId,
    name: r.name,
    description: r.description,
    document_count: Number(byId.get(r.id)?.n ?? 0),
    size: Number(byId.get(r.id)?.size ?? 0),
    created_by: r.createdBy,
    created_by_name: nameOf.get(r.createdBy) ?? '',
    graph_min_relevance: graphMinRelevanceOf(r),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

const dsInScope = (s: Scope) => and(eq(datasets.workspaceId, s.workspaceId), eq(datasets.tenantId, s.caller.tenantId));

async function assertNameFree(tx: Tx | ServerContext['db'], s: Scope, name: string, exceptId?: string) {
  const conds: SQL[] = [eq(datasets.workspaceId, s.workspaceId), sql`lower(${datasets.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(datasets.id, exceptId));
  const [hit] = await tx.select({ id: datasets.id }).from(datasets).where(and(...conds)).limit(1);
  return !hit;
}

const duplicateName = (name: string) => exists(`A knowledge base named '${name}' already exists in this project space`);

export async function listDatasets(ctx: ServerContext, s: Scope, q: { page: number; page_size: number; keyword?: string }) {
  await assertCanRead(ctx, s);
  const conds: SQL[] = [dsInScope(s)!];
  if (q.keyword) conds.push(ilike(datasets.name, contains(q.keyword)));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(datasets).where(where);
  const rows = await ctx.db
    .select()
    .from(datasets)
    .where(where)
    .orderBy(desc(datasets.updatedAt), desc(datasets.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(await toDatasets(ctx, rows), total, q);
}

export async function getDataset(ctx: ServerContext, s: Scope, id: string): Promise<Dataset> {
  await assertCanRead(ctx, s);
  return (await toDatasets(ctx, [await loadDataset(ctx, s, id)]))[0]!;
}

export async function checkDatasetName(ctx: ServerContext, s: Scope, name: string, excludeId?: string) {
  await assertCanRead(ctx, s);
  const free = await assertNameFree(ctx.db, s, name, excludeId && UUID_RE.test(excludeId) ? excludeId : undefined);
  return { exists: !free };
}

export async function createDataset(ctx: ServerContext, s: Scope, input: { name: string; description: string }): Promise<Dataset> {
  await assertCanEdit(ctx, s);
  const id = randomUUID();
  await ctx.db
    .transaction(async (tx) => {
      await lockNames(tx, 'dataset', s.workspaceId);
      if (!(await assertNameFree(tx, s, input.name))) throw duplicateName(input.name);
      await tx.insert(datasets).values({
        id,
        tenantId: s.caller.tenantId,
        workspaceId: s.workspaceId,
        name: input.name,
        description: input.description,
        createdBy: s.caller.userId,
      });
    })
    .catch((e) => {
      if (isUniqueViolation(e)) throw duplicateName(input.name);
      throw e;
    });
  return getDataset(ctx, s, id);
}

export async function updateDataset(ctx: ServerContext, s: Scope, id: string, input: { name?: string; description?: string; graph_min_relevance?: number }): Promise<Dataset> {
  await assertCanEdit(ctx, s);
  const before = await loadDataset(ctx, s, id);
  if (input.name === undefined && input.description === undefined && input.graph_min_relevance === undefined) throw nothingToChange();
  await ctx.db
    .transaction(async (tx) => {
      if (input.name !== undefined) {
        await lockNames(tx, 'dataset', s.workspaceId);
        if (!(await assertNameFree(tx, s, input.name, id))) throw duplicateName(input.name);
      }
      await tx
        .update(datasets)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          // Kept beside the other retrieval defaults of the base (hit tests read them).
          ...(input.graph_min_relevance !== undefined ? { retrieval: { ...(before.retrieval ?? {}), graph_min_relevance: input.graph_min_relevance } } : {}),
          updatedAt: new Date(),
        })
        .where(eq(datasets.id, id));
    })
    .catch((e) => {
      if (isUniqueViolation(e)) throw duplicateName(input.name ?? '');
      throw e;
    });
  return getDataset(ctx, s, id);
}

/** Deletes a base with its units, segments, Q&A pairs, tasks (cascade); running tasks see their rows vanish and stop. */
export async function deleteDataset(ctx: ServerContext, s: Scope, id: string) {
  await assertCanEdit(ctx, s);
  await loadDataset(ctx, s, id);
  await ctx.db.delete(datasets).where(eq(datasets.id, id));
}

// ---------------------------------------------------------------- units (documents)

/** The API reading of units: counts, the latest task and its queue position, progress in percent. */
export async function toDocuments(ctx: ServerContext, rows: DocumentRow[]): Promise<DatasetDocument[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const segs = await ctx.db
    .select({ id: datasetSegments.documentId, n: sql<number>`count(*)::int` })
    .from(datasetSegments)
    .where(and(inArray(datasetSegments.documentId, ids), ne(datasetSegments.kind, 'child')))
    .groupBy(datasetSegments.documentId);
  const qas = await ctx.db
    .select({ id: datasetQaPairs.documentId, n: sql<number>`count(*)::int` })
    .from(datasetQaPairs)
    .where(inArray(datasetQaPairs.documentId, ids))
    .groupBy(datasetQaPairs.documentId);
  const tasks = await ctx.db
    .selectDistinctOn([datasetTasks.documentId], { id: datasetTasks.id, documentId: datasetTasks.documentId, status: datasetTasks.status })
    .from(datasetTasks)
    .where(and(inArray(datasetTasks.documentId, ids), eq(datasetTasks.type, 'normal')))
    .orderBy(datasetTasks.documentId, desc(datasetTasks.createdAt), desc(datasetTasks.id));
  const taskOf = new Map(tasks.map((t) => [t.documentId, t]));
  const positions = await queuePositions(ctx, tasks.filter((t) => t.status === 'queued').map((t) => t.id));
  const segOf = new Map(segs.map((x) => [x.id, x.n]));
  const qaOf = new Map(qas.map((x) => [x.id, x.n]));
  return rows.map((r) => {
    const task = taskOf.get(r.id);
    return {
      id: r.id,
      dataset_id: r.datasetId,
      name: r.name,
      file_type: r.fileType,
      size: r.size,
      source_url: r.sourceUrl,
      update_frequency: r.updateFrequency,
      upload_status: r.uploadStatus,
      status: r.status,
      progress: r.progress === null ? null : Math.round(r.progress * 1000) / 10,
      queue_position: task ? (positions.get(task.id) ?? null) : null,
      task_id: task?.id ?? null,
      error: r.error,
      segment_mode: r.segmentMode,
      segment_count: Number(segOf.get(r.id) ?? 0),
      qa_count: Number(qaOf.get(r.id) ?? 0),
      hit_count: r.hitCount,
      enabled: r.enabled,
      graph_status: r.graphStatus,
      graph_error: r.graphStatus === 'failed' ? r.graphError : null,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  });
}

export async function listDocuments(ctx: ServerContext, s: Scope, datasetId: string, q: { page: number; page_size: number; keyword?: string }) {
  await assertCanRead(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const conds: SQL[] = [eq(datasetDocuments.datasetId, ds.id)];
  if (q.keyword) conds.push(ilike(datasetDocuments.name, contains(q.keyword)));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(datasetDocuments).where(where);
  const rows = await ctx.db
    .select()
    .from(datasetDocuments)
    .where(where)
    .orderBy(desc(datasetDocuments.createdAt), desc(datasetDocuments.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(await toDocuments(ctx, rows), total, q);
}

export async function getDocument(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<DatasetDocument> {
  await assertCanRead(ctx, s);
  return (await toDocuments(ctx, [await loadDocument(ctx, s, datasetId, documentId)]))[0]!;
}

export async function toggleDocument(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, enabled: boolean) {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  await ctx.db.update(datasetDocuments).set({ enabled, updatedAt: new Date() }).where(eq(datasetDocuments.id, doc.id));
}

/** The stored file of the scope's workspace (VALIDATION-1000 when missing, foreign or not a knowledge file). */
export async function loadFileRow(ctx: ServerContext, s: Scope, fileId: string) {
  if (!UUID_RE.test(fileId)) throw notFoundOrForeign('File', fileId);
  const [row] = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.tenantId, s.caller.tenantId), eq(files.workspaceId, s.workspaceId)));
  if (!row) throw notFoundOrForeign('File', fileId);
  return row;
}

/** Units (documents) from stored files or a URL, with their queued tasks. */
export async function createDocuments(
  ctx: ServerContext,
  s: Scope,
  datasetId: string,
  body: {
    file_ids: string[];
    url?: string;
    name?: string;
    update_frequency?: string;
    process_rule: ProcessRule;
    sheet?: string;
    header_row?: number;
  },
): Promise<DatasetDocument[]> {
  await assertCanEdit(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const ruleError = validateProcessRule(body.process_rule);
  if (ruleError) throw badRequest(ruleError, [{ path: 'body/process_rule', message: ruleError }]);
  const url = body.url?.trim() || undefined;
  if (!body.file_ids.length && !url) throw badRequest('Give file_ids or a url to create units from');
  if (body.file_ids.length && url) throw badRequest('Give either file_ids or a url, not both');
  if (body.file_ids.length > 50) throw badRequest('At most 50 files at once');
  if (body.header_row !== undefined && (!Number.isInteger(body.header_row) || body.header_row < 1)) throw badRequest('The header row must be a whole number of at least 1');
  const frequency = body.update_frequency ?? 'none';
  if (!(UPDATE_FREQUENCIES as readonly string[]).includes(frequency)) throw badRequest(`update_frequency must be one of ${UPDATE_FREQUENCIES.join(', ')}`);

  type NewUnit = { name: string; fileId: string | null; fileType: string; size: number; sourceUrl: string | null };
  const units: NewUnit[] = [];
  if (url) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw badRequest(`'${url}' is not a valid URL`, [{ path: 'body/url', message: 'invalid' }]);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest('The URL must start with http:// or https://', [{ path: 'body/url', message: 'invalid' }]);
    if (url.length > 2000) throw badRequest('The URL can have at most 2000 characters');
    const name = (body.name ?? '').trim() || parsed.hostname + parsed.pathname.replace(/\/$/, '');
    units.push({ name: name.slice(0, 255), fileId: null, fileType: 'html', size: 0, sourceUrl: parsed.toString() });
  }
  const seen = new Set<string>();
  for (const fileId of body.file_ids) {
    const f = await loadFileRow(ctx, s, fileId);
    if (f.bizType !== 'dataset') throw badRequest(`The file '${f.name}' was not uploaded as a knowledge file`);
    if (!fileKind(f.name)) throw badRequest(`Unsupported file type '${f.name}': knowledge files can be ${[...KNOWLEDGE_FILE_TYPES.text, ...KNOWLEDGE_FILE_TYPES.table].map((x) => '.' + x).join(' ')}`);
    if (seen.has(f.name.toLowerCase())) throw exists(`The file name '${f.name}' is given twice`);
    seen.add(f.name.toLowerCase());
    units.push({ name: f.name, fileId: f.id, fileType: extensionOf(f.name), size: f.size, sourceUrl: null });
  }
  const ids: string[] = [];
  await ctx.db
    .transaction(async (tx) => {
      await lockNames(tx, 'dataset-unit', ds.id);
      for (const u of units) {
        const [byName] = await tx
          .select({ id: datasetDocuments.id })
          .from(datasetDocuments)
          .where(and(eq(datasetDocuments.datasetId, ds.id), sql`lower(${datasetDocuments.name}) = lower(${u.name})`))
          .limit(1);
        if (byName) throw exists(`A unit named '${u.name}' already exists in this knowledge base`);
        if (u.sourceUrl) {
          const [byUrl] = await tx
            .select({ id: datasetDocuments.id })
            .from(datasetDocuments)
            .where(and(eq(datasetDocuments.datasetId, ds.id), eq(datasetDocuments.sourceUrl, u.sourceUrl)))
            .limit(1);
          if (byUrl) throw exists(`The URL '${u.sourceUrl}' already exists in this knowledge base`);
        }
        const id = randomUUID();
        const isTable = fileKind(u.name) === 'table' && !u.sourceUrl;
        await tx.insert(datasetDocuments).values({
          id,
          tenantId: ds.tenantId,
          datasetId: ds.id,
          name: u.name,
          fileId: u.fileId,
          fileType: u.fileType,
          size: u.size,
          sourceUrl: u.sourceUrl,
          updateFrequency: u.sourceUrl ? frequency : 'none',
          status: 'waiting',
          progress: 0,
          processRule: { ...body.process_rule } as Record<string, unknown>,
          sheet: isTable ? (body.sheet ?? null) : null,
          headerRow: isTable ? (body.header_row ?? 1) : null,
          segmentMode: body.process_rule.mode,
          createdBy: s.caller.userId,
        });
        await enqueueTask(ctx, { tenantId: ds.tenantId, workspaceId: ds.workspaceId, datasetId: ds.id, documentId: id, type: 'normal', createdBy: s.caller.userId }, tx);
        ids.push(id);
      }
      await tx.update(datasets).set({ updatedAt: new Date() }).where(eq(datasets.id, ds.id));
    })
    .catch((e) => {
      if (isUniqueViolation(e)) throw exists('A unit with this name or URL already exists in this knowledge base');
      throw e;
    });
  // The answer says what was created (queued units), read before a worker is woken to take them.
  const rows = await ctx.db.select().from(datasetDocuments).where(inArray(datasetDocuments.id, ids));
  const order = new Map(ids.map((id, i) => [id, i]));
  const created = await toDocuments(ctx, rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!));
  nudgeWorkers(ctx);
  return created;
}

/** Deletes a unit with its segments, Q&A pairs and tasks; a running task sees its row vanish and stops. */
export async function deleteDocument(ctx: ServerContext, s: Scope, datasetId: string, documentId: string) {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(datasetDocuments).where(eq(datasetDocuments.id, doc.id));
    await tx.update(datasets).set({ updatedAt: new Date() }).where(eq(datasets.id, doc.datasetId));
  });
  checkCancelsNow(ctx);
}
