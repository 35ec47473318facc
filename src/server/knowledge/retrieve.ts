/**
 * Retrieval over one or more knowledge bases of one tenant (hit tests, the knowledge-retrieval node,
 * agents). What is searched: enabled segments (`chunk`, and `child` in parent-child mode: the
 * parent's content is answered, once) and enabled Q&A pairs, of enabled units whose vector analysis
 * completed.
 *
 * Scores, all 0..1:
 * - vector: cosine similarity of the query vector (made with the base's own embedder, so it is
 *   comparable to the stored vectors) and the segment's vector; pgvector `<=>` finds the candidates
 *   where the `embedding_v` column exists, else cosine in JS over `embedding` real[];
 * - full_text: `tsv @@ to_tsquery('simple', ...)` finds the candidates (tokens of tokenize.ts,
 *   Chinese stored as bigrams and each run's last character, queried as characters, matched as
 *   prefixes, and bigrams): those with all query tokens first, then any; the score is the share of distinct query
 *   tokens the segment holds times (0.5 + 0.5 * ts_rank_cd / best ts_rank_cd among candidates), so
 *   a segment holding the whole query scores 0.5..1 and the threshold keeps a stable meaning;
 * - hybrid: WEIGHTED, `vectorWeight * vector + (1 - vectorWeight) * full_text` (default weight
 *   0.7), each candidate of either list scored on both (not RRF: weighted scores keep the 0..1 scale
 *   that the score threshold and the UI show). The source shown is the part that weighed most.
 * Then optional rerank (the rerank model's relevance becomes the score), the score threshold, top k,
 * and optional graph neighbours (see {@link graphNeighbours}).
 */
import { MAX_GRAPH_MIN_RELEVANCE, METADATA_OPERATORS, type KnowledgeQuery, type MetadataCondition as QueryMetadataCondition, type MetadataFilter as QueryMetadataFilter, type RetrievalMode } from '../../../schemas/knowledge';
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ServerContext } from '../context';
import { badRequest } from '../errors';
import { cosine } from './embed-builtin';
import { createEmbedder } from './embedder';
import { vectorColumnExists } from './ingest';
import { rowsOf } from './queue';
import { indexDetails, indexFullTextCandidates, indexVectorCandidates } from './retrieve-indexes';
import { rerank as rerankCall, type RerankModelRef } from './rerank';
import { isCjkChar, queryTokens, requiredTokens, tokenHolder, tsqueryTerm } from './tokenize';
import { vectorCacheOf, type UnitVersion } from './vector-cache';

type Ctx = Pick<ServerContext, 'db' | 'secretKey' | 'outbound'>;

export type { RetrievalMode };
type KnowledgeQueryOut = z.output<typeof KnowledgeQuery>;
export type HitSource = 'vector' | 'full_text' | 'graph';

/** Operators of metadata conditions (the knowledge query's list, plus spelled-out aliases). */
export const METADATA_FILTER_OPERATORS = [...METADATA_OPERATORS, 'starts with', 'ends with', '!=', '>=', '<='] as const;

/** A metadata condition as retrieval checks it: the query's, an alias operator allowed (checked at run time). */
export interface MetadataCondition extends Omit<QueryMetadataCondition, 'operator' | 'value'> {
  operator: string;
  value?: string;
}
export interface MetadataFilter {
  logicalOperator: QueryMetadataFilter['logicalOperator'];
  conditions: MetadataCondition[];
}

/** The knowledge base as retrieval needs it. */
export interface RetrievalBase {
  id: string;
  tenantId: string;
  name: string;
  embedding: { provider: string; model: string } | null;
  embeddingDim: number | null;
}

/**
 * A search as retrieval runs it: the knowledge query's settings (schemas/knowledge.ts `KnowledgeQuery`,
 * defaults applied) with the bases, rerank model and graph option resolved by the caller.
 */
export interface RetrieveRequest extends Pick<KnowledgeQueryOut, 'mode' | 'topK' | 'scoreThreshold' | 'vectorWeight'> {
  query: string;
  /** Rerank the candidates with this model (resolve it with rerank.ts resolveRerankModel). */
  rerank?: RerankModelRef | null;
  metadataFilter?: MetadataFilter | null;
  /** Add knowledge-graph neighbours whose relevance reaches minRelevance (at most 0.5). */
  graph?: { minRelevance: number } | null;
  signal?: AbortSignal;
}

export interface RetrievedHit {
  /** The segment answered (the parent for a matched child) or the Q&A pair. */
  id: string;
  kind: 'segment' | 'qa';
  /** The segments (children included) whose match gave this hit: what hit counts count. */
  matchedIds: string[];
  datasetId: string;
  documentId: string;
  documentName: string;
  position: number;
  content: string;
  score: number;
  source: HitSource;
  metadata: Record<string, unknown>;
}

export const DEFAULT_VECTOR_WEIGHT = 0.7;
export { MAX_GRAPH_MIN_RELEVANCE };
/**
 * The partial HNSW index for bases with the built-in embedding (256 dimensions): pgvector indexes
 * only fixed-dimension vectors, hence the cast and the predicate. Migration 0008_knowledge_index
 * creates it where pgvector exists (same statement). It is the trade of search time for ingestion
 * time: on the embedded database (WASM) keeping it up costs ~3 ms per stored segment (several times
 * the rest of ingestion), while an exact search reads every vector of the searched bases (~1 s over
 * 130,000 segments, against ~30 ms through the index). An operator may drop it (retrieval notices
 * within {@link INDEX_CHECK_MS} and searches exactly); other dimensions are always searched exactly.
 */
export const HNSW_INDEX =
  'create index if not exists dataset_segments_hnsw_256 on dataset_segments using hnsw ((embedding_v::vector(256)) vector_cosine_ops) where vector_dims(embedding_v) = 256';
const HNSW_INDEX_NAME = 'dataset_segments_hnsw_256';
const HNSW_DIM = 256;
/** How long a look at pg_indexes for {@link HNSW_INDEX} holds. */
const INDEX_CHECK_MS = 30_000;
/** What the vector search can use: the index, and pgvector's iterative index scans (0.8 and later). */
interface AnnSupport {
  index: boolean;
  iterative: boolean;
}
const annSupportSeen = new WeakMap<object, { at: number; support: Promise<AnnSupport> }>();

/** Whether {@link HNSW_INDEX} exists and pgvector scans iteratively (looked up at most every {@link INDEX_CHECK_MS}). */
function annSupport(ctx: Ctx): Promise<AnnSupport> {
  const seen = annSupportSeen.get(ctx.db);
  if (seen && Date.now() - seen.at < INDEX_CHECK_MS) return seen.support;
  const support = ctx.db
    .execute(
      sql`select exists (select 1 from pg_indexes where indexname = ${HNSW_INDEX_NAME}) as index,
        coalesce((select string_to_array(extversion, '.')::int[] >= '{0,8}'::int[] from pg_extension where extname = 'vector'), false) as iterative`,
    )
    .then((r) => {
      const row = rowsOf<{ index: boolean; iterative: boolean }>(r)[0];
      return { index: Boolean(row?.index), iterative: Boolean(row?.iterative) };
    })
    .catch(() => ({ index: false, iterative: false }));
  annSupportSeen.set(ctx.db, { at: Date.now(), support });
  return support;
}

/** Forgets what {@link annSupport} saw (after creating or dropping the index). */
export function forgetAnnIndex(ctx: Pick<ServerContext, 'db'>): void {
  annSupportSeen.delete(ctx.db);
}

/** Nearest neighbours read from the vector index before the other conditions. */
const ANN_POOL = 40;
/**
 * How wide the HNSW search looks (pgvector's hnsw.ef_search, default 40). The built-in embedding's
 * vectors are alike at a distance (hashed words and n-grams: most pairs share little), where a
 * narrow search misses many true neighbours: bench:knowledge measured recall@4 against the exact
 * search of 0.49 at the default and 0.85 at 400 on 19,628 segments (vector p50 20 -> 26 ms).
 */
const ANN_EF_SEARCH = 400;

/**
 * Runs a query with {@link ANN_EF_SEARCH} and, where pgvector has them, iterative index scans in
 * relaxed order (the scan goes on past ef_search until enough rows pass the query's conditions, up
 * to hnsw.max_scan_tuples): SET LOCAL, in a transaction, so a pooled connection keeps its own settings.
 */
function withEfSearch<T>(ctx: Ctx, iterative: boolean, run: (db: Pick<Ctx['db'], 'execute'>) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local hnsw.ef_search = ${ANN_EF_SEARCH}`));
    if (iterative) await tx.execute(sql.raw(`set local hnsw.iterative_scan = relaxed_order`));
    return run(tx);
  });
}
/** Candidates read from the in-process search before a metadata filter, at least. */
const FILTERED_POOL = 200;
/** Graph neighbours added at most: top k, but at least this many. */
const MIN_GRAPH_NEIGHBOURS = 3;
/** Candidates read from each list before merging, at least. */
const MIN_CANDIDATES = 20;

/**
 * A row's vector as real[]: `embedding_v` where pgvector exists (the indexer leaves `embedding`
 * null there), else `embedding`.
 */
const embeddingOf = (withVector: boolean, alias: 's' | 'q') => sql.raw(withVector ? `${alias}.embedding_v::real[]` : `${alias}.embedding`);

const vectorLiteral = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

// ---------------------------------------------------------------- metadata filters

const NUMBER_RE = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const NUMERIC_SQL = '^\\s*[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$';
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/** Checks a filter's operators and values (VALIDATION-1000 with the condition's place otherwise). */
export function validateMetadataFilter(f: MetadataFilter | null | undefined): void {
  if (!f) return;
  if (f.logicalOperator !== 'and' && f.logicalOperator !== 'or') throw badRequest(`The metadata filter's logical operator must be 'and' or 'or'`);
  f.conditions.forEach((c, i) => {
    const where = `metadata condition ${i + 1}`;
    if (!c.name?.trim()) throw badRequest(`The ${where} has no field name`);
    if (!(METADATA_FILTER_OPERATORS as readonly string[]).includes(c.operator)) throw badRequest(`The ${where} has an unknown operator '${c.operator}'`);
    const v = c.value ?? '';
    if (['>', '<', '≥', '>=', '≤', '<='].includes(c.operator) && !NUMBER_RE.test(v)) throw badRequest(`The ${where} compares with '${v}', which is not a number`);
    if ((c.operator === 'before' || c.operator === 'after') && Number.isNaN(Date.parse(v))) throw badRequest(`The ${where} compares with '${v}', which is not a date`);
  });
}

/** One condition on a jsonb metadata expression. */
function conditionSql(meta: SQL, c: MetadataCondition): SQL {
  const field = sql`(${meta} ->> ${c.name.trim()})`;
  const v = c.value ?? '';
  const num = sql`(case when ${field} ~ ${NUMERIC_SQL} then ${field}::numeric end)`;
  switch (c.operator) {
    case 'is':
      return sql`coalesce(${field} = ${v}, false)`;
    case 'is not':
      return sql`${field} is distinct from ${v}`;
    case 'contains':
      return sql`coalesce(${field} ilike ${'%' + likeEscape(v) + '%'}, false)`;
    case 'not contains':
      return sql`not coalesce(${field} ilike ${'%' + likeEscape(v) + '%'}, false)`;
    case 'start with':
    case 'starts with':
      return sql`coalesce(${field} ilike ${likeEscape(v) + '%'}, false)`;
    case 'end with':
    case 'ends with':
      return sql`coalesce(${field} ilike ${'%' + likeEscape(v)}, false)`;
    case 'empty':
      return sql`coalesce(${field}, '') = ''`;
    case 'not empty':
      return sql`coalesce(${field}, '') <> ''`;
    case '=':
      return NUMBER_RE.test(v) ? sql`coalesce(${num} = ${Number(v)}, false)` : sql`coalesce(${field} = ${v}, false)`;
    case '≠':
    case '!=':
      return NUMBER_RE.test(v) ? sql`${num} is distinct from ${Number(v)}::numeric` : sql`${field} is distinct from ${v}`;
    case '>':
      return sql`coalesce(${num} > ${Number(v)}, false)`;
    case '<':
      return sql`coalesce(${num} < ${Number(v)}, false)`;
    case '≥':
    case '>=':
      return sql`coalesce(${num} >= ${Number(v)}, false)`;
    case '≤':
    case '<=':
      return sql`coalesce(${num} <= ${Number(v)}, false)`;
    case 'before':
    case 'after': {
      // ISO dates compare as text: the stored value's date part against the given date.
      const d = new Date(Date.parse(v)).toISOString().slice(0, 10);
      const stored = sql`(case when ${field} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then left(${field}, 10) end)`;
      return c.operator === 'before' ? sql`coalesce(${stored} < ${d}, false)` : sql`coalesce(${stored} > ${d}, false)`;
    }
    default:
      throw badRequest(`Unknown metadata operator '${c.operator}'`);
  }
}

/** The filter as a condition on `meta` (true when there is none). */
export function metadataFilterSql(meta: SQL, f: MetadataFilter | null | undefined): SQL {
  if (!f || !f.conditions.length) return sql`true`;
  validateMetadataFilter(f);
  const parts = f.conditions.map((c) => conditionSql(meta, c));
  return sql`(${sql.join(parts, f.logicalOperator === 'or' ? sql` or ` : sql` and `)})`;
}

// ---------------------------------------------------------------- candidates

interface Candidate {
  /** 's:' + segment id, 'q:' + Q&A id or 'i:' + segment index entry id. */
  key: string;
  vector?: number;
  rank?: number;
}

const SEG_META = sql`s.metadata`;
const QA_META = sql`jsonb_build_object('document_name', d.name)`;

/** Where a segment is searchable (s = dataset_segments, d = dataset_documents). */
const segmentWhere = (tenantId: string, baseIds: string[], filter: SQL) =>
  sql`s.tenant_id = ${tenantId}::uuid and s.dataset_id in (${idList(baseIds)}) and s.enabled and s.kind <> 'parent'
    and d.enabled and d.status = 'completed' and ${filter}`;
const qaWhere = (tenantId: string, baseIds: string[], filter: SQL) =>
  sql`q.tenant_id = ${tenantId}::uuid and q.dataset_id in (${idList(baseIds)}) and q.enabled and d.enabled and d.status = 'completed' and ${filter}`;

/** The ids of the bases' searchable units (enabled, indexed), as an SQL array. */
const searchableUnits = (tenantId: string, baseIds: string[]) =>
  sql`array(select d.id from dataset_documents d where d.tenant_id = ${tenantId}::uuid and d.dataset_id in (${idList(baseIds)}) and d.enabled and d.status = 'completed')`;

/**
 * The vector search through {@link HNSW_INDEX}: the {@link ANN_POOL} nearest segments of the
 * searched bases (tenant, bases, enabled, not a parent: what the index scan filters as it goes, and
 * with iterative scans goes on for), then the unit and metadata conditions, best {@link limit}
 * first. The planner chooses: the HNSW index for a big base, the base's own rows sorted exactly for
 * a small one (cheaper, and exact). The nearest are a materialised CTE: as a subquery joined to the
 * units, the planner searched the index once per searchable unit (20 searches over 20 units: 290 ms
 * instead of 15 at 131,000 segments).
 */
export function annNearestQuery(tenantId: string, baseIds: string[], qvec: number[], limit: number, f: MetadataFilter | null | undefined): SQL {
  const q = vectorLiteral(qvec);
  const d = sql.raw(String(HNSW_DIM));
  const distance = sql`s.embedding_v::vector(${d}) <=> ${q}::vector(${d})`;
  return sql`
    with near as materialized (
      select s.id, s.document_id, s.metadata, 1 - (${distance}) as sim
      from dataset_segments s
      where vector_dims(s.embedding_v) = ${d} and s.tenant_id = ${tenantId}::uuid and s.dataset_id in (${idList(baseIds)}) and s.enabled and s.kind <> 'parent'
      order by ${distance} limit ${ANN_POOL})
    select c.id, c.sim
    from near c join dataset_documents d on d.id = c.document_id
    where d.enabled and d.status = 'completed' and ${metadataFilterSql(sql`c.metadata`, f)}
    order by c.sim desc
    limit ${limit}`;
}

/**
 * The nearest segments through the in-process search (vector-cache.ts): the searchable units with
 * their versions, the cache's nearest, then the metadata filter in SQL on those candidates. Null
 * when the cache is off or over its budget, or a narrow filter left too few: the SQL search answers.
 */
async function cachedNearest(ctx: Ctx, tenantId: string, baseIds: string[], qvec: number[], limit: number, f: MetadataFilter | null | undefined, withVector: boolean) {
  const cache = vectorCacheOf(ctx.db);
  if (cache.budget <= 0) return null;
  const units = rowsOf<UnitVersion>(
    await ctx.db.execute(sql`select d.id, d.segments_version as version from dataset_documents d
      where d.tenant_id = ${tenantId}::uuid and d.dataset_id in (${idList(baseIds)}) and d.enabled and d.status = 'completed'`),
  );
  const filtered = Boolean(f?.conditions.length);
  const want = filtered ? Math.max(limit * 10, FILTERED_POOL) : limit;
  const near = await cache.nearest(units, qvec, want, withVector);
  if (!near || !filtered || !near.length) return near?.map((h) => ({ id: h.id, sim: h.score })) ?? null;
  const pass = new Set(
    rowsOf<{ id: string }>(await ctx.db.execute(sql`select s.id from dataset_segments s where s.id in (${idList(near.map((h) => h.id))}) and ${metadataFilterSql(SEG_META, f)}`)).map((r) => r.id),
  );
  const kept = near.filter((h) => pass.has(h.id)).slice(0, limit);
  // The filter passed too few of a full pool: there may be more further down, which SQL finds.
  if (kept.length < limit && near.length === want) return null;
  return kept.map((h) => ({ id: h.id, sim: h.score }));
}

async function vectorCandidates(ctx: Ctx, tenantId: string, baseIds: string[], qvec: number[], limit: number, f: MetadataFilter | null | undefined): Promise<Candidate[]> {
  const segFilter = metadataFilterSql(SEG_META, f);
  const qaFilter = metadataFilterSql(QA_META, f);
  const out: Candidate[] = [];
  const withVector = await vectorColumnExists(ctx);
  const cached = await cachedNearest(ctx, tenantId, baseIds, qvec, limit, f, withVector);
  if (withVector) {
    const q = vectorLiteral(qvec);
    // A whole number, written into the SQL so a partial HNSW index on
    // (embedding_v::vector(dim)) where vector_dims(embedding_v) = dim can serve the query.
    const dim = Math.floor(qvec.length);
    const d = sql.raw(String(dim));
    const distance = sql`s.embedding_v::vector(${d}) <=> ${q}::vector(${d})`;
    // Without the in-process search: with the HNSW index, the nearest segments of the searched
    // bases (annNearestQuery), then the unit and metadata conditions; when those leave too few,
    // the exact search. Without the index: the exact search over the searched bases only.
    // The searchable units first (few rows): joined, the planner loops over the units and scans
    // the segments once per unit. Ordered by `sim`, not by the distance operator, so the planner
    // cannot answer it from the HNSW index: an index scan there is approximate and, without the
    // iterative scan, filtered after its ef_search nearest, so another base's nearer segments
    // left this search with none (an API test: "another base nearer").
    // A vector of zeros (a segment without words) has no cosine: NaN, which PostgreSQL sorts above
    // every number. It scores 0.
    const exact = async () =>
      rowsOf<{ id: string; sim: number }>(
        await ctx.db.execute(sql`
          select s.id, coalesce(nullif(1 - (${distance}), 'NaN'::float8), 0) as sim
          from dataset_segments s
          where s.document_id = any(${searchableUnits(tenantId, baseIds)}) and s.tenant_id = ${tenantId}::uuid and s.dataset_id in (${idList(baseIds)})
            and s.enabled and s.kind <> 'parent' and ${segFilter} and vector_dims(s.embedding_v) = ${d}
          order by sim desc, s.id
          limit ${limit}`),
      );
    let segs: { id: string; sim: number }[];
    const ann = cached || dim !== HNSW_DIM ? null : await annSupport(ctx);
    if (cached) {
      segs = cached;
    } else if (ann?.index) {
      const near = rowsOf<{ id: string; sim: number }>(await withEfSearch(ctx, ann.iterative, (db) => db.execute(annNearestQuery(tenantId, baseIds, qvec, limit, f))));
      // Fewer than asked: the unit or metadata conditions, or the index scan's reach, left too few.
      segs = near.length < limit ? await exact() : near;
    } else {
      segs = await exact();
    }
    for (const r of segs) out.push({ key: 's:' + r.id, vector: Number(r.sim) });
    const qas = rowsOf<{ id: string; sim: number }>(
      await ctx.db.execute(sql`
        select q.id, 1 - (q.embedding_v <=> ${q}::vector) as sim
        from dataset_qa_pairs q join dataset_documents d on d.id = q.document_id
        where ${qaWhere(tenantId, baseIds, qaFilter)} and q.embedding_v is not null and vector_dims(q.embedding_v) = ${d}
        order by q.embedding_v <=> ${q}::vector
        limit ${limit}`),
    );
    for (const r of qas) out.push({ key: 'q:' + r.id, vector: Number(r.sim) });
    return out;
  }
  // No pgvector: cosine in JS over every searchable vector of the bases (segments only without the in-process search).
  const top = (rows: { id: string; embedding: number[] | null }[], prefix: string) =>
    rows
      .flatMap((r) => (r.embedding && r.embedding.length === qvec.length ? [{ key: prefix + r.id, vector: cosine(qvec, r.embedding.map(Number)) }] : []))
      .sort((a, b) => b.vector - a.vector)
      .slice(0, limit);
  out.push(
    ...(cached
      ? cached.map((r) => ({ key: 's:' + r.id, vector: r.sim }))
      : top(
          rowsOf(
            await ctx.db.execute(sql`select s.id, s.embedding from dataset_segments s join dataset_documents d on d.id = s.document_id
          where ${segmentWhere(tenantId, baseIds, segFilter)} and s.embedding is not null`),
          ),
          's:',
        )),
    ...top(
      rowsOf(
        await ctx.db.execute(sql`select q.id, q.embedding from dataset_qa_pairs q join dataset_documents d on d.id = q.document_id
          where ${qaWhere(tenantId, baseIds, qaFilter)} and q.embedding is not null`),
      ),
      'q:',
    ),
  );
  return out;
}

/** Matches ranked at most per full-text query (bounds the cost of very common words on big bases). */
const FT_SCAN_CAP = 1000;

/**
 * Full-text candidates: segments holding ALL query tokens first (few, and the best by coverage),
 * then, when they are fewer than `limit`, those holding ANY. Each query ranks at most FT_SCAN_CAP
 * matches, so a query of very common words stays fast on a big base.
 */
async function fullTextCandidates(ctx: Ctx, tenantId: string, baseIds: string[], toks: string[], limit: number, f: MetadataFilter | null | undefined): Promise<Candidate[]> {
  const segFilter = metadataFilterSql(SEG_META, f);
  const qaFilter = metadataFilterSql(QA_META, f);
  // The searchable units first (few rows), so the plan is one GIN scan filtered by unit, not a
  // nested loop that scans the GIN index once per unit. The unit condition is written so no index
  // can serve it (`is true`): the planner cannot see how many rows the array's units hold, and
  // ANDed the GIN bitmap with a bitmap of every row of those units from dataset_segments_doc_pos
  // (128,000 rows read: 23 of a search's 38 ms at 128,000 segments).
  const units = searchableUnits(tenantId, baseIds);
  const run = async (tsquery: string) => {
    const segs = rowsOf<{ id: string; rank: number }>(
      await ctx.db.execute(sql`
        select m.id, ts_rank_cd(m.tsv, to_tsquery('simple', ${tsquery})) as rank from (
          select s.id, s.tsv from dataset_segments s
          where s.tsv @@ to_tsquery('simple', ${tsquery}) and (s.document_id = any(${units})) is true
            and s.tenant_id = ${tenantId}::uuid and s.dataset_id in (${idList(baseIds)}) and s.enabled and s.kind <> 'parent' and ${segFilter}
          limit ${FT_SCAN_CAP}) m
        order by rank desc, m.id
        limit ${limit}`),
    );
    const qas = rowsOf<{ id: string; rank: number }>(
      await ctx.db.execute(sql`
        select m.id, ts_rank_cd(m.tsv, to_tsquery('simple', ${tsquery})) as rank from (
          select q.id, q.tsv from dataset_qa_pairs q join dataset_documents d on d.id = q.document_id
          where q.tsv @@ to_tsquery('simple', ${tsquery}) and ${qaWhere(tenantId, baseIds, qaFilter)}
          limit ${FT_SCAN_CAP}) m
        order by rank desc, m.id
        limit ${limit}`),
    );
    return [...segs.map((r) => ({ key: 's:' + r.id, rank: Number(r.rank) })), ...qas.map((r) => ({ key: 'q:' + r.id, rank: Number(r.rank) }))];
  };
  const all = requiredTokens(toks);
  const out: Candidate[] = toks.length > 1 ? await run(all.map(tsqueryTerm).join(' & ')) : [];
  const seen = new Set(out.map((c) => c.key));
  const add = (cs: Candidate[]) => {
    for (const c of cs) if (!seen.has(c.key)) seen.add(c.key), out.push(c);
  };
  // A single CJK character is in most segments of a Chinese base: matching ANY token would rank a
  // thousand arbitrary rows. The query's words and CJK bigrams (each in few segments, and every
  // segment holding a bigram holds its characters) are tried first; characters alone only when
  // those leave too few.
  const strong = toks.filter((t) => !isCjkChar(t));
  if (out.length < limit && strong.length && strong.length < toks.length) add(await run(strong.join(' | ')));
  if (out.length < limit) add(await run(toks.map(tsqueryTerm).join(' | ')));
  return out;
}

interface Detail {
  key: string;
  id: string;
  kind: 'segment' | 'qa';
  datasetId: string;
  documentId: string;
  documentName: string;
  position: number;
  content: string;
  tokens: string;
  embedding: number[] | null;
  /** Cosine similarity to the query vector, when the database computed it (then `embedding` is null). */
  sim: number | null;
  rank: number;
  metadata: Record<string, unknown>;
  /** Parent-child: the parent that is answered for this child. */
  parent: { id: string; position: number; content: string; metadata: Record<string, unknown> } | null;
}

/**
 * Content, tokens, vectors and full-text rank of the candidates (every candidate scored on both parts).
 * With pgvector and one query vector for all the searched bases (one embedder), the database answers
 * each candidate's cosine similarity (`sim`) instead of its vector: 256 numbers as text per row were
 * most of this query's time. Without query vectors (full-text search) no vector is read.
 */
async function details(ctx: Ctx, keys: string[], tsquery: string, qvec: number[] | null, anyVector: boolean): Promise<Map<string, Detail>> {
  const withVector = await vectorColumnExists(ctx);
  const inDb = withVector && qvec !== null;
  const simOf = (alias: 's' | 'q') =>
    inDb ? sql`case when vector_dims(${sql.raw(alias)}.embedding_v) = ${qvec!.length} then coalesce(nullif(1 - (${sql.raw(alias)}.embedding_v <=> ${vectorLiteral(qvec!)}::vector), 'NaN'::float8), 0) end` : sql`null::float8`;
  const vectorOf = (alias: 's' | 'q') => (inDb || !anyVector ? sql`null::real[]` : embeddingOf(withVector, alias));
  const simValue = (v: number | null | undefined) => (v == null ? null : Number(v));
  const segIds = keys.filter((k) => k.startsWith('s:')).map((k) => k.slice(2));
  const qaIds = keys.filter((k) => k.startsWith('q:')).map((k) => k.slice(2));
  const out = new Map<string, Detail>();
  const rankOf = (col: SQL) => (tsquery ? sql`ts_rank_cd(${col}, to_tsquery('simple', ${tsquery}))` : sql`0`);
  if (segIds.length) {
    const rows = rowsOf<{
      id: string;
      dataset_id: string;
      document_id: string;
      document_name: string;
      position: number;
      content: string;
      tokens: string;
      embedding: number[] | null;
      sim: number | null;
      rank: number;
      metadata: Record<string, unknown>;
      parent_id: string | null;
      parent_position: number | null;
      parent_content: string | null;
      parent_metadata: Record<string, unknown> | null;
    }>(
      await ctx.db.execute(sql`
        select s.id, s.dataset_id, s.document_id, d.name as document_name, s.position, s.content, s.tokens, ${vectorOf('s')} as embedding, ${simOf('s')} as sim,
          ${rankOf(sql`s.tsv`)} as rank, s.metadata,
          p.id as parent_id, p.position as parent_position, p.content as parent_content, p.metadata as parent_metadata
        from dataset_segments s join dataset_documents d on d.id = s.document_id
          left join dataset_segments p on p.id = s.parent_id and s.kind = 'child'
        where s.id in (${idList(segIds)})`),
    );
    for (const r of rows) {
      out.set('s:' + r.id, {
        key: 's:' + r.id,
        id: r.id,
        kind: 'segment',
        datasetId: r.dataset_id,
        documentId: r.document_id,
        documentName: r.document_name,
        position: Number(r.position),
        content: r.content,
        tokens: r.tokens,
        embedding: r.embedding ? r.embedding.map(Number) : null,
        sim: simValue(r.sim),
        rank: Number(r.rank),
        metadata: r.metadata ?? {},
        parent: r.parent_id ? { id: r.parent_id, position: Number(r.parent_position), content: r.parent_content ?? '', metadata: r.parent_metadata ?? {} } : null,
      });
    }
  }
  if (qaIds.length) {
    const rows = rowsOf<{ id: string; dataset_id: string; document_id: string; document_name: string; question: string; answer: string; tokens: string; embedding: number[] | null; sim: number | null; rank: number }>(
      await ctx.db.execute(sql`
        select q.id, q.dataset_id, q.document_id, d.name as document_name, q.question, q.answer, q.tokens, ${vectorOf('q')} as embedding, ${simOf('q')} as sim, ${rankOf(sql`q.tsv`)} as rank
        from dataset_qa_pairs q join dataset_documents d on d.id = q.document_id
        where q.id in (${idList(qaIds)})`),
    );
    for (const r of rows) {
      out.set('q:' + r.id, {
        key: 'q:' + r.id,
        id: r.id,
        kind: 'qa',
        datasetId: r.dataset_id,
        documentId: r.document_id,
        documentName: r.document_name,
        position: 0,
        content: qaContent(r.question, r.answer),
        tokens: r.tokens,
        embedding: r.embedding ? r.embedding.map(Number) : null,
        sim: simValue(r.sim),
        rank: Number(r.rank),
        metadata: { document_name: r.document_name, question: r.question, answer: r.answer },
        parent: null,
      });
    }
  }
  const indexIds = keys.filter((k) => k.startsWith('i:')).map((k) => k.slice(2));
  for (const d of await indexDetails(ctx, indexIds, tsquery, inDb ? qvec : null, withVector)) out.set(d.key, d);
  return out;
}

/** How a Q&A pair reads as a retrieved passage: the answer with its question. */
export const qaContent = (question: string, answer: string) => `Q: ${question}\nA: ${answer}`;

/** Share of distinct query tokens present in a row's tokens (a CJK character also as the start of a bigram). */
function coverage(queryToks: string[], rowTokens: string): number {
  if (!queryToks.length) return 0;
  const holds = tokenHolder(rowTokens);
  let n = 0;
  for (const t of queryToks) if (holds(t)) n++;
  return n / queryToks.length;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.max(0, Math.min(1, x)) : 0);
const round = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * Searches the bases (all of one tenant, already checked by the caller) and answers at most
 * `topK` hits best first, plus graph neighbours when asked.
 */
export async function retrieve(ctx: Ctx, bases: RetrievalBase[], req: RetrieveRequest): Promise<RetrievedHit[]> {
  const query = req.query.trim();
  if (!query || !bases.length) return [];
  const tenantId = bases[0]!.tenantId;
  if (bases.some((b) => b.tenantId !== tenantId)) throw new Error('retrieve: knowledge bases of different tenants');
  validateMetadataFilter(req.metadataFilter);
  const topK = Math.max(1, Math.floor(req.topK));
  const limit = Math.max(MIN_CANDIDATES, topK * 3);
  const w = req.mode === 'vector' ? 1 : req.mode === 'full_text' ? 0 : clamp01(req.vectorWeight ?? DEFAULT_VECTOR_WEIGHT);
  const toks = queryTokens(query);
  const tsquery = toks.map(tsqueryTerm).join(' | ');
  const signal = req.signal;

  // The query vector of each embedder (bases keep the model they were made with).
  const qvecByBase = new Map<string, number[]>();
  const candidates: Candidate[] = [];
  if (req.mode !== 'full_text') {
    const groups = new Map<string, RetrievalBase[]>();
    for (const b of bases) {
      if (b.embeddingDim === null) continue; // nothing embedded yet
      const k = b.embedding ? `${b.embedding.provider}/${b.embedding.model}` : 'builtin';
      groups.set(k, [...(groups.get(k) ?? []), b]);
    }
    for (const group of groups.values()) {
      signal?.throwIfAborted();
      const [qvec] = await createEmbedder(ctx, tenantId, group[0]!).embed([query], signal);
      if (!qvec) continue;
      for (const b of group) qvecByBase.set(b.id, qvec);
      candidates.push(
        ...(await vectorCandidates(
          ctx,
          tenantId,
          group.map((b) => b.id),
          qvec,
          limit,
          req.metadataFilter,
        )),
        // Segment index entries answer their segment (retrieve-indexes.ts).
        ...(await indexVectorCandidates(
          ctx,
          tenantId,
          group.map((b) => b.id),
          qvec,
          limit,
          metadataFilterSql(SEG_META, req.metadataFilter),
          await vectorColumnExists(ctx),
        )),
      );
    }
  }
  if (req.mode !== 'vector' && tsquery) {
    signal?.throwIfAborted();
    candidates.push(
      ...(await fullTextCandidates(
        ctx,
        tenantId,
        bases.map((b) => b.id),
        toks,
        limit,
        req.metadataFilter,
      )),
      ...(await indexFullTextCandidates(
        ctx,
        tenantId,
        bases.map((b) => b.id),
        tsquery,
        limit,
        metadataFilterSql(SEG_META, req.metadataFilter),
      )),
    );
  }
  // Graph neighbours are weighed by their similarity to the query: embed it for them too.
  if (req.graph && !qvecByBase.size) {
    for (const b of bases) {
      if (b.embeddingDim === null) continue;
      const [qvec] = await createEmbedder(ctx, tenantId, b).embed([query], signal);
      if (qvec) qvecByBase.set(b.id, qvec);
    }
  }
  if (!candidates.length) return req.graph ? graphNeighbours(ctx, bases, query, [], qvecByBase, req.graph.minRelevance, Math.max(topK, MIN_GRAPH_NEIGHBOURS)) : [];

  const keys = [...new Set(candidates.map((c) => c.key))];
  const qvecs = new Set(qvecByBase.values());
  const info = await details(ctx, keys, tsquery, qvecs.size === 1 && qvecByBase.size === bases.length ? [...qvecs][0]! : null, qvecs.size > 0);
  const maxRank = Math.max(0, ...[...info.values()].map((d) => d.rank));
  type Scored = { d: Detail; vector: number; text: number; score: number };
  const scored: Scored[] = [];
  for (const d of info.values()) {
    const qvec = qvecByBase.get(d.datasetId);
    const vector = !qvec ? 0 : d.sim !== null ? clamp01(d.sim) : d.embedding && d.embedding.length === qvec.length ? clamp01(cosine(qvec, d.embedding)) : 0;
    const text = d.rank > 0 && maxRank > 0 ? clamp01(coverage(toks, d.tokens) * (0.5 + (0.5 * d.rank) / maxRank)) : 0;
    scored.push({ d, vector, text, score: w * vector + (1 - w) * text });
  }

  // Parent-child: one hit per parent, with the best child's score.
  const byAnswer = new Map<string, { hit: RetrievedHit; part: { vector: number; text: number } }>();
  for (const s of scored.sort((a, b) => b.score - a.score)) {
    const d = s.d;
    // A child answers its parent; a segment index entry answers its segment: one hit each.
    const answerKey = d.parent ? 's:' + d.parent.id : d.kind === 'segment' ? 's:' + d.id : d.key;
    const seen = byAnswer.get(answerKey);
    if (seen) {
      if (!seen.hit.matchedIds.includes(d.id)) seen.hit.matchedIds.push(d.id);
      continue;
    }
    byAnswer.set(answerKey, {
      part: { vector: w * s.vector, text: (1 - w) * s.text },
      hit: {
        id: d.parent?.id ?? d.id,
        kind: d.kind,
        matchedIds: [d.id],
        datasetId: d.datasetId,
        documentId: d.documentId,
        documentName: d.documentName,
        position: d.parent?.position ?? d.position,
        content: d.parent?.content ?? d.content,
        score: s.score,
        source: req.mode === 'vector' ? 'vector' : req.mode === 'full_text' ? 'full_text' : w * s.vector >= (1 - w) * s.text ? 'vector' : 'full_text',
        metadata: d.parent ? { ...d.parent.metadata, matched_child: d.content } : d.metadata,
      },
    });
  }
  let hits = [...byAnswer.values()].map((x) => x.hit).filter((h) => h.score > 0);

  if (req.rerank && hits.length) {
    signal?.throwIfAborted();
    const pool = hits.slice(0, Math.max(topK * 3, MIN_CANDIDATES));
    const scores = await rerankCall(
      ctx,
      tenantId,
      req.rerank,
      query,
      pool.map((h) => h.content),
      { signal },
    );
    hits = scores.map((r) => ({ ...pool[r.index]!, score: r.score }));
  }
  const threshold = req.scoreThreshold ?? 0;
  hits = hits
    .filter((h) => h.score >= threshold)
    .slice(0, topK)
    .map((h) => ({ ...h, score: round(h.score) }));
  if (req.graph) hits.push(...(await graphNeighbours(ctx, bases, query, hits, qvecByBase, req.graph.minRelevance, Math.max(topK, MIN_GRAPH_NEIGHBOURS))));
  return hits;
}

// ---------------------------------------------------------------- graph neighbours

/** Entities of the bases named in the text (whole name found in it), with their relevance 1. */
export async function entitiesInText(ctx: Ctx, baseIds: string[], text: string): Promise<{ id: string; name: string; datasetId: string }[]> {
  const lower = text.normalize('NFKC').toLowerCase();
  return rowsOf<{ id: string; name: string; dataset_id: string }>(
    await ctx.db.execute(sql`
      select e.id, e.name, e.dataset_id from dataset_graph_entities e
      where e.dataset_id in (${idList(baseIds)}) and length(e.name_norm) > 0 and strpos(${lower}, e.name_norm) > 0
      limit 200`),
  ).map((r) => ({ id: r.id, name: r.name, datasetId: r.dataset_id }));
}

/**
 * Graph neighbours of a result: the entities named in the query (seed strength 1) and those
 * extracted from the hit segments (seed strength = the hit's score), their relations, and the
 * segments those relations were extracted from. A neighbour's relevance is
 * `0.5 * seed strength + 0.5 * cosine(query, neighbour)`; it is added (source 'graph', score = its
 * relevance) when the relevance reaches `minRelevance` (capped at 0.5) and it is not a hit already.
 * At most `limit` neighbours (the caller gives max(top k, 3)), most relevant first.
 */
export async function graphNeighbours(
  ctx: Ctx,
  bases: RetrievalBase[],
  query: string,
  hits: RetrievedHit[],
  qvecByBase: Map<string, number[]>,
  minRelevance: number,
  limit: number,
): Promise<RetrievedHit[]> {
  const baseIds = bases.map((b) => b.id);
  const min = Math.max(0, Math.min(MAX_GRAPH_MIN_RELEVANCE, minRelevance));
  const seed = new Map<string, number>();
  for (const e of await entitiesInText(ctx, baseIds, query)) seed.set(e.id, 1);
  const hitSegments = hits.filter((h) => h.kind === 'segment').flatMap((h) => [h.id, ...h.matchedIds].map((id) => ({ id, score: h.score })));
  if (hitSegments.length) {
    const rows = rowsOf<{ segment_id: string; source_id: string; target_id: string }>(
      await ctx.db.execute(sql`
        select r.segment_id, r.source_id, r.target_id from dataset_graph_relations r
        where r.dataset_id in (${idList(baseIds)}) and r.segment_id in (${idList([...new Set(hitSegments.map((s) => s.id))])})`),
    );
    const scoreOf = new Map(hitSegments.map((s) => [s.id, s.score]));
    for (const r of rows) {
      const s = scoreOf.get(r.segment_id) ?? 0;
      for (const id of [r.source_id, r.target_id]) seed.set(id, Math.max(seed.get(id) ?? 0, s));
    }
  }
  if (!seed.size) return [];
  const seedIds = [...seed.keys()];
  const rel = rowsOf<{ segment_id: string; source_id: string; target_id: string }>(
    await ctx.db.execute(sql`
      select distinct r.segment_id, r.source_id, r.target_id from dataset_graph_relations r
      where r.dataset_id in (${idList(baseIds)}) and r.segment_id is not null
        and (r.source_id in (${idList(seedIds)}) or r.target_id in (${idList(seedIds)}))
      limit 500`),
  );
  const strength = new Map<string, number>();
  for (const r of rel) {
    const s = Math.max(seed.get(r.source_id) ?? 0, seed.get(r.target_id) ?? 0);
    strength.set(r.segment_id, Math.max(strength.get(r.segment_id) ?? 0, s));
  }
  const taken = new Set(hits.flatMap((h) => [h.id, ...h.matchedIds]));
  const ids = [...strength.keys()].filter((id) => !taken.has(id));
  if (!ids.length) return [];
  const rows = rowsOf<{ id: string; dataset_id: string; document_id: string; document_name: string; position: number; content: string; embedding: number[] | null; metadata: Record<string, unknown> }>(
    await ctx.db.execute(sql`
      select s.id, s.dataset_id, s.document_id, d.name as document_name, s.position, s.content, ${embeddingOf(await vectorColumnExists(ctx), 's')} as embedding, s.metadata
      from dataset_segments s join dataset_documents d on d.id = s.document_id
      where s.id in (${idList(ids)}) and s.enabled and d.enabled and d.status = 'completed'`),
  );
  const out: RetrievedHit[] = [];
  for (const r of rows) {
    const qvec = qvecByBase.get(r.dataset_id);
    const sim = qvec && r.embedding && r.embedding.length === qvec.length ? clamp01(cosine(qvec, r.embedding.map(Number))) : 0;
    const relevance = 0.5 * (strength.get(r.id) ?? 0) + 0.5 * sim;
    if (relevance < min || relevance <= 0) continue;
    out.push({
      id: r.id,
      kind: 'segment',
      matchedIds: [r.id],
      datasetId: r.dataset_id,
      documentId: r.document_id,
      documentName: r.document_name,
      position: Number(r.position),
      content: r.content,
      score: round(relevance),
      source: 'graph',
      metadata: r.metadata ?? {},
    });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, limit);
}
