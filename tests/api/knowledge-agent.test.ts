import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetDocuments, datasetQaPairs } from '../../src/server/db/schema';
import { eq } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { addUnits, createBase, segmentsOf, uploadOk, useTempDataDir, waitUnit } from './knowledge-kit';
import { configureProvider, createApp, flow, model, parseSse, RUNS, scriptedOpenAi, type ScriptedModel } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Knowledge used by agents and Q&A generation, through the real routes on embedded Postgres and a
// scripted OpenAI-compatible model server:
// - an agent node with a knowledge base gets a `search_knowledge(query)` function; the model calls
//   it, the matched segment goes back to the model as the tool result, the final answer arrives;
// - POST .../documents/{id}/qa-generation queues a faq task: the tenant's default chat model writes
//   Q&A pairs from the unit's segments; they are linked to the unit and matched by hit tests.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let llm: ScriptedModel;
let ds: string;
let doc: string;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const DS = (id: string) => `/api/v1/console/datasets/${id}`;

const PANDA = 'Giant pandas live in mountain ranges in central China; a panda eats up to 38 kilograms of bamboo a day.';
const TEXT = [
  '长城是中国古代的军事防御工程，总长度超过两万公里。',
  'The Great Wall of China is a series of fortifications built across the northern borders of ancient Chinese states.',
  PANDA,
  'Photosynthesis converts light energy into chemical energy stored in glucose.',
].join('\n\n');

/**
 * The model's script. Agent turns (tools offered): first a `search_knowledge` call for "panda bamboo",
 * then, with the tool result, an answer quoting the figure it found (or saying it found nothing).
 * Q&A generation (no tools): a JSON array of pairs made from the text it was given.
 */
/** Q&A generation's model calls wait while this is set (so a task is surely still on its way). */
let qaHold: Promise<void> | null = null;

async function reply(body: any): Promise<string | { tool: string; args: string }> {
  const messages: { role: string; content: string }[] = body.messages;
  const last = messages.at(-1)!;
  if (body.tools?.length && last.role === 'user') return { tool: body.tools[0].function.name, args: '{"query":"panda bamboo"}' };
  if (last.role === 'tool') return last.content.includes('38 kilograms') ? 'Pandas eat up to 38 kilograms of bamboo a day.' : 'I found nothing.';
  if (messages[0]?.content.includes('question-and-answer pairs')) {
    await qaHold;
    const pairs = [];
    if (last.content.includes('Giant pandas')) pairs.push({ question: 'How much bamboo does a giant panda eat each day?', answer: 'Up to 38 kilograms.' });
    if (last.content.includes('Photosynthesis')) pairs.push({ question: 'What does photosynthesis store energy in?', answer: 'Glucose.' });
    return 'Here you are:\n```json\n' + JSON.stringify(pairs) + '\n```';
  }
  return 'Hello.';
}

beforeAll(async () => {
  llm = await scriptedOpenAi(reply);
  f = await setUpWorkspaces(h, 'kag');
  await configureProvider(h, 'openai', llm.baseUrl);
  ds = await createBase(h, f.u.member.token, f.wsA, 'Nature');
  const file = await uploadOk(h, f.u.member.token, f.wsA, 'nature.txt', TEXT);
  [{ id: doc }] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file], process_rule: { mode: 'general', max_length: 120, overlap: 0, separators: ['\n\n'], remove_extra_spaces: true, remove_urls_emails: false } });
  expect((await waitUnit(h, f.u.member.token, f.wsA, ds, doc)).status).toBe('completed');
  expect((await segmentsOf(h, f.u.member.token, f.wsA, ds, doc)).map((s) => s.content)).toContain(PANDA);
});
afterAll(async () => {
  await llm?.close();
});

/** Runs the agent app's draft with `query`; answers the last stream event. */
async function chat(appId: string, query: string) {
  const r = await h.call('POST', `${RUNS(appId)}/draft/chat-messages`, { ...member(), body: { query } });
  expect(r.status, r.raw.body).toBe(200);
  return parseSse(r.raw.body).at(-1) as unknown as { type: string; answer?: string; error?: { code: string; message: string } };
}

const agentApp = (config: Record<string, unknown>) =>
  flow(
    [
      ['s', 'start'],
      ['a', 'agent', { model: model('openai', 'gpt-4o-mini'), instructions: 'Answer from the knowledge base.', ...config }],
      ['ans', 'answer', { answer: '{{#a.text#}}' }],
    ],
    [
      ['s', 'a'],
      ['a', 'ans'],
    ],
    'agent',
  );

describe('an agent with a knowledge base', () => {
  it('offers search_knowledge to the model; the call retrieves the right segment and the answer uses it', async () => {
    const before = llm.requests.length;
    const app = await createApp(h, f.u.member.token, f.wsA, 'Nature agent', agentApp({ knowledgeIds: [ds], knowledgeTopK: 2 }));
    const last = await chat(app, 'How much bamboo does a panda eat?');
    expect(last.type, JSON.stringify(last)).toBe('run_finished');
    expect(last.answer).toBe('Pandas eat up to 38 kilograms of bamboo a day.');

    const [first, second] = llm.requests.slice(before).map((r) => r.body);
    expect(first.tools.map((t: any) => t.function.name)).toEqual(['search_knowledge']);
    expect(first.tools[0].function.parameters).toMatchObject({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] });
    const tool = second.messages.find((m: { role: string }) => m.role === 'tool');
    // The best match first, with its score; top k = 2 keeps the result to two segments.
    expect(tool.content).toMatch(/^\[1\] score \d\.\d{3}/);
    expect(tool.content.split('\n')[1]).toBe(PANDA);
    expect(tool.content).not.toContain('[3]');
  });

  it('without knowledge bases offers no search; a base of another project space finds nothing', async () => {
    const before = llm.requests.length;
    const plain = await createApp(h, f.u.member.token, f.wsA, 'Plain agent', agentApp({}));
    expect((await chat(plain, 'Hi')).answer).toBe('Hello.');
    expect(llm.requests[before].body.tools ?? []).toEqual([]);

    // A base id of workspace B (same tenant) is not searched from workspace A's run.
    const other = await createBase(h, f.u.owner.token, f.wsB, 'Elsewhere');
    const file = await uploadOk(h, f.u.owner.token, f.wsB, 'panda.txt', PANDA);
    const [{ id: otherDoc }] = await addUnits(h, f.u.owner.token, f.wsB, other, { file_ids: [file] });
    expect((await waitUnit(h, f.u.owner.token, f.wsB, other, otherDoc)).status).toBe('completed');
    const foreign = await createApp(h, f.u.member.token, f.wsA, 'Foreign agent', agentApp({ knowledgeIds: [other] }));
    const mark = llm.requests.length;
    const last = await chat(foreign, 'How much bamboo does a panda eat?');
    // The search fails like any tool: the reason goes back to the model, which answers without it.
    expect(last).toMatchObject({ type: 'run_finished', answer: 'I found nothing.' });
    const tool = llm.requests[mark + 1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toBe(`Error: Knowledge base ${other} does not exist in this project space`);
  });
});

describe('Q&A generation (faq task)', () => {
  const GEN = (d = doc) => `${DS(ds)}/documents/${d}/qa-generation`;

  it('is refused clearly without a default chat model, before vector analysis, and for other people', async () => {
    expect(expectOk(await h.call('GET', GEN(), member()))).toBeNull();
    const r = await h.call('POST', GEN(), member());
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toContain('needs a default chat model');

    const pending = randomUUID();
    await h.studio.ctx.db
      .insert(datasetDocuments)
      .values({ id: pending, tenantId: DEFAULT_TENANT_ID, datasetId: ds, name: 'later.txt', fileType: 'txt', status: 'indexing', progress: 0.5, processRule: {}, createdBy: f.u.member.id });
    const early = await h.call('POST', GEN(pending), member());
    expectCode(early, 400, 'VALIDATION-1000');
    expect(early.body.msg).toContain('vector analysis to succeed first');

    expectCode(await h.call('POST', GEN(MISSING), member()), 400, 'VALIDATION-1000');
    // Another project space's id for the base, and a user of another tenant, see nothing.
    expectCode(await h.call('POST', GEN(), { token: f.u.owner.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', GEN(), { token: f.u.outsider.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', GEN(), { token: f.u.foreign.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', GEN(), member()))).toBeNull();
  });

  it('generates pairs with the default chat model, linked to the unit and matched by hit tests', async () => {
    const admin = { token: h.adminToken };
    expectOk(await h.call('PUT', '/api/v1/admin/models/tenant-default', { ...admin, body: { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' } }));
    // The model holds its answer until the second start is answered: a worker that takes the task at
    // once (the job queue wakes it on send) cannot finish it in between.
    let release = () => {};
    qaHold = new Promise<void>((r) => (release = r));
    const started = expectOk(await h.call('POST', GEN(), member()));
    expect(started).toMatchObject({ status: 'queued', error: null });
    // Starting again while it is on its way answers the same task.
    const again = expectOk(await h.call('POST', GEN(), member()));
    release();
    qaHold = null;
    expect(again.task_id).toBe(started.task_id);
    expect(['queued', 'running']).toContain(again.status);

    const until = Date.now() + 20_000;
    let state = started;
    while (!['completed', 'failed', 'cancelled'].includes(state.status) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      state = expectOk(await h.call('GET', GEN(), member()));
    }
    expect(state, JSON.stringify(state)).toMatchObject({ task_id: started.task_id, status: 'completed', progress: 100, error: null });
    expect(state.finished_at).not.toBeNull();

    const pairs = expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}/qa-pairs`, { ...member(), query: { page_size: 100 } }));
    expect(pairs.items.map((p: any) => [p.question, p.answer, p.document_id]).sort()).toEqual([
      ['How much bamboo does a giant panda eat each day?', 'Up to 38 kilograms.', doc],
      ['What does photosynthesis store energy in?', 'Glucose.', doc],
    ]);
    const rows = await h.studio.ctx.db.select().from(datasetQaPairs).where(eq(datasetQaPairs.documentId, doc));
    expect(rows.every((r) => r.datasetId === ds)).toBe(true);
    expect(expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}`, member())).qa_count).toBe(2);
    // The task log says what was made, with which model.
    const logs = expectOk(await h.call('GET', `${DS(ds)}/tasks/${started.task_id}/logs`, member()));
    expect(logs.map((l: any) => l.message)).toContain('2 Q&A pairs generated with openai/gpt-4o-mini');

    const hit = expectOk(await h.call('POST', `${DS(ds)}/hit-test`, { ...member(), body: { query: 'What does photosynthesis store energy in?', mode: 'full_text', top_k: 5, rerank: false, graph: false } }));
    expect(hit.results[0]).toMatchObject({ document_id: doc, position: 0 });
    expect(hit.results[0].content).toContain('What does photosynthesis store energy in?');

    // Generating again (the model writes the same questions) adds no duplicates; the log says so.
    const second = expectOk(await h.call('POST', GEN(), member()));
    expect(second.task_id).not.toBe(started.task_id);
    const until2 = Date.now() + 20_000;
    let state2 = second;
    while (!['completed', 'failed', 'cancelled'].includes(state2.status) && Date.now() < until2) {
      await new Promise((r) => setTimeout(r, 100));
      state2 = expectOk(await h.call('GET', GEN(), member()));
    }
    expect(state2).toMatchObject({ task_id: second.task_id, status: 'completed' });
    expect(expectOk(await h.call('GET', `${DS(ds)}/documents/${doc}`, member())).qa_count).toBe(2);
    const logs2 = expectOk(await h.call('GET', `${DS(ds)}/tasks/${second.task_id}/logs`, member()));
    expect(logs2.map((l: any) => l.message)).toContain('0 Q&A pairs generated with openai/gpt-4o-mini (2 already in the unit, skipped)');
  });
});
