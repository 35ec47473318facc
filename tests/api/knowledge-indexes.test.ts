import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetDocuments, datasetGraphEntities, datasetGraphRelations, datasetSegmentIndexes, datasetSegments, datasetTasks } from '../../src/server/db/schema';
import { builtinEmbedder } from '../../src/server/knowledge/embedder';
import { writeSegments } from '../../src/server/knowledge/ingest';
import { runQueuedTasksNow } from '../../src/server/knowledge/queue';
import type { SegmentDraft } from '../../src/server/knowledge/types';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { createBase, RULE, startPageServer } from './knowledge-kit';
import { configureProvider } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Issue 33's knowledge calls on the real server and database: segment delete, segment indexes (get,
// update, batch create, regenerate, generate, status) and their retrieval, tasks created as calls,
// handle-graph-index-data and a URL unit's refresh now. Each with bad input, another workspace, an
// outsider and another tenant. Generation goes through the production provider client to a local
// OpenAI-compatible fake (it answers "Hello, world" to everything).

const h = useStudio();
let f: Fixture;
let ds: string;
let llm: FakeServer;
const db = () => h.studio.ctx.db;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const DS = (id: string) => `/api/v1/console/datasets/${id}`;
const strangers = () => [
  { token: f.u.outsider.token, workspaceId: f.wsA },
  { token: f.u.owner.token, workspaceId: f.wsB },
  { token: f.u.foreign.token, workspaceId: f.wsA },
];
/** Refused to an outsider, another workspace and another tenant (400, or 403 for the foreign tenant). */
async function refusedToStrangers(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  for (const who of strangers()) {
    const r = await h.call(method, url, { ...who, ...(body === undefined ? {} : { body }) });
    expect([400, 403], `${method} ${url}: ${JSON.stringify(r.body)}`).toContain(r.status);
  }
}

async function unit(name: string, drafts: SegmentDraft[], extra: Partial<typeof datasetDocuments.$inferInsert> = {}) {
  const id = randomUUID();
  await db().insert(datasetDocuments).values({ id, tenantId: DEFAULT_TENANT_ID, datasetId: ds, name, fileType: 'txt', status: 'completed', progress: 1, processRule: {}, createdBy: f.u.member.id, ...extra });
  if (drafts.length) await writeSegments(h.studio.ctx, { id, datasetId: ds, tenantId: DEFAULT_TENANT_ID, name }, drafts, builtinEmbedder);
  return id;
}
const segs = async (doc: string) =>
  (expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}/segments`, { ...member(), query: { page_size: 100 } })).items as { id: string; content: string }[]);
const hitTest = async (query: string, mode = 'hybrid') =>
  expectOk(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body: { query, mode, top_k: 5, rerank: false, graph: false } })).results as { segment_id: string; content: string; source: string }[];

const S_RESET = 'Press the red button for ten seconds until the lamp blinks twice.';
const S_CLEAN = 'Wipe the lens with a dry cloth once a week.';

beforeAll(async () => {
  llm = await fakeOpenAi();
  f = await setUpWorkspaces(h, 'kix');
  ds = await createBase(h, f.u.member.token, f.wsA, 'Indexes');
});
afterAll(async () => {
  await llm?.close();
});

describe('segment delete', () => {
  it('removes the segment with its children, vectors, index entries and graph links; others stay', async () => {
    const doc = await unit('delete.txt', [{ content: 'Parent one about tea.', children: ['Green tea grows.', 'Black tea is oxidised.'] }, { content: 'Parent two about coffee.', children: ['Coffee is roasted.'] }]);
    await db().update(datasetDocuments).set({ segmentMode: 'parent_child' }).where(eq(datasetDocuments.id, doc));
    const [one, two] = await segs(doc);
    expectOk(await h.call('PUT', `${DS(ds)}/documents/${doc}/segments/${one!.id}/indexes`, { ...member(), body: { indexes: [{ type: 'question', content: 'Which teas are there?' }] } }));
    const [e1, e2] = ['tea', 'green tea'].map(() => randomUUID());
    await db().insert(datasetGraphEntities).values([
      { id: e1!, datasetId: ds, name: 'Tea', nameNorm: 'tea' },
      { id: e2!, datasetId: ds, name: 'Green tea', nameNorm: 'green tea' },
    ]);
    await db().insert(datasetGraphRelations).values({ id: randomUUID(), datasetId: ds, documentId: doc, segmentId: one!.id, sourceId: e2!, targetId: e1!, relation: 'is a' });
    expect((await hitTest('green tea grows', 'full_text')).some((r) => r.segment_id === one!.id)).toBe(true);

    // Bad input and strangers change nothing.
    expectCode(await h.call('DELETE', `${DS(ds)}/documents/${doc}/segments/${MISSING}`, member()), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${DS(ds)}/documents/${doc}/segments/not-a-uuid`, member()), 400, 'VALIDATION-1000');
    const [child] = await db().select().from(datasetSegments).where(eq(datasetSegments.parentId, one!.id));
    expectCode(await h.call('DELETE', `${DS(ds)}/documents/${doc}/segments/${child!.id}`, member()), 400, 'VALIDATION-1000');
    await refusedToStrangers('DELETE', `${DS(ds)}/documents/${doc}/segments/${one!.id}`);
    await db().update(datasetDocuments).set({ status: 'indexing' }).where(eq(datasetDocuments.id, doc));
    expectCode(await h.call('DELETE', `${DS(ds)}/documents/${doc}/segments/${one!.id}`, member()), 409, 'KNOWLEDGE-1000');
    await db().update(datasetDocuments).set({ status: 'completed' }).where(eq(datasetDocuments.id, doc));
    expect(await db().select().from(datasetSegments).where(eq(datasetSegments.documentId, doc))).toHaveLength(5);

    expectOk(await h.call('DELETE', `${DS(ds)}/documents/${doc}/segments/${one!.id}`, member()));
    const left = await db().select().from(datasetSegments).where(eq(datasetSegments.documentId, doc));
    expect(left.map((s) => s.content).sort()).toEqual(['Coffee is roasted.', 'Parent two about coffee.']);
    expect(await db().select().from(datasetSegmentIndexes).where(eq(datasetSegmentIndexes.documentId, doc))).toHaveLength(0);
    expect(await db().select().from(datasetGraphRelations).where(eq(datasetGraphRelations.documentId, doc))).toHaveLength(0);
    expect(await db().select().from(datasetGraphEntities).where(eq(datasetGraphEntities.datasetId, ds))).toHaveLength(0);
    expect((await segs(doc)).map((s) => s.id)).toEqual([two!.id]);
    expect((await hitTest('green tea grows', 'full_text')).some((r) => r.segment_id === one!.id)).toBe(false);
    await db().delete(datasetDocuments).where(eq(datasetDocuments.id, doc));
  });
});

describe('segment indexes', () => {
  let doc: string;
  let reset: string;
  let clean: string;
  const url = (seg: string) => `${DS(ds)}/documents/${doc}/segments/${seg}/indexes`;
  beforeAll(async () => {
    doc = await unit('manual.txt', [{ content: S_RESET }, { content: S_CLEAN }]);
    [reset, clean] = (await segs(doc)).map((s) => s.id) as [string, string];
  });

  it('are set by hand, read back, matched by retrieval and answer their segment once', async () => {
    expect(expectOk(await h.call('GET', url(reset), member()))).toEqual([]);
    expect((await hitTest('reboot flux capacitor', 'full_text')).map((r) => r.segment_id)).not.toContain(reset);
    const set = expectOk(await h.call('PUT', url(reset), { ...member(), body: { indexes: [{ type: 'question', content: 'How do I reboot the flux capacitor?' }, { type: 'keyword', content: 'reboot, flux capacitor' }] } }));
    expect(set.map((e: { type: string; source: string }) => [e.type, e.source])).toEqual([
      ['question', 'manual'],
      ['keyword', 'manual'],
    ]);
    expect(expectOk(await h.call('GET', url(reset), member()))).toEqual(set);
    for (const mode of ['full_text', 'vector', 'hybrid']) {
      const results = await hitTest('How do I reboot the flux capacitor?', mode);
      // The entry answers its segment: the segment's own content, and the segment once.
      expect(results[0], mode).toMatchObject({ segment_id: reset, content: S_RESET });
      expect(results.filter((r) => r.segment_id === reset), mode).toHaveLength(1);
    }
    // Matched by its own words and by the entry's: still one result.
    const both = await hitTest('red button lamp blinks reboot flux capacitor', 'full_text');
    expect(both.filter((r) => r.segment_id === reset)).toHaveLength(1);
    // Update: kept by id, changed content embedded again, left-out entries removed.
    const changed = expectOk(await h.call('PUT', url(reset), { ...member(), body: { indexes: [{ id: set[0].id, type: 'question', content: 'How do I restart the time machine?' }] } }));
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ id: set[0].id, content: 'How do I restart the time machine?', source: 'manual' });
    expect((await hitTest('restart the time machine', 'full_text'))[0]).toMatchObject({ segment_id: reset });
    expect((await hitTest('flux capacitor', 'full_text')).map((r) => r.segment_id)).not.toContain(reset);
  });

  it('refuse bad input and strangers, changing nothing', async () => {
    const before = expectOk(await h.call('GET', url(reset), member()));
    const [other] = expectOk(await h.call('PUT', url(clean), { ...member(), body: { indexes: [{ type: 'summary', content: 'Lens care.' }] } }));
    for (const body of [
      { indexes: [{ type: 'opinion', content: 'x' }] },
      { indexes: [{ type: 'question', content: '' }] },
      { indexes: [{ type: 'question', content: 'x'.repeat(1001) }] },
      { indexes: Array.from({ length: 51 }, () => ({ type: 'keyword', content: 'k' })) },
      { indexes: [{ id: other.id, type: 'question', content: 'Stolen from the other segment' }] },
      { indexes: [{ id: before[0].id, type: 'question', content: 'a' }, { id: before[0].id, type: 'question', content: 'b' }] },
      {},
    ]) {
      expectCode(await h.call('PUT', url(reset), { ...member(), body }), 400, 'VALIDATION-1000');
    }
    expectCode(await h.call('GET', url(MISSING), member()), 400, 'VALIDATION-1000');
    await refusedToStrangers('GET', url(reset));
    await refusedToStrangers('PUT', url(reset), { indexes: [] });
    await refusedToStrangers('POST', `${DS(ds)}/documents/${doc}/segment-indexes/batch`, { items: [{ segment_id: reset, type: 'keyword', content: 'x' }] });
    await refusedToStrangers('GET', `${DS(ds)}/documents/${doc}/segment-indexes/status`);
    expect(expectOk(await h.call('GET', url(reset), member()))).toEqual(before);
    expect(expectOk(await h.call('GET', url(clean), member()))).toEqual([other]);
  });

  it('batch create adds entries to many segments, all checked first', async () => {
    const batch = `${DS(ds)}/documents/${doc}/segment-indexes/batch`;
    const count = async () => (await db().select().from(datasetSegmentIndexes).where(eq(datasetSegmentIndexes.documentId, doc))).length;
    const n = await count();
    expectCode(await h.call('POST', batch, { ...member(), body: { items: [{ segment_id: reset, type: 'keyword', content: 'ok' }, { segment_id: MISSING, type: 'keyword', content: 'no' }] } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', batch, { ...member(), body: { items: [] } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', batch, { ...member(), body: { items: Array.from({ length: 51 }, () => ({ segment_id: clean, type: 'keyword', content: 'k' })) } }), 400, 'VALIDATION-1000');
    expect(await count()).toBe(n);
    const r = expectOk(await h.call('POST', batch, { ...member(), body: { items: [{ segment_id: reset, type: 'keyword', content: 'blinking lamp' }, { segment_id: clean, type: 'question', content: 'How often is the lens cleaned?' }, { segment_id: clean, type: 'keyword', content: 'microfibre' }] } }));
    expect(r.created).toBe(3);
    expect(await count()).toBe(n + 3);
    expect((await hitTest('microfibre', 'full_text'))[0]).toMatchObject({ segment_id: clean, content: S_CLEAN });
    const status = expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}/segment-indexes/status`, member()));
    expect(status).toMatchObject({ task_id: null, status: 'none', segment_count: 2, indexed_segment_count: 2, index_count: n + 3 });
  });

  it('are generated by the default chat model: one segment now, or the whole unit on the queue', async () => {
    const regen = `${url(reset)}/regenerate`;
    expectCode(await h.call('POST', regen, { ...member(), body: { types: ['summary'] } }), 400, 'KNOWLEDGE-1002');
    await configureProvider(h, 'openai_api_compatible', llm.baseUrl);
    const admin = { token: h.adminToken };
    expectOk(await h.call('POST', '/api/v1/admin/models/model-providers/openai_api_compatible/models/model-custom', { ...admin, body: { model: 'fake-index', model_type: 'llm', features: [] } }));
    expectOk(await h.call('PUT', '/api/v1/admin/models/tenant-default', { ...admin, body: { model_type: 'llm', provider: 'openai_api_compatible', model: 'fake-index' } }));
    expectCode(await h.call('POST', regen, { ...member(), body: { types: ['opinion'] } }), 400, 'VALIDATION-1000');
    await refusedToStrangers('POST', regen, { types: ['summary'] });
    const manual = expectOk(await h.call('GET', url(reset), member()));
    const once = expectOk(await h.call('POST', regen, { ...member(), body: { types: ['summary'] } }));
    expect(once.filter((e: { source: string }) => e.source === 'generated')).toEqual([expect.objectContaining({ type: 'summary', content: 'Hello, world' })]);
    expect(llm.requests.at(-1)!.body.messages.at(-1).content).toBe(S_RESET);
    // Again: the generated summary is replaced, hand-written entries stay.
    const twice = expectOk(await h.call('POST', regen, { ...member(), body: { types: ['summary'] } }));
    expect(twice.filter((e: { source: string }) => e.source === 'manual')).toEqual(manual);
    expect(twice.filter((e: { source: string }) => e.source === 'generated')).toHaveLength(1);

    const gen = `${DS(ds)}/documents/${doc}/segment-indexes/generate`;
    await refusedToStrangers('POST', gen, {});
    const queued = expectOk(await h.call('POST', gen, { ...member(), body: { types: ['question', 'keyword'] } }));
    expect(queued.task_id).toBeTruthy();
    expect(['queued', 'running', 'completed']).toContain(queued.status);
    await runQueuedTasksNow(h.studio.ctx);
    const done = expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}/segment-indexes/status`, member()));
    expect(done).toMatchObject({ task_id: queued.task_id, status: 'completed', segment_count: 2, indexed_segment_count: 2 });
    const generated = await db().select().from(datasetSegmentIndexes).where(eq(datasetSegmentIndexes.segmentId, clean));
    expect(generated.filter((e) => e.source === 'generated').map((e) => e.type).sort()).toEqual(['keyword', 'question']);
    const [task] = await db().select().from(datasetTasks).where(eq(datasetTasks.id, queued.task_id));
    expect(task).toMatchObject({ type: 'index', params: { types: ['question', 'keyword'] } });
    // A unit still being processed cannot be indexed.
    const busy = await unit('busy.txt', [{ content: 'Not yet.' }], { status: 'indexing' });
    expectCode(await h.call('POST', `${DS(ds)}/documents/${busy}/segment-indexes/generate`, { ...member(), body: {} }), 409, 'KNOWLEDGE-1000');
  });
});

describe('tasks as calls, handle-graph-index-data, refresh now', () => {
  let doc: string;
  beforeAll(async () => {
    doc = await unit('tasks.txt', [{ content: S_RESET }]);
  });
  const tasksOf = async (d: string) => db().select().from(datasetTasks).where(eq(datasetTasks.documentId, d));

  it('create one task or a batch (checked whole), answering the one already on its way', async () => {
    const t = expectOk(await h.call('POST', `${DS(ds)}/tasks`, { ...member(), body: { document_id: doc, type: 'faq' } }));
    expect(t).toMatchObject({ document_id: doc, type: 'faq' });
    const again = expectOk(await h.call('POST', `${DS(ds)}/tasks`, { ...member(), body: { document_id: doc, type: 'faq' } }));
    if (again.status !== 'completed') expect(again.id).toBe(t.id);
    const n = (await tasksOf(doc)).length;
    for (const body of [
      { tasks: [{ document_id: doc, type: 'graphic' }, { document_id: MISSING, type: 'faq' }] },
      { tasks: [{ document_id: doc, type: 'cleanup' }] },
      { tasks: [{ document_id: doc, type: 'faq', index_types: ['summary'] }] },
      { tasks: [] },
    ]) {
      expectCode(await h.call('POST', `${DS(ds)}/tasks/batch`, { ...member(), body }), 400, 'VALIDATION-1000');
    }
    // The file of a unit made in this test does not exist: it cannot be processed again.
    expectCode(await h.call('POST', `${DS(ds)}/tasks`, { ...member(), body: { document_id: doc, type: 'normal' } }), 409, 'KNOWLEDGE-1000');
    await refusedToStrangers('POST', `${DS(ds)}/tasks`, { document_id: doc, type: 'graphic' });
    await refusedToStrangers('POST', `${DS(ds)}/tasks/batch`, { tasks: [{ document_id: doc, type: 'graphic' }] });
    expect(await tasksOf(doc)).toHaveLength(n);
    const batch = expectOk(await h.call('POST', `${DS(ds)}/tasks/batch`, { ...member(), body: { tasks: [{ document_id: doc, type: 'graphic' }, { document_id: doc, type: 'index', index_types: ['keyword'] }, { document_id: doc, type: 'graphic' }] } }));
    expect(batch.map((x: { type: string }) => x.type)).toEqual(['graphic', 'index', 'graphic']);
    expect(batch[2].id).toBe(batch[0].id);
    expect(expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}`, member())).graph_status).toBe('analysing');
    await runQueuedTasksNow(h.studio.ctx);
    expect((await tasksOf(doc)).length).toBe(n + 2);
    expect(expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}`, member())).graph_status).toBe('enabled');
  });

  it('handle-graph-index-data runs the graph analysis of the units again, skipping those it cannot', async () => {
    const call = (body: unknown, who = member()) => h.call('POST', `${DS(ds)}/handle-graph-index-data`, { ...who, body });
    expectCode(await call({ document_ids: [MISSING] }), 400, 'VALIDATION-1000');
    expectCode(await call({ document_ids: [] }), 400, 'VALIDATION-1000');
    await refusedToStrangers('POST', `${DS(ds)}/handle-graph-index-data`, {});
    const busy = await unit('graph-busy.txt', [{ content: 'Later.' }], { status: 'indexing' });
    const r = expectOk(await call({ document_ids: [doc, busy] }));
    expect(r.queued.map((x: { document_id: string; type: string }) => [x.document_id, x.type])).toEqual([[doc, 'graphic']]);
    expect(r.skipped).toEqual([{ document_id: busy, reason: 'not_processed' }]);
    // Without a list: the units whose graph is on; one already queued is skipped.
    const all = expectOk(await call({}));
    expect(all.queued).toEqual([]);
    expect(all.skipped).toContainEqual({ document_id: doc, reason: 'running' });
    await runQueuedTasksNow(h.studio.ctx);
    expect(expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}`, member())).graph_status).toBe('enabled');
  });

  it('refresh now fetches a URL unit again (index entries kept where the text stayed); other units and busy ones are refused', async () => {
    let version = 1;
    const STABLE = 'The front lamp stays green when idle.';
    const pages = await startPageServer(() => `<html><body><p>${STABLE}</p><p>Version ${version} of the page is shown here.</p></body></html>`);
    try {
      h.allowOutbound(pages.url('/'));
      const [u] = expectOk(await h.call('POST', `${DS(ds)}/documents`, { ...member(), body: { url: pages.url('/page'), name: 'Refreshed page', process_rule: RULE } }));
      await runQueuedTasksNow(h.studio.ctx);
      const refresh = (id: string, who = member()) => h.call('POST', `${DS(ds)}/documents/${id}/refresh`, who);
      expectCode(await refresh(doc), 400, 'KNOWLEDGE-1001');
      expectCode(await refresh(MISSING), 400, 'VALIDATION-1000');
      await refusedToStrangers('POST', `${DS(ds)}/documents/${u.id}/refresh`);
      const before = await segs(u.id);
      expect(before.map((x) => x.content)).toEqual([STABLE, 'Version 1 of the page is shown here.']);
      const entryUrl = (seg: string) => `${DS(ds)}/documents/${u.id}/segments/${seg}/indexes`;
      expectOk(await h.call('PUT', entryUrl(before[0]!.id), { ...member(), body: { indexes: [{ type: 'question', content: 'What colour is the idle indicator?' }, { type: 'keyword', content: 'standby colour' }] } }));
      expectOk(await h.call('PUT', entryUrl(before[1]!.id), { ...member(), body: { indexes: [{ type: 'summary', content: 'The first edition of the page.' }] } }));
      version = 2;
      const queued = expectOk(await refresh(u.id));
      expect(queued.status).toBe('queued');
      expectCode(await refresh(u.id), 409, 'KNOWLEDGE-1000');
      await runQueuedTasksNow(h.studio.ctx);
      const after = await segs(u.id);
      expect(after.map((x) => x.content)).toEqual([STABLE, 'Version 2 of the page is shown here.']);
      expect(after[0]!.id).not.toBe(before[0]!.id);
      // The unchanged segment keeps its entries (on its new id, still matched); the changed one loses its own.
      const kept = expectOk(await h.call('GET', entryUrl(after[0]!.id), member()));
      expect(kept.map((e: { type: string; source: string; content: string }) => [e.type, e.source, e.content])).toEqual([
        ['question', 'manual', 'What colour is the idle indicator?'],
        ['keyword', 'manual', 'standby colour'],
      ]);
      expect(expectOk(await h.call('GET', entryUrl(after[1]!.id), member()))).toEqual([]);
      for (const mode of ['full_text', 'vector']) expect((await hitTest('What colour is the idle indicator?', mode))[0], mode).toMatchObject({ segment_id: after[0]!.id });
      expect((await db().select().from(datasetSegmentIndexes).where(eq(datasetSegmentIndexes.documentId, u.id))).map((e) => e.segmentId)).toEqual([after[0]!.id, after[0]!.id]);
      const normal = (await db().select().from(datasetTasks).where(eq(datasetTasks.documentId, u.id))).filter((t) => t.type === 'normal');
      expect(normal).toHaveLength(2);
    } finally {
      await pages.close();
    }
  });
});
