import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetDocuments, datasetGraphEntities, datasetGraphRelations, datasetSegments, datasetTasks } from '../../src/server/db/schema';
import { builtinEmbedder } from '../../src/server/knowledge/embedder';
import { parseExtraction } from '../../src/server/knowledge/graph';
import { writeSegments } from '../../src/server/knowledge/ingest';
import { runQueuedTasksNow } from '../../src/server/knowledge/queue';
import { refreshDueUnits } from '../../src/server/knowledge/refresh';
import { createKnowledgeService } from '../../src/server/knowledge/runtime';
import type { SegmentDraft } from '../../src/server/knowledge/types';
import { GOOD_KEY } from './fake-providers';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { createBase, RULE, startPageServer, waitFor } from './knowledge-kit';
import { configureProvider } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Graph analysis end to end: toggle-graph queues a graphic task, the worker asks the tenant's
// default chat model (a local OpenAI-compatible server streaming JSON) for each segment, entities
// and relations land in the graph tables; graph-query, graph-references, the queue position, graph
// neighbours in hit tests, turning it off, stop, failure, and who may do what.

const h = useStudio();
let f: Fixture;
let ds: string;
const db = () => h.studio.ctx.db;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const DS = (id: string) => `/api/v1/console/datasets/${id}`;

const S_ADA = 'Ada Lovelace wrote the first published notes on the Analytical Engine.';
const S_BABBAGE = 'Charles Babbage designed the Analytical Engine in London.';
const S_FUNDING = 'The Difference Engine project was funded by the British government for years.';
const S_ZH = '鲁迅创作了小说《狂人日记》，发表于新青年杂志。';

/** What the fake model extracts from each text (keyed by a phrase of the text). */
const EXTRACTIONS: [string, unknown][] = [
  ['Ada Lovelace', { entities: [{ name: 'Ada Lovelace', type: 'person', description: 'mathematician' }, { name: 'Analytical Engine', type: 'machine' }], relations: [{ source: 'Ada Lovelace', relation: 'wrote notes on', target: 'Analytical Engine' }] }],
  ['Charles Babbage', { entities: [{ name: 'Charles Babbage', type: 'person' }, { name: 'analytical engine', type: 'machine' }, { name: 'London', type: 'place' }], relations: [{ source: 'Charles Babbage', relation: 'designed', target: 'Analytical Engine' }, { source: 'Charles Babbage', relation: 'worked in', target: 'London' }] }],
  ['Difference Engine', { entities: [{ name: 'Difference Engine', type: 'machine' }], relations: [{ source: 'Charles Babbage', relation: 'built', target: 'Difference Engine' }, { source: 'British government', relation: 'funded', target: 'Difference Engine' }] }],
  ['Jacquard loom', { entities: [], relations: [{ source: 'Joseph Jacquard', relation: 'built', target: 'Jacquard loom' }] }],
  ['Lyon', { entities: [], relations: [{ source: 'Joseph Jacquard', relation: 'lived in', target: 'Lyon' }] }],
  ['鲁迅', { entities: [{ name: '鲁迅', type: '人物' }, { name: '狂人日记', type: '作品' }], relations: [{ source: '鲁迅', relation: '创作', target: '狂人日记' }] }],
];

interface ChatFake {
  baseUrl: string;
  prompts: string[];
  /** While closed, answers wait (a task stays running). */
  gate: { closed: boolean; open(): void };
  close(): Promise<void>;
}

/** An OpenAI-compatible chat server streaming the extraction JSON (in a code fence, with prose) over SSE. */
async function fakeChat(): Promise<ChatFake> {
  const waiting: (() => void)[] = [];
  const state: ChatFake = {
    baseUrl: '',
    prompts: [],
    gate: { closed: false, open: () => ((state.gate.closed = false), waiting.splice(0).forEach((w) => w())) },
    close: async () => undefined,
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
    const text: string = body.messages.at(-1).content;
    state.prompts.push(text);
    if (state.gate.closed) await new Promise<void>((r) => waiting.push(r));
    if (text.includes('FAIL')) return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model crashed"}}');
    const x = EXTRACTIONS.find(([k]) => text.includes(k))?.[1] ?? { entities: [], relations: [] };
    const answer = 'Here is the graph:\n```json\n' + JSON.stringify(x) + '\n```';
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    for (let i = 0; i < answer.length; i += 40) res.write(chunk({ content: answer.slice(i, i + 40) }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise<void>((r) => (state.gate.open(), server.closeAllConnections(), server.close(() => r())));
  return state;
}

async function unit(name: string, drafts: SegmentDraft[], extra: Partial<typeof datasetDocuments.$inferInsert> = {}) {
  const id = randomUUID();
  await db().insert(datasetDocuments).values({ id, tenantId: DEFAULT_TENANT_ID, datasetId: ds, name, fileType: 'txt', status: 'completed', progress: 1, processRule: {}, createdBy: f.u.member.id, ...extra });
  if (drafts.length) await writeSegments(h.studio.ctx, { id, datasetId: ds, tenantId: DEFAULT_TENANT_ID, name }, drafts, builtinEmbedder);
  return id;
}

const toggle = (doc: string, enabled: boolean, who = member()) => h.call('POST', `${DS(ds)}/documents/${doc}/toggle-graph`, { ...who, body: { enabled } });
const graphStatus = async (doc: string) => expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}`, member())).graph_status as string;
type Ref = { source: string; relation: string; target: string; count: number };
/** A unit's relations; entity names lower-cased (which spelling is kept depends on which segment came first). */
const references = async (doc: string) =>
  (expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}/graph-references`, member())) as Ref[]).map((r) => ({ ...r, source: r.source.toLowerCase(), target: r.target.toLowerCase() }));
const position = async (doc: string) => expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}/graph-queue-position`, member())).position as number | null;

let llm: ChatFake;
let docEngines: string;
let docZh: string;
let docEmpty: string;
let docIndexing: string;

beforeAll(async () => {
  llm = await fakeChat();
  f = await setUpWorkspaces(h, 'gra');
  ds = await createBase(h, f.u.member.token, f.wsA, 'Graph');
  docEngines = await unit('engines.txt', [{ content: S_ADA }, { content: S_BABBAGE }, { content: S_FUNDING }]);
  docZh = await unit('鲁迅.txt', [{ content: S_ZH }]);
  docEmpty = await unit('empty.txt', []);
  docIndexing = await unit('later.txt', [{ content: 'Not ready yet.' }], { status: 'indexing' });
});
afterAll(async () => {
  await llm?.close();
});

describe('parseExtraction', () => {
  it('reads JSON inside prose and fences, drops what is unusable', () => {
    expect(parseExtraction('```json\n{"entities":[{"name":" A  B "},"C",{"x":1}],"relations":[{"source":"A B","relation":"knows","target":"C"},{"source":"C","relation":"is","target":"c"},{"source":"","relation":"r","target":"C"}]}\n```')).toEqual({
      entities: [
        { name: 'A B', type: '', description: '' },
        { name: 'C', type: '', description: '' },
      ],
      relations: [{ source: 'A B', relation: 'knows', target: 'C' }],
    });
    expect(parseExtraction('no json here')).toEqual({ entities: [], relations: [] });
    expect(parseExtraction('{broken')).toEqual({ entities: [], relations: [] });
  });
});

describe('toggle-graph preconditions', () => {
  it('needs a completed unit, a default chat model, and text segments', async () => {
    expectCode(await toggle(docIndexing, true), 400, 'VALIDATION-1000');
    expect(await graphStatus(docIndexing)).toBe('none');
    const noModel = await toggle(docEngines, true);
    expectCode(noModel, 400, 'VALIDATION-1000');
    expect(noModel.body.msg).toMatch(/default chat model/);
    expect(await graphStatus(docEngines)).toBe('none');
    expectOk(await toggle(docEmpty, true));
    expect(await graphStatus(docEmpty)).toBe('not_parseable');
    expect(await db().select().from(datasetTasks).where(eq(datasetTasks.documentId, docEmpty))).toHaveLength(0);
  });

  it('checks the workspace and membership, changing nothing', async () => {
    expectCode(await toggle(docEngines, true, { token: f.u.outsider.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await toggle(docEngines, true, { token: f.u.owner.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
    const foreign = await toggle(docEngines, true, { token: f.u.foreign.token, workspaceId: f.wsA });
    expect([400, 403]).toContain(foreign.status);
    for (const [method, url] of [
      ['GET', `${DS(ds)}/documents/${docEngines}/graph-references`],
      ['GET', `${DS(ds)}/documents/${docEngines}/graph-queue-position`],
    ] as const) {
      expectCode(await h.call(method, url, { token: f.u.outsider.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    }
    expectCode(await h.call('POST', `${DS(ds)}/graph-query`, { token: f.u.owner.token, workspaceId: f.wsB, body: { query: 'Babbage' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${DS(ds)}/graph-query`, { ...member(), body: { query: ' ' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${DS(ds)}/documents/${docEngines}/toggle-graph`, { ...member(), body: {} }), 400, 'VALIDATION-1000');
    expect(await graphStatus(docEngines)).toBe('none');
  });
});

describe('graph analysis through the queue', () => {
  beforeAll(async () => {
    await configureProvider(h, 'openai_api_compatible', llm.baseUrl);
    const admin = { token: h.adminToken };
    expectOk(await h.call('POST', '/api/v1/admin/models/model-providers/openai_api_compatible/models/model-custom', { ...admin, body: { model: 'fake-graph', model_type: 'llm', features: [] } }));
    expectOk(await h.call('PUT', '/api/v1/admin/models/tenant-default', { ...admin, body: { model_type: 'llm', provider: 'openai_api_compatible', model: 'fake-graph' } }));
  });

  it('queues, shows the queue position, extracts entities and relations per segment, ends enabled', async () => {
    llm.gate.closed = true;
    expectOk(await toggle(docEngines, true));
    expect(await graphStatus(docEngines)).toBe('analysing');
    // The first task is running (held at the model); the second waits first in line.
    await waitFor(h, f.u.member.token, f.wsA, ds, docEngines, () => llm.prompts.length > 0);
    expectOk(await toggle(docZh, true));
    expect(await position(docZh)).toBe(1);
    expect(await position(docEngines)).toBeNull();
    expectOk(await toggle(docEngines, true)); // already on its way: no second task
    expect((await db().select().from(datasetTasks).where(eq(datasetTasks.documentId, docEngines))).length).toBe(1);
    llm.gate.open();
    await runQueuedTasksNow(h.studio.ctx);
    expect(await graphStatus(docEngines)).toBe('enabled');
    expect(await graphStatus(docZh)).toBe('enabled');
    expect(await position(docZh)).toBeNull();
    // One request per segment, with the segment's text.
    for (const s of [S_ADA, S_BABBAGE, S_FUNDING, S_ZH]) expect(llm.prompts).toContain(s);

    const refs = await references(docEngines);
    expect(refs).toEqual(
      expect.arrayContaining([
        { source: 'ada lovelace', relation: 'wrote notes on', target: 'analytical engine', count: 1 },
        { source: 'charles babbage', relation: 'designed', target: 'analytical engine', count: 1 },
        { source: 'charles babbage', relation: 'built', target: 'difference engine', count: 1 },
        { source: 'british government', relation: 'funded', target: 'difference engine', count: 1 },
      ]),
    );
    expect(refs).toHaveLength(5);
    expect(await references(docZh)).toEqual([{ source: '鲁迅', relation: '创作', target: '狂人日记', count: 1 }]);
    // Entities are kept once per base, whatever the case the model used.
    const engines = await db().select().from(datasetGraphEntities).where(eq(datasetGraphEntities.nameNorm, 'analytical engine'));
    expect(engines).toHaveLength(1);
    expect(engines[0]).toMatchObject({ datasetId: ds, type: 'machine' });
    // Relations remember the segment they came from.
    const [funding] = await db().select().from(datasetSegments).where(eq(datasetSegments.content, S_FUNDING));
    const rels = await db().select().from(datasetGraphRelations).where(eq(datasetGraphRelations.segmentId, funding!.id));
    expect(rels).toHaveLength(2);
    const task = (await db().select().from(datasetTasks).where(eq(datasetTasks.documentId, docEngines)))[0]!;
    expect(task).toMatchObject({ type: 'graphic', status: 'completed', progress: 1 });
  });

  it('graph-query answers the relations around the entities a query names, best first', async () => {
    const r = expectOk(await h.call('POST', `${DS(ds)}/graph-query`, { ...member(), body: { query: 'What did Charles Babbage design with the Analytical Engine?' } }));
    expect(r.relations[0]).toMatchObject({ source: 'Charles Babbage', relation: 'designed', score: 1 });
    expect(r.relations[0].target.toLowerCase()).toBe('analytical engine');
    expect(r.relations).toEqual(expect.arrayContaining([{ source: 'Charles Babbage', relation: 'worked in', target: 'London', score: 0.5 }]));
    expect(r.relations.map((x: { score: number }) => x.score)).toEqual([...r.relations.map((x: { score: number }) => x.score)].sort((a: number, b: number) => b - a));
    const partial = expectOk(await h.call('POST', `${DS(ds)}/graph-query`, { ...member(), body: { query: 'babbage' } }));
    expect(partial.relations.length).toBe(3);
    const zh = expectOk(await h.call('POST', `${DS(ds)}/graph-query`, { ...member(), body: { query: '鲁迅写了什么' } }));
    expect(zh.relations).toEqual([{ source: '鲁迅', relation: '创作', target: '狂人日记', score: 0.5 }]);
    expect(expectOk(await h.call('POST', `${DS(ds)}/graph-query`, { ...member(), body: { query: 'pineapple' } })).relations).toEqual([]);
  });

  it('hit tests add graph neighbours (source graph) only when asked', async () => {
    const body = { query: 'Charles Babbage', mode: 'full_text', top_k: 1, rerank: false, graph: false };
    const plain = expectOk(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body }));
    expect(plain.results.map((x: { content: string }) => x.content)).toEqual([S_BABBAGE]);
    const withGraph = expectOk(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body: { ...body, graph: true } }));
    expect(withGraph.results[0]).toMatchObject({ content: S_BABBAGE, source: 'full_text' });
    const neighbour = withGraph.results.find((x: { content: string }) => x.content === S_FUNDING);
    // Charles Babbage is named in the query (strength 1): relevance 0.5 + half the similarity.
    expect(neighbour).toMatchObject({ source: 'graph', document_id: docEngines });
    expect(neighbour.score).toBeGreaterThanOrEqual(0.5);
    expect(withGraph.results.filter((x: { source: string }) => x.source === 'graph').every((x: { score: number }) => x.score >= 0.3)).toBe(true);
    const history = expectOk(await h.call('GET', `${DS(ds)}/search-hit-results`, member())).items[0];
    expect(history).toMatchObject({ graph: true, result_count: withGraph.results.length });
  });

  it('turning the graph off removes the unit’s relations and the entities left unused', async () => {
    expectOk(await toggle(docZh, false));
    expect(await graphStatus(docZh)).toBe('disabled');
    expect(await references(docZh)).toEqual([]);
    expect(await db().select().from(datasetGraphEntities).where(eq(datasetGraphEntities.nameNorm, '鲁迅'))).toHaveLength(0);
    expect(await db().select().from(datasetGraphEntities).where(eq(datasetGraphEntities.nameNorm, 'charles babbage'))).toHaveLength(1);
  });

  it('turning it off while analysing stops the task; the stop button ends it cancelled; nothing half-done stays', async () => {
    llm.gate.closed = true;
    let before = llm.prompts.length;
    expectOk(await toggle(docZh, true));
    await waitFor(h, f.u.member.token, f.wsA, ds, docZh, () => llm.prompts.length > before);
    expectOk(await toggle(docZh, false));
    expect(await graphStatus(docZh)).toBe('disabled');
    llm.gate.open();
    await runQueuedTasksNow(h.studio.ctx);
    expect(await graphStatus(docZh)).toBe('disabled');
    expect(await references(docZh)).toEqual([]);

    llm.gate.closed = true;
    before = llm.prompts.length;
    expectOk(await toggle(docZh, true));
    await waitFor(h, f.u.member.token, f.wsA, ds, docZh, () => llm.prompts.length > before);
    const tasks = await db().select().from(datasetTasks).where(eq(datasetTasks.documentId, docZh)).orderBy(datasetTasks.createdAt);
    expectOk(await h.call('POST', `${DS(ds)}/tasks/${tasks.at(-1)!.id}/stop`, member()));
    llm.gate.open();
    await runQueuedTasksNow(h.studio.ctx);
    expect(await graphStatus(docZh)).toBe('cancelled');
    expect(await references(docZh)).toEqual([]);
    const all = await db().select().from(datasetTasks).where(eq(datasetTasks.documentId, docZh));
    expect(all.map((t) => t.status).sort()).toEqual(['cancelled', 'cancelled', 'completed']);
  });

  it('a model failure ends failed with the error, without relations', async () => {
    const bad = await unit('bad.txt', [{ content: 'Grace Hopper found a moth.' }, { content: 'FAIL on this segment' }]);
    expectOk(await toggle(bad, true));
    await runQueuedTasksNow(h.studio.ctx);
    expect(await graphStatus(bad)).toBe('failed');
    const [row] = await db().select().from(datasetDocuments).where(eq(datasetDocuments.id, bad));
    expect(row!.graphError).toMatch(/model crashed|provider/i);
    // The reason is on the unit, not only in the task log.
    const shown = expectOk(await h.call('GET', `${DS(ds)}/documents/${bad}`, member()));
    expect(shown.graph_error).toBe(row!.graphError);
    expect(await references(bad)).toEqual([]);
    // It can be tried again once fixed: a new task, analysing then enabled.
    await db().update(datasetSegments).set({ content: 'Grace Hopper wrote a compiler.' }).where(eq(datasetSegments.content, 'FAIL on this segment'));
    expectOk(await toggle(bad, true));
    await runQueuedTasksNow(h.studio.ctx);
    expect(await graphStatus(bad)).toBe('enabled');
    expect(expectOk(await h.call('GET', `${DS(ds)}/documents/${bad}`, member())).graph_error).toBeNull();
  });

  it('graph-references lists a relation once, however many segments yield it (as graph-query groups)', async () => {
    const twice = await unit('twice.txt', [{ content: S_BABBAGE }, { content: `Again: ${S_BABBAGE}` }]);
    expectOk(await toggle(twice, true));
    await runQueuedTasksNow(h.studio.ctx);
    const refs = await references(twice);
    expect(refs).toHaveLength(2);
    expect(refs).toEqual(
      expect.arrayContaining([
        { source: 'charles babbage', relation: 'designed', target: 'analytical engine', count: 2 },
        { source: 'charles babbage', relation: 'worked in', target: 'london', count: 2 },
      ]),
    );
    await db().delete(datasetDocuments).where(eq(datasetDocuments.id, twice));
  });

  it('a scheduled refresh of a URL unit runs its graph analysis again on the new segments', async () => {
    const pages = await startPageServer(() => `<html><body><p>Joseph Jacquard built the Jacquard loom in 1804.</p><p>Joseph Jacquard lived and worked in Lyon.</p></body></html>`);
    try {
      h.allowOutbound(pages.url('/'));
      const [u] = expectOk(await h.call('POST', `${DS(ds)}/documents`, { ...member(), body: { url: pages.url('/page'), name: 'Babbage page', update_frequency: '1', process_rule: { ...RULE, max_length: 80 } } }));
      await runQueuedTasksNow(h.studio.ctx);
      expectOk(await toggle(u.id, true));
      await runQueuedTasksNow(h.studio.ctx);
      expect(await graphStatus(u.id)).toBe('enabled');
      const segIds = async () => new Set((await db().select({ id: datasetSegments.id }).from(datasetSegments).where(eq(datasetSegments.documentId, u.id))).map((r) => r.id));
      const relSegs = async () => (await db().select({ s: datasetGraphRelations.segmentId }).from(datasetGraphRelations).where(eq(datasetGraphRelations.documentId, u.id))).map((r) => r.s);
      expect((await relSegs()).length).toBeGreaterThan(0);
      // Due now: the refresh re-creates the segments (new ids).
      await db().update(datasetDocuments).set({ nextRefreshAt: new Date(Date.now() - 1000) }).where(eq(datasetDocuments.id, u.id));
      expect(await refreshDueUnits(h.studio.ctx)).toBe(1);
      await runQueuedTasksNow(h.studio.ctx);
      expect(await graphStatus(u.id)).toBe('enabled');
      const now = await segIds();
      const rels = await relSegs();
      expect(rels.length).toBeGreaterThan(0);
      expect(rels.every((id) => id !== null && now.has(id))).toBe(true);
      // The neighbours are found again: the other segment, through Joseph Jacquard.
      const hit = expectOk(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body: { query: 'Joseph Jacquard', mode: 'full_text', top_k: 1, rerank: false, graph: true } }));
      expect(hit.results.map((x: { document_id: string; source: string }) => [x.document_id, x.source])).toEqual([
        [u.id, 'full_text'],
        [u.id, 'graph'],
      ]);
      await db().delete(datasetDocuments).where(eq(datasetDocuments.id, u.id));
    } finally {
      await pages.close();
    }
  });

  it('the knowledge service of runs says which passages came from the graph', async () => {
    const service = createKnowledgeService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA });
    const chunks = await service.retrieve({ datasetIds: [ds], text: 'Charles Babbage', topK: 1, mode: 'full_text', graphNeighbours: { minRelevance: 0.3 } }, { signal: new AbortController().signal });
    expect(chunks[0]!.source).toBe('full_text');
    expect(chunks.some((c) => c.source === 'graph')).toBe(true);
  });
});

describe('graph minimum relevance of a base', () => {
  it('is set by the base update call, answered with the base, and refused out of range or outside the space', async () => {
    expect(expectOk(await h.call('GET', DS(ds), member())).graph_min_relevance).toBe(0.3);
    expect(expectOk(await h.call('PUT', DS(ds), { ...member(), body: { graph_min_relevance: 0.5 } })).graph_min_relevance).toBe(0.5);
    expectCode(await h.call('PUT', DS(ds), { ...member(), body: { graph_min_relevance: 0.6 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', DS(ds), { ...member(), body: { graph_min_relevance: -0.1 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', DS(ds), { token: f.u.outsider.token, workspaceId: f.wsA, body: { graph_min_relevance: 0 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', DS(ds), { token: f.u.owner.token, workspaceId: f.wsB, body: { graph_min_relevance: 0 } }), 400, 'VALIDATION-1000');
    const foreign = await h.call('PUT', DS(ds), { token: f.u.foreign.token, workspaceId: f.wsA, body: { graph_min_relevance: 0 } });
    expect([400, 403]).toContain(foreign.status);
    expect(expectOk(await h.call('GET', DS(ds), member())).graph_min_relevance).toBe(0.5);
  });

  it('is what hit tests use, unless the hit test passes its own', async () => {
    // The hit (Ada's notes) holds part of the query only: neighbours through its entities weigh less than 0.5.
    const body = { query: 'Ada Lovelace pineapple', mode: 'full_text', top_k: 1, rerank: false, graph: true };
    const graphScores = (r: { results: { source: string; score: number }[] }) => r.results.filter((x) => x.source === 'graph').map((x) => x.score);
    const strict = expectOk(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body }));
    expect(graphScores(strict).every((x) => x >= 0.5)).toBe(true);
    const loose = expectOk(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body: { ...body, graph_min_relevance: 0 } }));
    expect(graphScores(loose).some((x) => x < 0.5)).toBe(true);
    expectCode(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body: { ...body, graph_min_relevance: 0.7 } }), 400, 'VALIDATION-1000');
    expectOk(await h.call('PUT', DS(ds), { ...member(), body: { graph_min_relevance: 0.3 } }));
  });
});
