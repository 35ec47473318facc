/**
 * Hit tests (spec 5, 7.5 datasets hit-test and search-hit-results): a retrieval over one knowledge
 * base with the settings of the test screen, recorded in the base's history, counting hits on the
 * segments, Q&A pairs and units it returned. Also the graph reads of the search routes.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { datasetDocuments, datasetHitResults, datasetTasks } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { ModelError } from '../providers/errors';
import { getDefault } from '../services/models';
import { assertCanEdit, assertCanRead, graphMinRelevanceOf, loadDataset, loadDocument, type DatasetRow } from '../services/datasets';
import { page, type Scope } from '../services/workspace-resources';
import type { GraphQueryResult, GraphReference, HitHistory, HitHistoryDetail, HitResult, HitTestBody, HitTestResult } from '../../../schemas/knowledge';
import { graphSegmentsOf, queryGraph, removeUnitGraph, unitRelations } from './graph';
import { cancelQueued, enqueueTask, queuePosition, requestStop } from './queue';
import { resolveRerankModel } from './rerank';
import { DEFAULT_VECTOR_WEIGHT, retrieve, type RetrievedHit } from './retrieve';

type Ctx = Pick<ServerContext, 'db'>;

/** How long turning a graph off waits for its running analysis to stop. */
const STOP_WAIT_MS = 10_000;


/** Provider failures during a search are the caller's setup problem, shown as they are. */
export function asAppError(e: unknown): unknown {
  if (e instanceof ModelError) return badRequest(e.message, { model_error: e.code });
  return e;
}

const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/**
 * Adds one hit to each returned segment (and matched child), Q&A pair and unit and, for a hit test,
 * inserts its history row: all in one statement (one round trip, one transaction).
 */
export async function countHits(ctx: Ctx, hits: RetrievedHit[], history?: typeof datasetHitResults.$inferInsert): Promise<void> {
  if (!hits.length && !history) return;
  const segIds = [...new Set(hits.filter((h) => h.kind === 'segment').flatMap((h) => [h.id, ...h.matchedIds]))];
  const qaIds = [...new Set(hits.filter((h) => h.kind === 'qa').map((h) => h.id))];
  const perDoc = new Map<string, number>();
  for (const h of hits) perDoc.set(h.documentId, (perDoc.get(h.documentId) ?? 0) + 1);
  const parts: SQL[] = [];
  if (history) {
    const r = history;
    parts.push(sql`h as (insert into dataset_hit_results (id, tenant_id, dataset_id, query, mode, top_k, score_threshold, rerank, graph, results, result_count, created_by)
      values (${r.id}::uuid, ${r.tenantId}::uuid, ${r.datasetId}::uuid, ${r.query}, ${r.mode}, ${r.topK}, ${r.scoreThreshold ?? 0}, ${r.rerank ?? false}, ${r.graph ?? false},
        ${JSON.stringify(r.results ?? [])}::jsonb, ${r.resultCount ?? 0}, ${r.createdBy}::uuid))`);
  }
  // Only segments still there (a unit re-indexed meanwhile has new ones): the counter row refers to its segment.
  if (segIds.length) {
    parts.push(sql`s as (insert into dataset_segment_hits (segment_id, hit_count)
      select id, 1 from dataset_segments where id = any(${uuidArray(segIds)}::uuid[])
      on conflict (segment_id) do update set hit_count = dataset_segment_hits.hit_count + 1)`);
  }
  if (qaIds.length) parts.push(sql`q as (update dataset_qa_pairs set hit_count = hit_count + 1 where id = any(${uuidArray(qaIds)}::uuid[]))`);
  if (perDoc.size) {
    parts.push(sql`d as (update dataset_documents t set hit_count = t.hit_count + c.n
      from unnest(${uuidArray([...perDoc.keys()])}::uuid[], ${`{${[...perDoc.values()].join(',')}}`}::int[]) as c(id, n) where t.id = c.id)`);
  }
  await ctx.db.execute(sql`with ${sql.join(parts, sql`, `)} select 1`);
}

const toResult = (h: RetrievedHit): HitResult => ({
  segment_id: h.id,
  document_id: h.documentId,
  document_name: h.documentName,
  position: h.position,
  content: h.content,
  score: h.score,
  source: h.source,
});

/** The base's stored retrieval defaults (hybrid weight, graph relevance), read leniently. */
function defaultsOf(ds: DatasetRow) {
  const r = ds.retrieval ?? {};
  const num = (x: unknown, d: number, max = 1) => (typeof x === 'number' && x >= 0 && x <= max ? x : d);
  return { vectorWeight: num(r.vector_weight, DEFAULT_VECTOR_WEIGHT), graphMinRelevance: graphMinRelevanceOf(ds) };
}

export async function hitTest(ctx: ServerContext, s: Scope, datasetId: string, body: HitTestBody): Promise<HitTestResult> {
  await assertCanRead(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const d = defaultsOf(ds);
  let hits: RetrievedHit[];
  try {
    const rerank = body.rerank ? await resolveRerankModel(ctx, ds.tenantId) : null;
    hits = await retrieve(ctx, [ds], {
      query: body.query,
      mode: body.mode,
      topK: body.top_k,
      scoreThreshold: body.score_threshold,
      vectorWeight: d.vectorWeight,
      rerank,
      graph: body.graph ? { minRelevance: body.graph_min_relevance ?? d.graphMinRelevance } : null,
    });
  } catch (e) {
    throw asAppError(e);
  }
  const results = hits.map(toResult);
  await countHits(ctx, hits, {
    id: randomUUID(),
    tenantId: ds.tenantId,
    datasetId: ds.id,
    query: body.query,
    mode: body.mode,
    topK: body.top_k,
    scoreThreshold: body.score_threshold ?? 0,
    rerank: body.rerank,
    graph: body.graph,
    results,
    resultCount: results.length,
    createdBy: s.caller.userId,
  });
  return { query: body.query, results };
}

type HitRow = typeof datasetHitResults.$inferSelect;
const toHistory = (r: HitRow): HitHistory => ({
  id: r.id,
  query: r.query,
  mode: r.mode as HitHistory['mode'],
  top_k: r.topK,
  score_threshold: r.scoreThreshold,
  rerank: r.rerank,
  graph: r.graph,
  result_count: r.resultCount,
  created_at: r.createdAt.toISOString(),
});

export async function listHitHistory(ctx: ServerContext, s: Scope, datasetId: string, q: { page: number; page_size: number }) {
  await assertCanRead(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  const where = eq(datasetHitResults.datasetId, ds.id);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(datasetHitResults).where(where);
  const rows = await ctx.db
    .select()
    .from(datasetHitResults)
    .where(where)
    .orderBy(desc(datasetHitResults.createdAt), desc(datasetHitResults.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(rows.map(toHistory), Number(total), q);
}

async function loadHit(ctx: ServerContext, s: Scope, datasetId: string, resultId: string): Promise<HitRow> {
  const ds = await loadDataset(ctx, s, datasetId);
  if (!UUID_RE.test(resultId)) throw notFoundOrForeign('Hit test record', resultId);
  const [row] = await ctx.db
    .select()
    .from(datasetHitResults)
    .where(and(eq(datasetHitResults.id, resultId), eq(datasetHitResults.datasetId, ds.id)));
  if (!row) throw notFoundOrForeign('Hit test record', resultId);
  return row;
}

export async function getHitHistory(ctx: ServerContext, s: Scope, datasetId: string, resultId: string): Promise<HitHistoryDetail> {
  await assertCanRead(ctx, s);
  const row = await loadHit(ctx, s, datasetId, resultId);
  return { ...toHistory(row), results: row.results as HitResult[] };
}

export async function deleteHitHistory(ctx: ServerContext, s: Scope, datasetId: string, resultId: string): Promise<void> {
  await assertCanEdit(ctx, s);
  const row = await loadHit(ctx, s, datasetId, resultId);
  await ctx.db.delete(datasetHitResults).where(eq(datasetHitResults.id, row.id));
}

// ---------------------------------------------------------------- graph

export async function graphQuery(ctx: ServerContext, s: Scope, datasetId: string, query: string): Promise<GraphQueryResult> {
  await assertCanRead(ctx, s);
  const ds = await loadDataset(ctx, s, datasetId);
  if (query.length > 1000) throw badRequest('The query can have at most 1000 characters', [{ path: 'body/query', message: 'too long' }]);
  return { relations: await queryGraph(ctx, [ds.id], query) };
}

export async function graphReferences(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<GraphReference[]> {
  await assertCanRead(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  return unitRelations(ctx, doc.id);
}

/** The unit's latest graph task. */
async function latestGraphTask(ctx: Ctx, documentId: string) {
  const [t] = await ctx.db
    .select()
    .from(datasetTasks)
    .where(and(eq(datasetTasks.documentId, documentId), eq(datasetTasks.type, 'graphic')))
    .orderBy(desc(datasetTasks.createdAt), desc(datasetTasks.id))
    .limit(1);
  return t ?? null;
}

export async function graphQueuePosition(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<{ position: number | null }> {
  await assertCanRead(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const t = await latestGraphTask(ctx, doc.id);
  return { position: t && t.status === 'queued' ? await queuePosition(ctx, t.id) : null };
}

/**
 * Turns a unit's graph analysis on (queues a graphic task; the unit's vector analysis must have
 * completed; a unit without text segments becomes not_parseable) or off (stops its task, removes its
 * relations and the entities left unused).
 */
export async function toggleGraph(ctx: ServerContext, s: Scope, datasetId: string, documentId: string, enabled: boolean): Promise<void> {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const t = await latestGraphTask(ctx, doc.id);
  const active = t && (t.status === 'queued' || t.status === 'running');
  if (enabled) {
    if (doc.status !== 'completed') throw badRequest('Graph analysis needs the unit’s vector analysis to succeed first');
    if (active) return; // already on its way
    if (!(await graphSegmentsOf(ctx, doc.id)).length) {
      await ctx.db.update(datasetDocuments).set({ graphStatus: 'not_parseable', graphError: null, updatedAt: new Date() }).where(eq(datasetDocuments.id, doc.id));
      return;
    }
    if (!(await getDefault(ctx, doc.tenantId, 'llm'))) {
      throw badRequest('Graph analysis needs a default chat model (LLM) in this tenant; set one in model management');
    }
    await ctx.db.update(datasetDocuments).set({ graphStatus: 'analysing', graphError: null, updatedAt: new Date() }).where(eq(datasetDocuments.id, doc.id));
    await enqueueTask(ctx, { tenantId: doc.tenantId, workspaceId: s.workspaceId, datasetId: doc.datasetId, documentId: doc.id, type: 'graphic', createdBy: s.caller.userId });
    return;
  }
  if (active && !(await cancelQueued(ctx, t.id)) && (await requestStop(ctx, t.id))) {
    // A running analysis stops at its next request; wait for it (briefly) so its end does not
    // overwrite `disabled` with `cancelled`.
    const until = Date.now() + STOP_WAIT_MS;
    for (;;) {
      const [now] = await ctx.db.select({ status: datasetTasks.status }).from(datasetTasks).where(eq(datasetTasks.id, t.id));
      if (!now || now.status !== 'running' || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await removeUnitGraph(ctx, doc.datasetId, doc.id);
  await ctx.db.update(datasetDocuments).set({ graphStatus: 'disabled', graphError: null, updatedAt: new Date() }).where(eq(datasetDocuments.id, doc.id));
}

