import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetDocuments, datasets, datasetSegments } from '../../src/server/db/schema';
import { randomUUID } from 'node:crypto';
import { builtinEmbedder } from '../../src/server/knowledge/embedder';
import type { Embedder } from '../../src/server/knowledge/types';
import { pgliteOf, reindexSegment, vectorColumnExists, writeSegments } from '../../src/server/knowledge/ingest';
import { vectorCacheOf } from '../../src/server/knowledge/vector-cache';
import { refreshDueUnits } from '../../src/server/knowledge/refresh';
import { rowsOf, runQueuedTasksNow } from '../../src/server/knowledge/queue';
import { makeCsv, makeDoc, makeDocx, makePdf, makeXls, makeXlsx } from '../../src/server/knowledge/test-files';
import { useStudio } from './harness';
import { addUnits, createBase, RULE, segmentsOf, startPageServer, uploadOk, useTempDataDir, waitUnit } from './knowledge-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The normal task on real files made in the test (Chinese and English), parent-child mode, table
// rows with their headers, URL units through the guarded client, and the refresh of URL units.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let ds: string;
const ZH = '知识库把文档切成分段，再向量化以便检索。';
const EN = 'Weft keeps knowledge in bases and cuts units into segments.';

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'ing');
  ds = await createBase(h, f.u.member.token, f.wsA, 'Ingest');
});

/** The unit's rows, each with its vector as stored (`embedding_v` where pgvector exists, else `embedding`). */
const stored = async (documentId: string) => {
  const rows = await h.studio.ctx.db.select().from(datasetSegments).where(eq(datasetSegments.documentId, documentId)).orderBy(datasetSegments.kind, datasetSegments.position);
  if (!(await vectorColumnExists(h.studio.ctx))) return rows.map((r) => ({ ...r, vector: r.embedding }));
  const vecs = new Map(
    rowsOf<{ id: string; v: number[] | null; e: number[] | null }>(
      await h.studio.ctx.db.execute(sql`select id, embedding_v::real[] as v, embedding as e from dataset_segments where document_id = ${documentId}::uuid`),
    ).map((r) => [r.id, r]),
  );
  // pgvector: the vector is in embedding_v alone.
  for (const r of rows) expect(vecs.get(r.id)!.e).toBeNull();
  return rows.map((r) => ({ ...r, vector: vecs.get(r.id)!.v }));
};

async function ingest(name: string, bytes: Buffer, extra: Record<string, unknown> = {}) {
  const file = await uploadOk(h, f.u.member.token, f.wsA, name, bytes);
  const [unit] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file], ...extra });
  const done = await waitUnit(h, f.u.member.token, f.wsA, ds, unit.id);
  expect(done.status, done.error).toBe('completed');
  return done;
}

describe('text files', () => {
  for (const [name, make] of [
    ['paper.pdf', () => makePdf([[EN, ZH], ['Second page about pricing.']])],
    ['memo.docx', () => makeDocx([EN, ZH, 'Second paragraph about pricing.'])],
    ['old.doc', () => makeDoc([EN, ZH, 'Second paragraph about pricing.'])],
  ] as const) {
    it(`ingests ${name}: segments with tokens, vectors and the unit name`, async () => {
      const unit = await ingest(name, make());
      expect(unit.segment_count).toBeGreaterThan(0);
      // Indexed, its vectors are loaded for vector search before the first search.
      await expect.poll(() => vectorCacheOf(h.studio.ctx.db).has(unit.id)).toBe(true);
      const rows = await stored(unit.id);
      const all = rows.map((r) => r.content).join('\n');
      expect(all).toContain(ZH);
      expect(all).toContain('Weft keeps knowledge');
      expect(all).toContain('pricing');
      for (const r of rows) {
        expect(r.kind).toBe('chunk');
        expect(r.tokens.length).toBeGreaterThan(0);
        expect(r.vector?.length).toBe(256);
        expect(r.metadata).toMatchObject({ document_name: name });
      }
      expect(rows.find((r) => r.content.includes(ZH))!.tokens).toContain('知识');
      // Every segment has its vector (in embedding_v where pgvector exists, else in embedding).
      const col = sql.raw((await vectorColumnExists(h.studio.ctx)) ? 'vector_dims(embedding_v)' : 'array_length(embedding, 1)');
      const res = await h.studio.ctx.db.execute(sql`select count(*)::int as n from dataset_segments where document_id = ${unit.id}::uuid and ${col} = 256`);
      const [{ n }] = rowsOf<{ n: number }>(res);
      expect(Number(n)).toBe(rows.length);
    });
  }

  it('records the base embedder on first ingestion', async () => {
    const [row] = await h.studio.ctx.db.select().from(datasets).where(eq(datasets.id, ds));
    expect(row).toMatchObject({ embedding: null, embeddingDim: 256 });
  });

  it('stores the full-text vector PostgreSQL would make from the tokens, through the indexer and through edits', async () => {
    const db = h.studio.ctx.db;
    const [base] = await db.select().from(datasets).where(eq(datasets.id, ds));
    const id = randomUUID();
    await db.insert(datasetDocuments).values({ id, tenantId: base!.tenantId, datasetId: ds, name: 'lexemes.txt', fileType: 'txt', status: 'completed', processRule: {}, createdBy: f.u.member.id });
    const contents = [
      EN,
      ZH,
      'Straße, Привет мир, café CAFÉ, İstanbul, ελληνικά, العربية, 2024年3月, abc123def, x² ½',
      'ひらがなとカタカナ、한국어 문장입니다。',
      // Marks and punctuation inside the CJK ranges: the katakana middle dot, the double hyphen, a lone voicing mark.
      'コーヒー・ショップ ゠ カ゛ ・',
      'emoji 🎉 and symbols ← → ∑ only between words',
      // Letters outside the BMP (surrogate pairs in JavaScript) beside one above U+E000: UTF-16 order
      // and PostgreSQL's byte order disagree on them.
      'ﹳ 𐐀 𠀀𠀁 ﹳx zeta',
      `${'a'.repeat(2100)} too long for a lexeme, then short`,
      // More than 255 positions of one word, and positions past 16,383 (PostgreSQL caps both).
      Array.from({ length: 17_000 }, (_, i) => `w${i % 40}`).join(' '),
    ];
    await writeSegments(h.studio.ctx, { id, datasetId: ds, tenantId: base!.tenantId, name: 'lexemes.txt' }, contents.map((content) => ({ content })), builtinEmbedder);
    const differing = async () =>
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from dataset_segments where document_id = ${id}::uuid and (tsv is null or tsv is distinct from to_tsvector('simple', tokens))`))[0]!.n;
    expect(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from dataset_segments where document_id = ${id}::uuid`))[0]!.n).toBe(contents.length);
    expect(await differing()).toBe(0);
    // An edit re-tokenises: the database's trigger makes the new tsv.
    const [row] = await db.select().from(datasetSegments).where(and(eq(datasetSegments.documentId, id), eq(datasetSegments.position, 1)));
    await reindexSegment(h.studio.ctx, base!, row!.id, 'Edited: the octopus moved to tank nine.');
    expect(await differing()).toBe(0);
    const found = rowsOf<{ id: string }>(await db.execute(sql`select id from dataset_segments where tsv @@ to_tsquery('simple', 'octopus & nine')`));
    expect(found.map((r) => r.id)).toEqual([row!.id]);
    await db.delete(datasetDocuments).where(eq(datasetDocuments.id, id));
  });

  it('stores a large unit in growing batches, every row in order; a batch that cannot be embedded fails the write', async () => {
    const db = h.studio.ctx.db;
    const [base] = await db.select().from(datasets).where(eq(datasets.id, ds));
    const newUnit = async (name: string) => {
      const id = randomUUID();
      await db.insert(datasetDocuments).values({ id, tenantId: base!.tenantId, datasetId: ds, name, fileType: 'txt', status: 'indexing', processRule: {}, createdBy: f.u.member.id });
      return { id, datasetId: ds, tenantId: base!.tenantId, name };
    };
    const drafts = Array.from({ length: 1300 }, (_, i) => ({ content: `Row ${i} of the large unit, ${i % 7 ? 'alpha' : 'beta'} ${i}.` }));
    const large = await newUnit('large.txt');
    const progress: number[] = [];
    expect(await writeSegments(h.studio.ctx, large, drafts, builtinEmbedder, { onProgress: (x) => void progress.push(x) })).toBe(1300);
    // The first batch is small (the database does not wait for 512 rows to be prepared), then they double.
    expect(progress.map((x) => Math.round(x * 1300))).toEqual([32, 96, 224, 480, 992, 1300]);
    const rows = rowsOf<{ position: number; content: string; dims: number }>(
      await db.execute(sql`select position, content, ${sql.raw((await vectorColumnExists(h.studio.ctx)) ? 'vector_dims(embedding_v)' : 'array_length(embedding, 1)')} as dims from dataset_segments where document_id = ${large.id}::uuid order by position`),
    );
    expect(rows.map((r) => r.position)).toEqual(drafts.map((_, i) => i + 1));
    expect(rows.map((r) => r.content)).toEqual(drafts.map((d) => d.content));
    expect(rows.every((r) => Number(r.dims) === 256)).toBe(true);

    // A model that fails on the third batch, while later ones are already being prepared.
    let calls = 0;
    const failing: Embedder = {
      id: 'test/failing',
      dim: 256,
      embed: async (texts) => {
        if (++calls === 3) throw new Error('model unavailable');
        return texts.map(() => Array.from({ length: 256 }, (_, j) => (j === 0 ? 1 : 0)));
      },
    };
    const broken = await newUnit('broken.txt');
    await expect(writeSegments(h.studio.ctx, broken, drafts, failing)).rejects.toThrow('model unavailable');
    await db.delete(datasetDocuments).where(eq(datasetDocuments.id, large.id));
    await db.delete(datasetDocuments).where(eq(datasetDocuments.id, broken.id));
  });

  it("copies through the embedded database's own device; a COPY that fails leaves nothing and the next one works", async () => {
    const pg = pgliteOf(h.studio.ctx.db);
    if (!pg) return; // a PostgreSQL server takes an INSERT (no COPY device)
    const db = h.studio.ctx.db;
    const [base] = await db.select().from(datasets).where(eq(datasets.id, ds));
    const id = randomUUID();
    await db.insert(datasetDocuments).values({ id, tenantId: base!.tenantId, datasetId: ds, name: 'device.txt', fileType: 'txt', status: 'indexing', processRule: {}, createdBy: f.u.member.id });
    const unit = { id, datasetId: ds, tenantId: base!.tenantId, name: 'device.txt' };
    // A NUL cannot be stored in a text column: the database refuses the batch mid-COPY.
    await expect(writeSegments(h.studio.ctx, unit, [{ content: 'before' }, { content: 'a\u0000b' }], builtinEmbedder)).rejects.toThrow(/0x00/);
    expect(await stored(id)).toHaveLength(0);
    // The device is made in the database's worker thread.
    expect(pg.copyDevice).toBe('/dev/weft-copy');
    expect(await writeSegments(h.studio.ctx, unit, [{ content: 'first after the failure' }, { content: '然后是中文' }], builtinEmbedder)).toBe(2);
    expect((await stored(id)).map((r) => [r.content, r.tokens])).toEqual([
      ['first after the failure', 'first after the failure'],
      ['然后是中文', '然后 后是 是中 中文 文'],
    ]);
    await db.delete(datasetDocuments).where(eq(datasetDocuments.id, id));
  });

  it('cuts parents and children in parent-child mode', async () => {
    const long = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} explains part ${i} of the manual. 第${i}句说明手册的一部分。`).join('\n');
    const unit = await ingest('parents.docx', makeDocx([long, 'Closing words.']), {
      process_rule: { ...RULE, mode: 'parent_child', max_length: 60, parent_max_length: 400 },
    });
    expect(unit.segment_mode).toBe('parent_child');
    const rows = await stored(unit.id);
    const parents = rows.filter((r) => r.kind === 'parent');
    const children = rows.filter((r) => r.kind === 'child');
    expect(parents.length).toBeGreaterThan(1);
    expect(children.length).toBeGreaterThan(parents.length);
    for (const c of children) {
      const p = parents.find((x) => x.id === c.parentId)!;
      expect(p.content).toContain(c.content.slice(0, 10));
      expect(c.vector?.length).toBe(256);
    }
    // Parents give context only: not matched.
    for (const p of parents) expect([p.tokens, p.vector]).toEqual(['', null]);
    expect(unit.segment_count).toBe(parents.length);
    expect((await segmentsOf(h, f.u.member.token, f.wsA, ds, unit.id)).length).toBe(parents.length);
  });
});

describe('tables', () => {
  const rows = [
    ['产品', 'Price', 'Note'],
    ['小部件', '12.5', 'Small widget'],
    ['Gadget', '30', '大号'],
  ];
  for (const [name, make] of [
    ['prices.xlsx', () => makeXlsx([{ name: 'Prices', rows }])],
    ['prices.xls', () => Promise.resolve(makeXls([{ name: 'Prices', rows }]))],
    ['prices.csv', () => Promise.resolve(makeCsv(rows, { bom: true }))],
  ] as const) {
    it(`ingests ${name}: one segment per row with its header`, async () => {
      const unit = await ingest(name, await make());
      const segs = await stored(unit.id);
      expect(segs.map((s) => s.content)).toEqual(['产品: 小部件; Price: 12.5; Note: Small widget', '产品: Gadget; Price: 30; Note: 大号']);
      expect(segs[0]!.metadata).toMatchObject({ document_name: name, row: { 产品: '小部件', Price: '12.5', Note: 'Small widget' } });
    });
  }

  it('uses the chosen sheet and header row', async () => {
    const book = await makeXlsx([
      { name: 'Cover', rows: [['nothing here']] },
      { name: '数据', rows: [['Report 2025'], ['城市', 'Count'], ['上海', 3], ['Berlin', 4]] },
    ]);
    const unit = await ingest('report.xlsx', book, { sheet: '数据', header_row: 2 });
    expect((await stored(unit.id)).map((s) => s.content)).toEqual(['城市: 上海; Count: 3', '城市: Berlin; Count: 4']);
  });

  it('fails a unit whose file cannot be parsed, with an error and a log line, storing nothing', async () => {
    const file = await uploadOk(h, f.u.member.token, f.wsA, 'broken.docx', Buffer.from('this is not a zip'));
    const [unit] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file] });
    const done = await waitUnit(h, f.u.member.token, f.wsA, ds, unit.id);
    expect(done.status).toBe('failed');
    expect(done.error).toBeTruthy();
    expect(done.segment_count).toBe(0);
    const logs = expectOk(await h.call('GET', `/api/v1/console/datasets/${ds}/tasks/${done.task_id}/logs`, { token: f.u.member.token, workspaceId: f.wsA }));
    expect(logs.at(-1)).toMatchObject({ level: 'error', message: done.error });
  });
});

describe('URL units', () => {
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let version = 1;
  beforeAll(async () => {
    pages = await startPageServer(() => `<html><head><title>Doc v${version}</title></head><body><h1>Version ${version}</h1><p>${ZH}</p><p>Page text version ${version}.</p><script>var x = 1;</script></body></html>`);
  });
  afterAll(async () => {
    await pages?.close();
  });

  it('refuses a loopback address the outbound allow-list does not open, without a request', async () => {
    const [unit] = await addUnits(h, f.u.member.token, f.wsA, ds, { url: pages.url('/private'), name: 'Private' });
    const done = await waitUnit(h, f.u.member.token, f.wsA, ds, unit.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/not allowed by the server's network policy/);
    expect(pages.hits()).toBe(0);
    const preview = await h.call('POST', `/api/v1/console/datasets/${ds}/segmentation-preview`, { token: f.u.member.token, workspaceId: f.wsA, body: { url: pages.url('/page'), process_rule: RULE } });
    expect(preview.status).toBe(400);
    expect(preview.body.code).toBe('NETWORK-1000');
    expect(pages.hits()).toBe(0);
    // From here on, the page server is opened as an operator opens an intranet site.
    h.allowOutbound(pages.url('/'));
  });

  it('fetches the page as clean text and refreshes it when due', async () => {
    const [unit] = await addUnits(h, f.u.member.token, f.wsA, ds, { url: pages.url('/page'), name: 'Web page', update_frequency: '1' });
    const done = await waitUnit(h, f.u.member.token, f.wsA, ds, unit.id);
    expect(done.status, done.error).toBe('completed');
    const text = (await stored(unit.id)).map((s) => s.content).join('\n');
    expect(text).toContain('Page text version 1.');
    expect(text).toContain(ZH);
    expect(text).not.toContain('var x');
    const [row] = await h.studio.ctx.db.select().from(datasetDocuments).where(eq(datasetDocuments.id, unit.id));
    expect(row!.nextRefreshAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // Not due yet: nothing happens. Due: the page is fetched again and its segments replaced.
    expect(await refreshDueUnits(h.studio.ctx)).toBe(0);
    version = 2;
    await h.studio.ctx.db.update(datasetDocuments).set({ nextRefreshAt: new Date(Date.now() - 1000) }).where(eq(datasetDocuments.id, unit.id));
    expect(await refreshDueUnits(h.studio.ctx)).toBe(1);
    expect(await refreshDueUnits(h.studio.ctx)).toBe(0);
    await runQueuedTasksNow(h.studio.ctx);
    const again = await waitUnit(h, f.u.member.token, f.wsA, ds, unit.id);
    expect(again.status).toBe('completed');
    const segs = await stored(unit.id);
    expect(segs.map((s) => s.content).join('\n')).toContain('Page text version 2.');
    expect(segs.map((s) => s.content).join('\n')).not.toContain('version 1');
    const [after] = await h.studio.ctx.db.select().from(datasetDocuments).where(and(eq(datasetDocuments.id, unit.id)));
    expect(after!.nextRefreshAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it('previews a URL through the same client', async () => {
    const p = expectOk(await h.call('POST', `/api/v1/console/datasets/${ds}/segmentation-preview`, { token: f.u.member.token, workspaceId: f.wsA, body: { url: pages.url('/page'), process_rule: RULE } }));
    expect(p.total).toBeGreaterThan(0);
    expect(p.segments.map((s: { content: string }) => s.content).join('\n')).toContain(ZH);
    const bad = await h.call('POST', `/api/v1/console/datasets/${ds}/segmentation-preview`, { token: f.u.member.token, workspaceId: f.wsA, body: { url: pages.url('/missing'), process_rule: RULE } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION-1000');
  });
});
