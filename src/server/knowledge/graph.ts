/**
 * Graph analysis (the `graphic` task) and graph reads. For each text segment of a unit (chunks, or
 * parents in parent-child mode) the tenant's default chat model is asked for the entities and
 * relations of the text as JSON; entities are kept once per knowledge base (by lower-cased name),
 * relations per unit and segment, so a unit's analysis can be removed or run again on its own.
 *
 * States (dataset_documents.graph_status): the toggle sets `analysing` and queues the task; the queue
 * sets `enabled` when it completes, `failed` (with graph_error) when it throws, `cancelled` when
 * stopped. A unit without text segments is `not_parseable` (set by the toggle, no task).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { datasetDocuments, datasetGraphEntities, datasetGraphRelations, datasetSegments } from '../db/schema';
import { ModelService } from '../providers/model-service';
import { getDefault } from '../services/models';
import { enqueueTask, rowsOf } from './queue';
import type { TaskHandler } from './types';

type Ctx = Pick<ServerContext, 'db' | 'secretKey' | 'outbound'>;

/** Segments analysed at once (LLM requests in flight). */
const CONCURRENCY = 3;
/** Longest text sent per request (a segment is at most a few thousand characters anyway). */
const MAX_TEXT = 6000;
const MAX_NAME = 200;

export interface Extraction {
  entities: { name: string; type: string; description: string }[];
  relations: { source: string; relation: string; target: string }[];
}

export const GRAPH_SYSTEM_PROMPT = [
  'You extract a knowledge graph from a text, in the language of the text.',
  'Answer only with JSON: {"entities": [{"name": string, "type": string, "description": string}],',
  '"relations": [{"source": entity name, "relation": short verb phrase, "target": entity name}]}.',
  'Entities are people, organisations, products, places, concepts and other named things of the text;',
  'keep names as written in the text. At most 20 entities and 30 relations.',
].join(' ');

/** Lower-cased, trimmed, single-spaced: how entity names are compared. */
export const normName = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** Reads the model's JSON (tolerates code fences and prose around it); unusable parts are dropped. */
export function parseExtraction(text: string): Extraction {
  const out: Extraction = { entities: [], relations: [] };
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return out;
  let j: { entities?: unknown; relations?: unknown };
  try {
    j = JSON.parse(text.slice(start, end + 1));
  } catch {
    return out;
  }
  const str = (x: unknown, max: number) => (typeof x === 'string' ? x.trim().replace(/\s+/g, ' ').slice(0, max) : '');
  if (Array.isArray(j.entities)) {
    for (const e of j.entities as Record<string, unknown>[]) {
      const name = str(typeof e === 'string' ? e : e?.name, MAX_NAME);
      if (name) out.entities.push({ name, type: str(e?.type, 50), description: str(e?.description, 500) });
    }
  }
  if (Array.isArray(j.relations)) {
    for (const r of j.relations as Record<string, unknown>[]) {
      const source = str(r?.source, MAX_NAME);
      const target = str(r?.target, MAX_NAME);
      const relation = str(r?.relation ?? r?.type, 100);
      if (source && target && relation && normName(source) !== normName(target)) out.relations.push({ source, relation, target });
    }
  }
  return out;
}

/** Removes a unit's relations and the base's entities no relation uses any more. */
export async function removeUnitGraph(ctx: Pick<ServerContext, 'db'>, datasetId: string, documentId: string): Promise<void> {
  await ctx.db.delete(datasetGraphRelations).where(eq(datasetGraphRelations.documentId, documentId));
  await ctx.db.execute(sql`
    delete from dataset_graph_entities e where e.dataset_id = ${datasetId}::uuid
      and not exists (select 1 from dataset_graph_relations r where r.source_id = e.id or r.target_id = e.id)`);
}

/**
 * Removes the relations extracted from the given segments (a deleted segment: its graph links go
 * with it) and the base's entities no relation uses any more. Runs on the caller's transaction.
 */
export async function removeSegmentsGraph(db: Pick<ServerContext['db'], 'execute'>, datasetId: string, segmentIds: string[]): Promise<void> {
  if (!segmentIds.length) return;
  await db.execute(sql`delete from dataset_graph_relations where dataset_id = ${datasetId}::uuid and segment_id = any(${`{${segmentIds.join(',')}}`}::uuid[])`);
  await db.execute(sql`
    delete from dataset_graph_entities e where e.dataset_id = ${datasetId}::uuid
      and not exists (select 1 from dataset_graph_relations r where r.source_id = e.id or r.target_id = e.id)`);
}

/**
 * After a unit's segments were made again (a URL refresh, processing the unit again), the graph's
 * relations name segment ids that are gone, so its neighbours would silently vanish from retrieval.
 * When the unit's graph is on (enabled or analysing), its analysis runs again on the new segments:
 * the stale relations are removed, the unit shows `analysing` and a graphic task is queued (unless
 * one is queued already: it reads the new segments when it runs). Called by the `normal` handler at
 * its end, so the unit is marked completed here (the graph task checks it when it starts).
 */
export async function rerunGraphAfterReindex(ctx: Pick<ServerContext, 'db'>, task: { documentId: string; datasetId: string; tenantId: string; workspaceId: string; createdBy: string }): Promise<boolean> {
  const [doc] = await ctx.db.select({ graphStatus: datasetDocuments.graphStatus }).from(datasetDocuments).where(eq(datasetDocuments.id, task.documentId));
  if (!doc || (doc.graphStatus !== 'enabled' && doc.graphStatus !== 'analysing')) return false;
  const [queued] = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`select id from dataset_tasks where document_id = ${task.documentId}::uuid and type = 'graphic' and status = 'queued' limit 1`),
  );
  await ctx.db
    .update(datasetDocuments)
    .set({ status: 'completed', progress: 1, error: null, graphStatus: 'analysing', graphError: null, updatedAt: new Date() })
    .where(eq(datasetDocuments.id, task.documentId));
  if (queued) return true;
  await removeUnitGraph(ctx, task.datasetId, task.documentId);
  await enqueueTask(ctx, { tenantId: task.tenantId, workspaceId: task.workspaceId, datasetId: task.datasetId, documentId: task.documentId, type: 'graphic', createdBy: task.createdBy });
  return true;
}

/** The text segments a unit's graph analysis reads (not children: parents carry their context). */
export async function graphSegmentsOf(ctx: Pick<ServerContext, 'db'>, documentId: string) {
  return ctx.db
    .select({ id: datasetSegments.id, content: datasetSegments.content })
    .from(datasetSegments)
    .where(and(eq(datasetSegments.documentId, documentId), ne(datasetSegments.kind, 'child')))
    .orderBy(asc(datasetSegments.position));
}

/** Ids of the base's entities by normalised name, created when missing (type/description kept when known). */
async function upsertEntities(ctx: Ctx, datasetId: string, entities: Extraction['entities']): Promise<Map<string, string>> {
  const byNorm = new Map<string, Extraction['entities'][number]>();
  for (const e of entities) {
    const n = normName(e.name);
    const had = byNorm.get(n);
    if (!had || (!had.type && e.type) || (!had.description && e.description)) byNorm.set(n, { ...had, ...e, type: e.type || had?.type || '', description: e.description || had?.description || '' });
  }
  const ids = new Map<string, string>();
  if (!byNorm.size) return ids;
  const rows = await ctx.db
    .insert(datasetGraphEntities)
    .values([...byNorm].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, e]) => ({ id: randomUUID(), datasetId, name: e.name, nameNorm: n, type: e.type, description: e.description })))
    .onConflictDoUpdate({
      target: [datasetGraphEntities.datasetId, datasetGraphEntities.nameNorm],
      set: {
        type: sql`case when ${datasetGraphEntities.type} = '' then excluded.type else ${datasetGraphEntities.type} end`,
        description: sql`case when ${datasetGraphEntities.description} = '' then excluded.description else ${datasetGraphEntities.description} end`,
      },
    })
    .returning({ id: datasetGraphEntities.id, nameNorm: datasetGraphEntities.nameNorm });
  for (const r of rows) ids.set(r.nameNorm, r.id);
  return ids;
}

/** Stores one segment's extraction. Answers the number of relations stored. */
export async function storeExtraction(ctx: Ctx, doc: { id: string; datasetId: string }, segmentId: string | null, x: Extraction): Promise<number> {
  const names = [...x.entities, ...x.relations.flatMap((r) => [r.source, r.target].map((name) => ({ name, type: '', description: '' })))];
  const ids = await upsertEntities(ctx, doc.datasetId, names);
  const seen = new Set<string>();
  const rows: (typeof datasetGraphRelations.$inferInsert)[] = [];
  for (const r of x.relations) {
    const sourceId = ids.get(normName(r.source));
    const targetId = ids.get(normName(r.target));
    const key = `${sourceId}|${r.relation.toLowerCase()}|${targetId}`;
    if (!sourceId || !targetId || seen.has(key)) continue;
    seen.add(key);
    rows.push({ id: randomUUID(), datasetId: doc.datasetId, documentId: doc.id, segmentId, sourceId, targetId, relation: r.relation, weight: 1 });
  }
  if (rows.length) await ctx.db.insert(datasetGraphRelations).values(rows);
  return rows.length;
}

/** The `graphic` task handler. */
export const graphHandler: TaskHandler = async (job) => {
  const { ctx, task, signal } = job;
  const [doc] = await ctx.db.select().from(datasetDocuments).where(eq(datasetDocuments.id, task.documentId));
  if (!doc) throw new Error('The knowledge unit no longer exists');
  if (doc.status !== 'completed') throw new Error('Graph analysis needs the unit’s vector analysis to succeed first');
  const model = await getDefault(ctx, task.tenantId, 'llm');
  if (!model) throw new Error('Graph analysis needs a default chat model (LLM) in this tenant; set one in model management');
  // A new attempt (restart) starts from nothing.
  await removeUnitGraph(ctx, doc.datasetId, doc.id);
  const segments = await graphSegmentsOf(ctx, doc.id);
  if (!segments.length) throw new Error('The unit has no text segments to analyse');
  const svc = new ModelService(ctx);
  let done = 0;
  let relations = 0;
  let unreadable = 0;
  try {
    await job.log('info', `Analysing ${segments.length} segments with ${model.provider}/${model.model}`);
    // The segments' requests run side by side; the first failure (or a stop) stops the others.
    const inner = new AbortController();
    const stop = () => inner.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    let next = 0;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= segments.length) return;
        inner.signal.throwIfAborted();
        const seg = segments[i]!;
        let answer = '';
        try {
          for await (const ev of svc.chat({
            tenantId: task.tenantId,
            provider: model.provider,
            model: model.model,
            signal: inner.signal,
            params: { temperature: 0 },
            messages: [
              { role: 'system', content: GRAPH_SYSTEM_PROMPT },
              { role: 'user', content: seg.content.slice(0, MAX_TEXT) },
            ],
          })) {
            if (ev.type === 'text') answer += ev.text;
          }
          inner.signal.throwIfAborted();
          const x = parseExtraction(answer);
          if (!x.entities.length && !x.relations.length && answer.trim()) unreadable++;
          relations += await storeExtraction(ctx, doc, seg.id, x);
        } catch (e) {
          if (!inner.signal.aborted) inner.abort(e);
          throw e;
        }
        done++;
        await job.progress(done / segments.length);
      }
    };
    const settled = await Promise.allSettled(Array.from({ length: Math.min(CONCURRENCY, segments.length) }, worker));
    signal.removeEventListener('abort', stop);
    signal.throwIfAborted();
    if (inner.signal.aborted) throw inner.signal.reason;
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    if (unreadable) await job.log('warn', `${unreadable} answers of the model had no usable JSON`);
    const [{ n }] = rowsOf<{ n: number }>(
      await ctx.db.execute(sql`select count(distinct x.id)::int as n from dataset_graph_entities x join dataset_graph_relations r on r.source_id = x.id or r.target_id = x.id where r.document_id = ${doc.id}::uuid`),
    );
    await job.log('info', `${relations} relations between ${n} entities stored`);
  } catch (e) {
    // Nothing half-done stays: the unit's graph is a complete analysis or none.
    await removeUnitGraph(ctx, doc.datasetId, doc.id).catch(() => undefined);
    throw e;
  }
};

// ---------------------------------------------------------------- reads

export interface GraphRelationRow {
  source: string;
  relation: string;
  target: string;
}

/**
 * The relations extracted from one unit, each once however many of its segments yield it (grouped
 * as {@link queryGraph} groups them; `count`: how many do), in the order they were first found.
 */
export async function unitRelations(ctx: Pick<ServerContext, 'db'>, documentId: string, limit = 1000): Promise<(GraphRelationRow & { count: number })[]> {
  return rowsOf<GraphRelationRow & { count: number }>(
    await ctx.db.execute(sql`
      select s.name as source, r.relation, t.name as target, count(*)::int as count
      from dataset_graph_relations r join dataset_graph_entities s on s.id = r.source_id join dataset_graph_entities t on t.id = r.target_id
      where r.document_id = ${documentId}::uuid
      group by r.source_id, r.target_id, s.name, r.relation, t.name
      order by min(r.created_at), min(r.id::text)
      limit ${limit}`),
  ).map((r) => ({ ...r, count: Number(r.count) }));
}

/**
 * Relations of the base around the entities a query names: an entity whose whole name is in the
 * query matches fully (1); otherwise the share of its name's words found among the query's words
 * (Chinese names: characters), kept from 0.5. A relation scores the mean of its two ends' matches
 * (an end not matched counts 0), best first.
 */
export async function queryGraph(ctx: Pick<ServerContext, 'db'>, datasetIds: string[], query: string, limit = 50): Promise<(GraphRelationRow & { score: number })[]> {
  if (!datasetIds.length) return [];
  const q = normName(query);
  const words = new Set(q.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  const chars = new Set(Array.from(q.replace(/\s+/g, '')));
  const ids = sql.join(
    datasetIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  // Candidates: names inside the query, or sharing a word with it (words are letters and digits only).
  const wordList = [...words].slice(0, 50);
  const entities = rowsOf<{ id: string; name_norm: string }>(
    await ctx.db.execute(sql`
      select e.id, e.name_norm from dataset_graph_entities e
      where e.dataset_id in (${ids}) and (strpos(${q}, e.name_norm) > 0
        ${wordList.length ? sql`or string_to_array(e.name_norm, ' ') && ${`{${wordList.map((w) => `"${w.replace(/["\\]/g, '')}"`).join(',')}}`}::text[]` : sql``})
      limit 500`),
  );
  const match = new Map<string, number>();
  for (const e of entities) {
    let m = 0;
    if (q.includes(e.name_norm)) m = 1;
    else {
      const parts = e.name_norm.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
      const isCjk = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/u.test(e.name_norm);
      const units = isCjk ? Array.from(e.name_norm.replace(/\s+/g, '')) : parts;
      const found = units.filter((u) => (isCjk ? chars.has(u) : words.has(u))).length;
      m = units.length ? found / units.length : 0;
    }
    if (m >= 0.5) match.set(e.id, m);
  }
  if (!match.size) return [];
  const matched = [...match.keys()];
  const rows = rowsOf<{ source_id: string; target_id: string; source: string; relation: string; target: string; n: number }>(
    await ctx.db.execute(sql`
      select r.source_id, r.target_id, s.name as source, r.relation, t.name as target, count(*)::int as n
      from dataset_graph_relations r join dataset_graph_entities s on s.id = r.source_id join dataset_graph_entities t on t.id = r.target_id
      where r.dataset_id in (${ids}) and (r.source_id in (${sql.join(
        matched.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) or r.target_id in (${sql.join(
        matched.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}))
      group by r.source_id, r.target_id, s.name, r.relation, t.name
      limit 2000`),
  );
  return rows
    .map((r) => ({ source: r.source, relation: r.relation, target: r.target, score: Math.round((((match.get(r.source_id) ?? 0) + (match.get(r.target_id) ?? 0)) / 2) * 1000) / 1000, n: Number(r.n) }))
    .sort((a, b) => b.score - a.score || b.n - a.n || a.source.localeCompare(b.source))
    .slice(0, limit)
    .map(({ n: _n, ...r }) => r);
}
