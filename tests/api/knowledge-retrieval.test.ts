import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetDocuments, datasetQaPairs, datasets, datasetSegmentHits, datasetSegments } from '../../src/server/db/schema';
import { builtinEmbedder } from '../../src/server/knowledge/embedder';
import { embedAndStoreQa, reindexSegment, writeSegments } from '../../src/server/knowledge/ingest';
import { annNearestQuery, forgetAnnIndex, HNSW_INDEX, retrieve, type MetadataFilter, type RetrievalBase, type RetrieveRequest } from '../../src/server/knowledge/retrieve';
import { createKnowledgeService } from '../../src/server/knowledge/runtime';
import type { SegmentDraft } from '../../src/server/knowledge/types';
import { configureVectorCache, vectorCacheOf } from '../../src/server/knowledge/vector-cache';
import { GOOD_KEY } from './fake-providers';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { createBase } from './knowledge-kit';
import { configureProvider, createApp, flow, parseSse, RUNS, textInput } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Retrieval over real segments stored by the indexer (writeSegments, built-in embedding) in the
// embedded database: each mode, threshold, metadata filters, Q&A pairs, parent-child, hybrid
// weighting, rerank through a local rerank server, the hit-test routes and history, and the
// knowledge-retrieval node in a workflow run through the run API.

const h = useStudio();
let f: Fixture;
let ds: string;
let base: RetrievalBase;
const db = () => h.studio.ctx.db;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const HIT = (id: string) => `/api/v1/console/datasets/${id}`;

const EN_RESET = 'To reset your password, open account settings and choose reset password.';
const EN_REVENUE = 'Quarterly revenue grew by twelve percent in Europe.';
const ZH_RESET = '重置密码：打开账户设置，选择重置密码。';
const EN_LUNCH = 'The cafeteria serves lunch from noon until two o clock.';
const DISABLED_SEG = 'Password reset codes expire after ten minutes (disabled segment).';
const PARENT = 'Shipping chapter. Orders ship within two days of payment. Returns are accepted for thirty days after delivery.';

/** A completed unit filled through the indexer, as the normal task leaves it. */
async function unit(datasetId: string, name: string, drafts: SegmentDraft[], extra: Partial<typeof datasetDocuments.$inferInsert> = {}) {
  const id = randomUUID();
  await db()
    .insert(datasetDocuments)
    .values({
      id,
      tenantId: DEFAULT_TENANT_ID,
      datasetId,
      name,
      fileType: 'txt',
      status: 'completed',
      progress: 1,
      processRule: {},
      segmentMode: drafts.some((d) => d.children) ? 'parent_child' : 'general',
      createdBy: f.u.member.id,
      ...extra,
    });
  await writeSegments(h.studio.ctx, { id, datasetId, tenantId: DEFAULT_TENANT_ID, name }, drafts, builtinEmbedder);
  return id;
}

let docA: string;
let docTable: string;
let docPc: string;

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'ret');
  ds = await createBase(h, f.u.member.token, f.wsA, 'Retrieval');
  docA = await unit(ds, 'guide.txt', [{ content: EN_RESET }, { content: EN_REVENUE }, { content: ZH_RESET }, { content: EN_LUNCH }, { content: DISABLED_SEG }]);
  await db().update(datasetSegments).set({ enabled: false }).where(eq(datasetSegments.content, DISABLED_SEG));
  await unit(ds, 'disabled.txt', [{ content: 'Reset your password in the disabled unit.' }], { enabled: false });
  await unit(ds, 'unfinished.txt', [{ content: 'Reset your password in a unit still indexing.' }], { status: 'indexing' });
  docTable = await unit(ds, 'cities.csv', [
    { content: 'city: Paris; population: 2100000; country: France', metadata: { city: 'Paris', population: '2100000', country: 'France', updated: '2024-05-01', note: '' } },
    { content: 'city: Lyon; population: 520000; country: France', metadata: { city: 'Lyon', population: '520000', country: 'France', updated: '2023-01-15', note: 'river city' } },
    { content: 'city: Berlin; population: 3600000; country: Germany', metadata: { city: 'Berlin', population: '3600000', country: 'Germany', updated: '2025-02-10', note: 'capital' } },
  ]);
  docPc = await unit(ds, 'shipping.md', [{ content: PARENT, children: ['Orders ship within two days of payment.', 'Returns are accepted for thirty days after delivery.'] }]);
  const [row] = await db().select().from(datasets).where(eq(datasets.id, ds));
  await embedAndStoreQa(h.studio.ctx, row!, { id: docA, datasetId: ds, tenantId: DEFAULT_TENANT_ID }, { question: 'How long is the warranty?', answer: 'Two years from the date of purchase.' }, builtinEmbedder);
  base = { id: row!.id, tenantId: row!.tenantId, name: row!.name, embedding: row!.embedding, embeddingDim: row!.embeddingDim };
  expect(base.embeddingDim).toBe(256);
});

const search = (req: Partial<RetrieveRequest> & { query: string }) => retrieve(h.studio.ctx, [base], { mode: 'hybrid', topK: 10, ...req });
/** The same search with the in-process vector search off (SQL answers). */
async function inSqlSearch(req: Partial<RetrieveRequest> & { query: string }) {
  const cache = vectorCacheOf(db());
  const budget = cache.budget;
  cache.budget = 0; // (what it keeps stays kept)
  try {
    return await search(req);
  } finally {
    cache.budget = budget;
  }
}

describe('retrieve: modes', () => {
  it('vector: the closest segment first, scores 0..1 best first, only searchable segments', async () => {
    const hits = await search({ query: 'how do I reset my password', mode: 'vector' });
    expect(hits[0]).toMatchObject({ content: EN_RESET, source: 'vector', documentName: 'guide.txt', documentId: docA, kind: 'segment' });
    for (const x of hits) {
      expect(x.score).toBeGreaterThan(0);
      expect(x.score).toBeLessThanOrEqual(1);
      expect(x.source).toBe('vector');
    }
    expect(hits.map((x) => x.score)).toEqual([...hits.map((x) => x.score)].sort((a, b) => b - a));
    const all = hits.map((x) => x.content).join('\n');
    expect(all).not.toContain('disabled');
    expect(all).not.toContain('still indexing');
  });

  it('full_text: Chinese through character bigrams; nothing for unknown words; operators in the query are harmless', async () => {
    const zh = await search({ query: '怎么重置密码', mode: 'full_text' });
    expect(zh[0]).toMatchObject({ content: ZH_RESET, source: 'full_text' });
    expect(zh.every((x) => x.source === 'full_text')).toBe(true);
    expect(await search({ query: 'zzzqqq xyzzy', mode: 'full_text' })).toEqual([]);
    const odd = await search({ query: "revenue & | ! ( ) :* <-> 'Europe'", mode: 'full_text' });
    expect(odd[0]!.content).toBe(EN_REVENUE);
  });

  it('full_text: a Chinese character matches wherever it stands in a run, in segments stored with bigrams or, as before, with every character', async () => {
    const zhBase = await createBase(h, f.u.member.token, f.wsA, 'Chinese characters');
    const [row] = await db().select().from(datasets).where(eq(datasets.id, zhBase));
    const b: RetrievalBase = { id: zhBase, tenantId: DEFAULT_TENANT_ID, name: row!.name, embedding: null, embeddingDim: 256 };
    const doc = await unit(zhBase, 'zh.txt', [{ content: '河流山峰' }, { content: '城市天气' }]);
    const [stored] = await db().select().from(datasetSegments).where(and(eq(datasetSegments.documentId, doc), eq(datasetSegments.position, 1)));
    expect(stored!.tokens).toBe('河流 流山 山峰 峰');
    // A segment of an earlier version: every character a token of its own (the database's trigger makes its tsv).
    const old = randomUUID();
    await db().insert(datasetSegments).values({ id: old, tenantId: DEFAULT_TENANT_ID, datasetId: zhBase, documentId: doc, kind: 'chunk', position: 3, content: '银行医院', tokens: '银 银行 行 行医 医 医院 院', metadata: {} });
    const found = async (query: string) => (await retrieve(h.studio.ctx, [b], { mode: 'full_text', topK: 10, query })).map((x) => x.content);
    // First, inner and last character of a run; a bigram; a character and a bigram together.
    expect(await found('河')).toEqual(['河流山峰']);
    expect(await found('山')).toEqual(['河流山峰']);
    expect(await found('峰')).toEqual(['河流山峰']);
    expect(await found('天气')).toEqual(['城市天气']);
    expect(await found('银')).toEqual(['银行医院']);
    expect(await found('院')).toEqual(['银行医院']);
    expect(await found('医院')).toEqual(['银行医院']);
    // Not across runs or across the order of a bigram.
    expect(await found('峰河')).toEqual(['河流山峰']); // its characters, not the bigram
    expect(await found('湖')).toEqual([]);
    // The whole query held: a full coverage, the same score in either scheme.
    const [a] = await retrieve(h.studio.ctx, [b], { mode: 'full_text', topK: 1, query: '山峰' });
    const [c] = await retrieve(h.studio.ctx, [b], { mode: 'full_text', topK: 1, query: '医院' });
    expect(a!.score).toBeGreaterThanOrEqual(0.5);
    expect(c!.score).toBeGreaterThanOrEqual(0.5);
  });

  it('hybrid is the weighted sum of the vector and full-text scores (vectorWeight), and the weights move the order', async () => {
    const q = 'reset password settings';
    const [v, t, h7, h0, h1] = await Promise.all([
      search({ query: q, mode: 'vector' }),
      search({ query: q, mode: 'full_text' }),
      search({ query: q, mode: 'hybrid', vectorWeight: 0.7 }),
      search({ query: q, mode: 'hybrid', vectorWeight: 0 }),
      search({ query: q, mode: 'hybrid', vectorWeight: 1 }),
    ]);
    const scoreIn = (list: typeof v, content: string) => list.find((x) => x.content === content)?.score ?? 0;
    for (const content of [EN_RESET, EN_LUNCH]) {
      expect(scoreIn(h7, content)).toBeCloseTo(0.7 * scoreIn(v, content) + 0.3 * scoreIn(t, content), 3);
    }
    expect(h0.map((x) => x.content)).toEqual(t.map((x) => x.content));
    expect(h1.map((x) => x.content).slice(0, 3)).toEqual(v.map((x) => x.content).slice(0, 3));
    expect(h7[0]!.content).toBe(EN_RESET);
  });

  it('top_k and the score threshold bound the answer', async () => {
    expect(await search({ query: 'password revenue lunch', topK: 2 })).toHaveLength(2);
    const all = await search({ query: 'reset password', mode: 'vector' });
    const cut = all[1]!.score;
    const kept = await search({ query: 'reset password', mode: 'vector', scoreThreshold: cut });
    expect(kept.length).toBeLessThan(all.length);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.every((x) => x.score >= cut)).toBe(true);
    expect(await search({ query: 'reset password', scoreThreshold: 1 })).toEqual([]);
  });
});

describe('retrieve: vector scores', () => {
  it('scores each hit by the cosine similarity of its stored vector to the query vector, in every mode', async () => {
    const query = 'how do I reset my password';
    const [qv] = await builtinEmbedder.embed([query]);
    const hasVector = ((await db().execute(sql`select 1 from information_schema.columns where table_name = 'dataset_segments' and column_name = 'embedding_v'`)) as unknown as { rows: unknown[] }).rows.length > 0;
    const stored = async (id: string) => {
      const r = (await db().execute(sql.raw(`select ${hasVector ? 'embedding_v::real[]' : 'embedding'} as v from dataset_segments where id = '${id}'`))) as unknown as { rows: { v: number[] }[] };
      return r.rows[0]!.v.map(Number);
    };
    const cos = (a: number[], b: number[]) => a.reduce((t, x, i) => t + x * b[i]!, 0) / Math.sqrt(a.reduce((t, x) => t + x * x, 0) * b.reduce((t, x) => t + x * x, 0));
    const vectorOnly = await search({ query, mode: 'vector', topK: 3 });
    expect(vectorOnly.length).toBeGreaterThan(0);
    for (const x of vectorOnly.filter((y) => y.kind === 'segment' && !y.matchedIds.some((m) => m !== y.id))) {
      expect(x.score).toBeCloseTo(Math.max(0, cos(qv!, await stored(x.id))), 3);
    }
    // Hybrid: weight 1 leaves the vector part alone.
    const hybrid = await search({ query, mode: 'hybrid', topK: 3, vectorWeight: 1 });
    for (const x of hybrid.filter((y) => y.kind === 'segment' && !y.matchedIds.some((m) => m !== y.id))) {
      expect(x.score).toBeCloseTo(Math.max(0, cos(qv!, await stored(x.id))), 3);
    }
  });
});

const rowsOf = async (stmt: ReturnType<typeof sql>) => ((await db().execute(stmt)) as unknown as { rows: unknown[] }).rows;
const hasVectorColumn = async () => (await rowsOf(sql`select 1 from information_schema.columns where table_name = 'dataset_segments' and column_name = 'embedding_v'`)).length > 0;
const onPglite = async () => ((await rowsOf(sql`select version() as v`)) as { v: string }[])[0]!.v.includes('emscripten');

/**
 * Runs `fn` as a PostgreSQL server with pgvector searches when the in-process search is off (or
 * over its budget): through the HNSW index of migration 0008. On the embedded database migration
 * 0010 dropped that index: the test makes it here and drops it again after.
 */
async function withHnsw(fn: () => Promise<void>) {
  const made = await onPglite();
  if (made) await db().execute(sql.raw(HNSW_INDEX));
  const budget = vectorCacheOf(db()).budget;
  configureVectorCache(db(), 0);
  forgetAnnIndex(h.studio.ctx);
  try {
    await fn();
  } finally {
    vectorCacheOf(db()).budget = budget;
    if (made) await db().execute(sql`drop index if exists dataset_segments_hnsw_256`);
    forgetAnnIndex(h.studio.ctx);
  }
}

describe('retrieve: the in-process vector search', () => {
  const queries = ['how do I reset my password', 'quarterly revenue Europe', '怎么重置密码', 'lunch noon', 'orders ship returns', 'Berlin population'];
  const inSql = inSqlSearch;

  it('migration 0010 drops the HNSW index on the embedded database; a server with pgvector keeps it', async () => {
    const indexed = (await rowsOf(sql`select 1 from pg_indexes where indexname = 'dataset_segments_hnsw_256'`)).length > 0;
    expect(indexed).toBe((await hasVectorColumn()) && !(await onPglite()));
  });

  it('answers what the exact search in SQL answers, in every mode, and keeps each unit loaded while it stays', async () => {
    // Segments without words have a vector of zeros, whose cosine is NaN in SQL (sorted above every
    // number): more of them than the candidates read left the exact search with nothing to answer.
    const empty = await unit(ds, 'punctuation.txt', Array.from({ length: 25 }, () => ({ content: '—' })));
    try {
      const cache = vectorCacheOf(db());
      cache.clear();
      const loads = cache.loads;
      for (const query of queries) {
        for (const mode of ['vector', 'hybrid'] as const) {
          const viaCache = await search({ query, mode, topK: 4 });
          expect(viaCache.length, query).toBeGreaterThan(0);
          // The same hits, wherever a score stands above the int8 rounding (a cosine of 0.00003 and
          // a segment's zero vector can trade places there).
          const clear = (hits: typeof viaCache) => hits.filter((x) => x.score >= 0.01);
          expect(clear(viaCache), `${mode}: ${query}`).toEqual(clear(await inSql({ query, mode, topK: 4 })));
        }
      }
      // The base's searchable units (guide.txt, cities.csv, shipping.md, punctuation.txt), loaded once each.
      expect(cache.loads - loads).toBe(4);
      expect(cache.size.units).toBe(4);
    } finally {
      await db().delete(datasetDocuments).where(eq(datasetDocuments.id, empty));
    }
  });

  it('loads the searchable units\' vectors ahead of the first search', async () => {
    const cache = vectorCacheOf(db());
    cache.clear();
    const searchable = ((await rowsOf(sql`select count(*)::int as n from dataset_documents where enabled and status = 'completed'`)) as { n: number }[])[0]!.n;
    expect(await cache.warm()).toBe(searchable);
    expect(cache.size.units).toBe(searchable);
    const loads = cache.loads;
    expect((await search({ query: 'reset password', mode: 'vector' }))[0]!.content).toBe(EN_RESET);
    expect(cache.loads).toBe(loads);
    // Not past the budget: a warm-up that would outgrow it stops.
    cache.clear();
    const budget = cache.budget;
    try {
      cache.budget = 1000;
      expect(await cache.warm()).toBeLessThan(searchable);
      expect(cache.size.bytes).toBeLessThanOrEqual(1000);
      expect(cache.has(docA)).toBe(false);
    } finally {
      cache.budget = budget;
    }
  });

  it('sees every write of a unit\'s segments: content edited, a segment disabled, a unit deleted', async () => {
    const cache = vectorCacheOf(db());
    const version = async (id: string) => Number(((await rowsOf(sql`select segments_version as v from dataset_documents where id = ${id}::uuid`)) as { v: string }[])[0]!.v);
    const doc = await unit(ds, 'changing.txt', [{ content: 'The aquarium feeds its octopus at nine.' }, { content: 'Penguins parade through the hall at noon.' }]);
    // The indexer's binary COPY (replica role, no foreign-key triggers) still raised the version.
    expect(await version(doc)).toBeGreaterThan(0);
    expect((await search({ query: 'octopus aquarium', mode: 'vector', topK: 1 }))[0]!.content).toBe('The aquarium feeds its octopus at nine.');
    const loads = cache.loads;
    expect((await search({ query: 'octopus aquarium', mode: 'vector', topK: 1 }))[0]!.content).toBe('The aquarium feeds its octopus at nine.');
    expect(cache.loads).toBe(loads);

    const [octopus] = await db().select().from(datasetSegments).where(eq(datasetSegments.content, 'The aquarium feeds its octopus at nine.'));
    const before = await version(doc);
    const [row] = await db().select().from(datasets).where(eq(datasets.id, ds));
    await reindexSegment(h.studio.ctx, row!, octopus!.id, 'The zoo feeds its giraffes at dawn.');
    expect(await version(doc)).toBeGreaterThan(before);
    const giraffe = await search({ query: 'giraffes dawn zoo', mode: 'vector', topK: 1 });
    expect(giraffe[0]).toMatchObject({ id: octopus!.id, content: 'The zoo feeds its giraffes at dawn.' });
    expect(cache.loads).toBe(loads + 1);
    expect(giraffe).toEqual(await inSql({ query: 'giraffes dawn zoo', mode: 'vector', topK: 1 }));

    await db().update(datasetSegments).set({ enabled: false }).where(eq(datasetSegments.id, octopus!.id));
    expect((await search({ query: 'giraffes dawn zoo', mode: 'vector', topK: 10 })).map((x) => x.id)).not.toContain(octopus!.id);

    await db().delete(datasetDocuments).where(eq(datasetDocuments.id, doc));
    expect((await search({ query: 'penguins parade hall', mode: 'vector', topK: 10 })).map((x) => x.documentId)).not.toContain(doc);
  });

  it('filters by metadata in SQL on its candidates', async () => {
    const filter: MetadataFilter = { logicalOperator: 'and', conditions: [{ name: 'country', operator: 'is', value: 'France' }] };
    const hits = await search({ query: 'Berlin population country', mode: 'vector', topK: 10, metadataFilter: filter });
    expect(hits.map((x) => x.metadata.city).sort()).toEqual(['Lyon', 'Paris']);
    expect(hits).toEqual(await inSql({ query: 'Berlin population country', mode: 'vector', topK: 10, metadataFilter: filter }));
  });

  it('leaves a search whose vectors outgrow its budget to SQL, with the same answer, and keeps within the budget', async () => {
    const cache = vectorCacheOf(db());
    const budget = cache.budget;
    const want = await search({ query: 'reset password', mode: 'vector', topK: 4 });
    try {
      cache.clear();
      cache.budget = 1000; // bytes: not one unit of 256-dimension vectors fits
      expect(await search({ query: 'reset password', mode: 'vector', topK: 4 })).toEqual(want);
      expect(cache.size.bytes).toBeLessThanOrEqual(1000);
      const loads = cache.loads;
      // Measured once: the next search does not load the same units again.
      expect(await search({ query: 'reset password', mode: 'vector', topK: 4 })).toEqual(want);
      expect(cache.loads).toBe(loads);
    } finally {
      cache.budget = budget;
    }
  });
});

describe('retrieve: with the HNSW vector index', () => {
  it('answers the same nearest segments through the partial index on embedding_v::vector(256) as without it', async () => {
    const q = { query: 'how do I reset my password', mode: 'vector' as const, topK: 3 };
    const rows = rowsOf;
    const hasVector = await hasVectorColumn();
    if (!hasVector) {
      // A server without pgvector: no column to index, and vector search answers from real[] by cosine in the process.
      await expect(db().execute(sql.raw(HNSW_INDEX))).rejects.toThrow();
      const found = await inSqlSearch(q);
      expect(found.length).toBeGreaterThan(0);
      expect(found[0]!.content).toContain('password');
      return;
    }
    await withHnsw(async () => {
      // A base this small is cheaper to scan: make the planner take the index, as it does on big bases.
      await db().execute(sql`set enable_seqscan = off`);
      let viaIndex: string[];
      try {
        const plan = await db().execute(sql`explain select id from dataset_segments s where vector_dims(s.embedding_v) = 256 order by s.embedding_v::vector(256) <=> ${`[${Array(256).fill(0.1).join(',')}]`}::vector(256) limit 40`);
        expect(JSON.stringify((plan as unknown as { rows: unknown[] }).rows)).toContain('dataset_segments_hnsw_256');
        viaIndex = (await search(q)).map((x) => x.content);
        // The index is searched once per query, whatever the number of searchable units (as a plain
        // subquery, the planner searched it again for every unit of the base).
        const units = (await rows(sql`select count(*)::int as n from dataset_documents where dataset_id = ${ds}::uuid and enabled and status = 'completed'`)) as { n: number }[];
        expect(units[0]!.n).toBeGreaterThan(1);
        const [qv] = await builtinEmbedder.embed([q.query]);
        // (Sorting off too: a base this small is otherwise read through its own rows and sorted exactly.)
        await db().execute(sql`set enable_sort = off`);
        const analyzed = await rows(sql`explain (analyze, format json) ${annNearestQuery(DEFAULT_TENANT_ID, [ds], qv!, 3, null)}`).finally(() => db().execute(sql`reset enable_sort`));
        const scans: { 'Index Name'?: string; 'Actual Loops': number }[] = [];
        const walk = (node: { Plans?: unknown[] } & Record<string, unknown>) => {
          if (node['Index Name'] === 'dataset_segments_hnsw_256') scans.push(node as never);
          for (const child of node.Plans ?? []) walk(child as never);
        };
        const json = (analyzed[0] as Record<string, unknown>)['QUERY PLAN'];
        walk((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan);
        expect(scans.map((x) => x['Actual Loops'])).toEqual([1]);
      } finally {
        await db().execute(sql`reset enable_seqscan`);
      }
      expect(viaIndex.length).toBeGreaterThan(0);
      // The search widened hnsw.ef_search for its own transaction only (SET LOCAL): the session keeps pgvector's default.
      expect(await rows(sql`show hnsw.ef_search`)).toEqual([{ 'hnsw.ef_search': '40' }]);
      // Dropped (an operator's choice), the exact search answers the same; created again, the index serves again.
      await db().execute(sql`drop index dataset_segments_hnsw_256`);
      forgetAnnIndex(h.studio.ctx);
      try {
        expect((await search(q)).map((x) => x.content)).toEqual(viaIndex);
      } finally {
        await db().execute(sql.raw(HNSW_INDEX));
        forgetAnnIndex(h.studio.ctx);
      }
    });
  });
});

describe('retrieve: another base nearer', () => {
  it('answers the searched base\'s own nearest segments when another base of the tenant holds nearer ones, in the process and through the index as it scans on', async () => {
    const query = 'how do I reset my password';
    const other = await createBase(h, f.u.member.token, f.wsA, 'Nearer');
    await unit(other, 'nearer.txt', Array.from({ length: 60 }, (_, i) => ({ content: `How do I reset my password? Step ${i + 1}.` })));
    const check = async () => {
      const hits = await search({ query, mode: 'vector', topK: 3 });
      expect(hits[0]).toMatchObject({ content: EN_RESET, datasetId: ds });
      expect(hits.every((x) => x.datasetId === ds)).toBe(true);
    };
    await check();
    if (!(await hasVectorColumn())) return; // a server without pgvector has no index to scan (retrieval scores in the process)
    await withHnsw(async () => {
      await check();
      // Through the index with a narrow search (ef_search 10): the other base's 60 segments are all
      // nearer, so a plain index scan hands over only theirs; the iterative scan goes on to this base's.
      const [qv] = await builtinEmbedder.embed([query]);
      const through = (iterative: boolean) =>
        db().transaction(async (tx) => {
          for (const set of ['hnsw.ef_search = 10', `hnsw.iterative_scan = ${iterative ? 'relaxed_order' : 'off'}`, 'enable_seqscan = off', 'enable_sort = off']) await tx.execute(sql.raw(`set local ${set}`));
          return ((await tx.execute(annNearestQuery(DEFAULT_TENANT_ID, [ds], qv!, 3, null))) as unknown as { rows: { id: string }[] }).rows;
        });
      expect(await through(false)).toHaveLength(0);
      const found = await through(true);
      expect(found).toHaveLength(3);
      const [top] = await db().select().from(datasetSegments).where(eq(datasetSegments.id, found[0]!.id));
      expect(top).toMatchObject({ datasetId: ds, content: EN_RESET });
    });
  });
});

describe('retrieve: Q&A pairs and parent-child', () => {
  it('matches Q&A pairs and answers the answer with its question', async () => {
    for (const mode of ['vector', 'full_text', 'hybrid'] as const) {
      const hits = await search({ query: 'warranty how long', mode });
      expect(hits[0], mode).toMatchObject({ kind: 'qa', content: 'Q: How long is the warranty?\nA: Two years from the date of purchase.', documentId: docA, position: 0 });
    }
  });

  it('matches children and answers their parent once', async () => {
    const one = await search({ query: 'returns accepted thirty days', mode: 'full_text' });
    expect(one[0]).toMatchObject({ content: PARENT, documentId: docPc, position: 1 });
    const both = await search({ query: 'orders ship payment returns accepted delivery', mode: 'hybrid' });
    expect(both.filter((x) => x.content === PARENT)).toHaveLength(1);
    expect(both.find((x) => x.content === PARENT)!.matchedIds.length).toBe(2);
    expect(both.some((x) => x.content.startsWith('Orders ship within'))).toBe(false);
  });
});

describe('retrieve: metadata filters', () => {
  const cities = async (filter: MetadataFilter) =>
    (await search({ query: 'city population country', mode: 'full_text', metadataFilter: filter }))
      .map((x) => x.metadata.city)
      .filter(Boolean)
      .sort();
  const one = (name: string, operator: string, value = '') => ({ logicalOperator: 'and' as const, conditions: [{ name, operator, value }] });

  it('without a filter every row is found', async () => {
    expect(await cities({ logicalOperator: 'and', conditions: [] })).toEqual(['Berlin', 'Lyon', 'Paris']);
  });

  it.each([
    ['city', 'is', 'Paris', ['Paris']],
    ['city', 'is not', 'Paris', ['Berlin', 'Lyon']],
    ['note', 'contains', 'CITY', ['Lyon']],
    ['note', 'not contains', 'city', ['Berlin', 'Paris']],
    ['city', 'start with', 'ly', ['Lyon']],
    ['city', 'starts with', 'Be', ['Berlin']],
    ['city', 'end with', 'is', ['Paris']],
    ['city', 'ends with', 'on', ['Lyon']],
    ['note', 'empty', '', ['Paris']],
    ['note', 'not empty', '', ['Berlin', 'Lyon']],
    ['population', '>', '1000000', ['Berlin', 'Paris']],
    ['population', '<', '2100000', ['Lyon']],
    ['population', '≥', '2100000', ['Berlin', 'Paris']],
    ['population', '>=', '2100000', ['Berlin', 'Paris']],
    ['population', '≤', '2100000', ['Lyon', 'Paris']],
    ['population', '<=', '520000', ['Lyon']],
    ['population', '=', '520000', ['Lyon']],
    ['population', '≠', '520000', ['Berlin', 'Paris']],
    ['updated', 'before', '2024-01-01', ['Lyon']],
    ['updated', 'after', '2024-01-01', ['Berlin', 'Paris']],
    ['missing_field', 'is', 'x', []],
    ['document_name', 'is', 'cities.csv', ['Berlin', 'Lyon', 'Paris']],
  ])('%s %s %s', async (name, operator, value, expected) => {
    expect(await cities(one(name, operator, value))).toEqual(expected);
  });

  it('combines conditions with and / or', async () => {
    const conds = [
      { name: 'country', operator: 'is', value: 'France' },
      { name: 'population', operator: '>', value: '1000000' },
    ];
    expect(await cities({ logicalOperator: 'and', conditions: conds })).toEqual(['Paris']);
    expect(await cities({ logicalOperator: 'or', conditions: conds })).toEqual(['Berlin', 'Lyon', 'Paris']);
  });

  it('applies to Q&A pairs through their unit name, and refuses bad conditions', async () => {
    const qa = await search({ query: 'warranty', metadataFilter: one('document_name', 'is', 'cities.csv') });
    expect(qa.some((x) => x.kind === 'qa')).toBe(false);
    await expect(search({ query: 'x', metadataFilter: one('population', '>', 'many') })).rejects.toMatchObject({ code: 'VALIDATION-1000', message: expect.stringContaining('not a number') });
    await expect(search({ query: 'x', metadataFilter: one('city', 'like', 'P%') })).rejects.toMatchObject({ code: 'VALIDATION-1000', message: expect.stringContaining("unknown operator 'like'") });
    await expect(search({ query: 'x', metadataFilter: one('', 'is', 'P') })).rejects.toMatchObject({ code: 'VALIDATION-1000' });
  });
});

// ---------------------------------------------------------------- rerank over the real wire protocol

interface RerankFake {
  baseUrl: string;
  requests: { path: string; auth: string | undefined; body: any }[];
  fail: boolean;
  close(): Promise<void>;
}

/** A Jina/Cohere-style rerank server: scores rise with the document's index (it reverses the order). */
async function fakeRerank(): Promise<RerankFake> {
  const state: RerankFake = { baseUrl: '', requests: [], fail: false, close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    state.requests.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) return res.writeHead(401).end(JSON.stringify({ error: { message: 'bad key' } }));
    if (state.fail) return res.writeHead(503).end(JSON.stringify({ error: { message: 'reranker overloaded' } }));
    if (req.url !== '/v1/rerank') return res.writeHead(404).end(JSON.stringify({ error: { message: 'no route' } }));
    const n = body.documents.length;
    const results = body.documents.map((_: string, index: number) => ({ index, relevance_score: (index + 1) / (n + 1) }));
    results.sort((a: { relevance_score: number }, b: { relevance_score: number }) => b.relevance_score - a.relevance_score);
    res.end(JSON.stringify({ model: body.model, results: results.slice(0, body.top_n), usage: { total_tokens: 10 } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  return state;
}

describe('rerank', () => {
  let rr: RerankFake;
  beforeAll(async () => {
    rr = await fakeRerank();
  });
  afterAll(async () => {
    await rr?.close();
  });

  it('rerank without a rerank model is a clear VALIDATION-1000', async () => {
    const r = await h.call('POST', `${HIT(ds)}/hit-test`, { ...member(), body: { query: 'reset password', mode: 'hybrid', top_k: 3, rerank: true, graph: false } });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toMatch(/no rerank model/);
  });

  it("reranks with the tenant's default rerank model over POST {base}/rerank", async () => {
    await configureProvider(h, 'openai_api_compatible', rr.baseUrl);
    const admin = { token: h.adminToken };
    expectOk(await h.call('POST', '/api/v1/admin/models/model-providers/openai_api_compatible/models/model-custom', { ...admin, body: { model: 'fake-rerank', model_type: 'rerank', features: [] } }));
    expectOk(await h.call('PUT', '/api/v1/admin/models/tenant-default', { ...admin, body: { model_type: 'rerank', provider: 'openai_api_compatible', model: 'fake-rerank' } }));

    const plain = await search({ query: 'reset password account settings', mode: 'hybrid', topK: 20 });
    const r = expectOk(await h.call('POST', `${HIT(ds)}/hit-test`, { ...member(), body: { query: 'reset password account settings', mode: 'hybrid', top_k: 3, rerank: true, graph: false } }));
    const sent = rr.requests.at(-1)!;
    expect(sent).toMatchObject({ path: '/v1/rerank', auth: `Bearer ${GOOD_KEY}` });
    expect(sent.body).toMatchObject({ model: 'fake-rerank', query: 'reset password account settings', top_n: plain.length });
    expect(sent.body.documents).toEqual(plain.map((x) => x.content));
    // The fake scores the last candidate best: the reranked order is the candidates reversed.
    const n = plain.length;
    expect(r.results.map((x: { content: string }) => x.content)).toEqual(plain.map((x) => x.content).reverse().slice(0, 3));
    expect(r.results[0].score).toBeCloseTo(n / (n + 1), 3);
  });

  it('the threshold applies to the rerank scores; provider failures are reported, not 500', async () => {
    const r = expectOk(await h.call('POST', `${HIT(ds)}/hit-test`, { ...member(), body: { query: 'reset password', mode: 'hybrid', top_k: 20, score_threshold: 0.5, rerank: true, graph: false } }));
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((x: { score: number }) => x.score >= 0.5)).toBe(true);
    rr.fail = true;
    try {
      const bad = await h.call('POST', `${HIT(ds)}/hit-test`, { ...member(), body: { query: 'reset password', mode: 'hybrid', top_k: 3, rerank: true, graph: false } });
      expectCode(bad, 400, 'VALIDATION-1000');
      expect(bad.body.msg).toContain('reranker overloaded');
    } finally {
      rr.fail = false;
    }
  });

  it('the knowledge service uses the rerank model a node names', async () => {
    const svc = createKnowledgeService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA });
    const before = rr.requests.length;
    const chunks = await svc.retrieve({ datasetIds: [ds], text: 'reset password', topK: 2, rerank: { provider: 'openai_api_compatible', model: 'fake-rerank' } }, { signal: new AbortController().signal });
    expect(rr.requests.length).toBe(before + 1);
    expect(chunks).toHaveLength(2);
    await expect(
      svc.retrieve({ datasetIds: [ds], text: 'reset password', rerank: { provider: 'openai_api_compatible', model: 'not-there' } }, { signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'MODEL-model_not_found' });
  });
});

// ---------------------------------------------------------------- hit-test routes

describe('hit test routes', () => {
  it('answers the contract shape, records the history and counts the hits', async () => {
    const [seg] = await db().select().from(datasetSegments).where(eq(datasetSegments.content, EN_RESET));
    const hitsOf = async (id: string) => (await db().select().from(datasetSegmentHits).where(eq(datasetSegmentHits.segmentId, id)))[0]?.hitCount ?? 0;
    const segHits = await hitsOf(seg!.id);
    const [docBefore] = await db().select().from(datasetDocuments).where(eq(datasetDocuments.id, docA));
    const r = expectOk(await h.call('POST', `${HIT(ds)}/hit-test`, { ...member(), body: { query: 'reset my password', mode: 'vector', top_k: 2, rerank: false, graph: false } }));
    expect(r.query).toBe('reset my password');
    expect(r.results).toHaveLength(2);
    expect(r.results[0]).toEqual({ segment_id: seg!.id, document_id: docA, document_name: 'guide.txt', position: seg!.position, content: EN_RESET, score: expect.any(Number), source: 'vector' });
    expect(await hitsOf(seg!.id)).toBe(segHits + 1);
    // The unit's segment list shows the count.
    const listed = expectOk(await h.call('GET', `${HIT(ds)}/documents/${docA}/segments`, { ...member(), query: { page: 1, page_size: 50 } }));
    expect(listed.items.find((x: { id: string }) => x.id === seg!.id)).toMatchObject({ hit_count: segHits + 1 });
    const [docAfter] = await db().select().from(datasetDocuments).where(eq(datasetDocuments.id, docA));
    expect(docAfter!.hitCount).toBeGreaterThan(docBefore!.hitCount);
    const unitApi = expectOk(await h.call('GET', `${HIT(ds)}/documents/${docA}`, member()));
    expect(unitApi.hit_count).toBe(docAfter!.hitCount);

    // Q&A hits count on the pair.
    expectOk(await h.call('POST', `${HIT(ds)}/hit-test`, { ...member(), body: { query: 'warranty', mode: 'full_text', top_k: 1, rerank: false, graph: false } }));
    const [qa] = await db().select().from(datasetQaPairs).where(eq(datasetQaPairs.datasetId, ds));
    expect(qa!.hitCount).toBeGreaterThanOrEqual(1);

    const list = expectOk(await h.call('GET', `${HIT(ds)}/search-hit-results`, { ...member(), query: { page: 1, page_size: 50 } }));
    expect(list.total).toBeGreaterThanOrEqual(2);
    const rec = list.items.find((x: { query: string }) => x.query === 'reset my password');
    expect(rec).toMatchObject({ mode: 'vector', top_k: 2, score_threshold: 0, rerank: false, graph: false, result_count: 2 });
    expect(list.items[0].created_at >= list.items[1].created_at).toBe(true);
    const one = expectOk(await h.call('GET', `${HIT(ds)}/search-hit-results/${rec.id}`, member()));
    expect(one).toMatchObject({ ...rec, results: r.results });

    // Not a member of workspace B: nothing to see there; the record stays.
    expectCode(await h.call('GET', `${HIT(ds)}/search-hit-results/${rec.id}`, { token: f.u.member.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${HIT(ds)}/search-hit-results/${rec.id}`, { token: f.u.owner.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
    expectOk(await h.call('GET', `${HIT(ds)}/search-hit-results/${rec.id}`, member()));
    expectOk(await h.call('DELETE', `${HIT(ds)}/search-hit-results/${rec.id}`, member()));
    expectCode(await h.call('GET', `${HIT(ds)}/search-hit-results/${rec.id}`, member()), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${HIT(ds)}/search-hit-results/${rec.id}`, member()), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${HIT(ds)}/search-hit-results/not-a-uuid`, member()), 400, 'VALIDATION-1000');
  });

  it('refuses bad bodies, other spaces and strangers, changing nothing', async () => {
    const before = expectOk(await h.call('GET', `${HIT(ds)}/search-hit-results`, member())).total;
    const body = { query: 'reset', mode: 'vector', top_k: 3, rerank: false, graph: false };
    for (const bad of [{ ...body, query: '  ' }, { ...body, top_k: 0 }, { ...body, top_k: 21 }, { ...body, mode: 'fuzzy' }, { ...body, score_threshold: 2 }, { query: 'x' }]) {
      expectCode(await h.call('POST', `${HIT(ds)}/hit-test`, { ...member(), body: bad }), 400, 'VALIDATION-1000');
    }
    // The base is not in workspace B (owner is a member there) nor visible to another tenant.
    expectCode(await h.call('POST', `${HIT(ds)}/hit-test`, { token: f.u.owner.token, workspaceId: f.wsB, body }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${HIT(ds)}/hit-test`, { token: f.u.outsider.token, workspaceId: f.wsA, body }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${HIT(MISSING)}/hit-test`, { ...member(), body }), 400, 'VALIDATION-1000');
    const foreign = await h.call('POST', `${HIT(ds)}/hit-test`, { token: f.u.foreign.token, workspaceId: f.wsA, body });
    expect([400, 403]).toContain(foreign.status);
    expect(expectOk(await h.call('GET', `${HIT(ds)}/search-hit-results`, member())).total).toBe(before);
  });
});

// ---------------------------------------------------------------- the knowledge-retrieval node

describe('knowledge-retrieval node in a workflow run', () => {
  const doc = (datasetIds: string[], extra: Record<string, unknown> = {}) =>
    flow(
      [
        ['s', 'start', { variables: [textInput('q')] }],
        ['k', 'knowledge-retrieval', { query: ['s', 'q'], datasetIds, retrievalMode: 'hybrid', vectorWeight: 0.7, topK: 2, ...extra }],
        ['e', 'end', { outputs: [{ name: 'result', selector: ['k', 'result'] }] }],
      ],
      [
        ['s', 'k'],
        ['k', 'e'],
      ],
    );

  it('retrieves from the bases of the run’s workspace', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Knowledge flow', doc([ds]));
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { q: 'how to reset my password' } } });
    expect(r.status, r.raw.body).toBe(200);
    const events = parseSse(r.raw.body);
    const last = events.at(-1)! as unknown as { type: string; outputs: { result: any[] } };
    expect(last.type, r.raw.body).toBe('run_finished');
    expect(last.outputs.result).toHaveLength(2);
    expect(last.outputs.result[0]).toMatchObject({ content: EN_RESET, title: 'guide.txt', dataset_id: ds, document_id: docA, segment_id: expect.any(String), score: expect.any(Number) });
    expect(last.outputs.result[0].metadata).toMatchObject({ document_name: 'guide.txt', dataset_name: 'Retrieval' });
  });

  it('applies the node’s metadata filter', async () => {
    const app = await createApp(
      h,
      f.u.member.token,
      f.wsA,
      'Filtered knowledge flow',
      doc([ds], { retrievalMode: 'full-text', topK: 5, metadataFilterMode: 'manual', metadataLogicalOperator: 'and', metadataConditions: [{ name: 'country', operator: 'is', value: 'Germany' }] }),
    );
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { q: 'city population' } } });
    const last = parseSse(r.raw.body).at(-1)! as unknown as { type: string; outputs: { result: any[] } };
    expect(last.type, r.raw.body).toBe('run_finished');
    expect(last.outputs.result.map((x) => x.metadata.city)).toEqual(['Berlin']);
  });

  it('a base of another project space fails the node with KNOWLEDGE-NOT-FOUND', async () => {
    const other = await createBase(h, f.u.owner.token, f.wsB, 'Elsewhere');
    const app = await createApp(h, f.u.member.token, f.wsA, 'Foreign knowledge flow', doc([other]));
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { q: 'password' } } });
    const runId = (parseSse(r.raw.body)[0] as { runId: string }).runId;
    const detail = expectOk(await h.call('GET', `${RUNS(app)}/runs/${runId}`, member()));
    expect(detail.run).toMatchObject({ status: 'failed', error: { code: 'KNOWLEDGE-NOT-FOUND' } });
  });
});
