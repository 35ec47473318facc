import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { RunStreamEvent } from '../../schemas/run-api';
import { conversations, messages, runs } from '../../src/server/db/schema';
import { runWriterOf } from '../../src/server/runs/run-writer';
import { updateRow } from '../../src/server/runs/raw-sql';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { configureProvider, createApp, flow, model, parseSse, prompt, readSse, RUNS, slowOpenAi, textInput, type SlowServer } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The runs API beyond a single run: stopping a run mid-stream over real HTTP, a client that goes
// away, the log's filters, conversation variables and deletion, and refusals that change nothing.

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
let slow: SlowServer;
let base: string;
let slowApp: string;
let chatApp: string;
let workflowApp: string;

const SLOW_CHUNKS = Array.from({ length: 40 }, (_, i) => `t${i} `);

const chatFlow = (provider: string, name: string, answer = '{{#llm.text#}}') =>
  flow(
    [
      ['s', 'start'],
      ['llm', 'llm', { model: model(provider, name), prompts: [prompt('user', '{{#sys.query#}}')] }],
      ['ans', 'answer', { answer }],
    ],
    [
      ['s', 'llm'],
      ['llm', 'ans'],
    ],
    'chatflow',
    { conversation: [{ id: 'v1', name: 'topic', type: 'string', value: 'none', description: '' }, { id: 'v2', name: 'count', type: 'number', value: 0, description: '' }] },
  );

const workflowDoc = flow(
  [
    ['s', 'start', { variables: [textInput('name')] }],
    ['t', 'template-transform', { inputs: [{ name: 'name', selector: ['s', 'name'] }], template: 'Hi {{ name }}' }],
    ['e', 'end', { outputs: [{ name: 'out', selector: ['t', 'output'] }] }],
  ],
  [
    ['s', 't'],
    ['t', 'e'],
  ],
);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'runlog');
  fake = await fakeOpenAi();
  slow = await slowOpenAi(SLOW_CHUNKS, 25);
  await configureProvider(h, 'openai', fake.baseUrl);
  await configureProvider(h, 'deepseek', slow.baseUrl);
  slowApp = await createApp(h, f.u.member.token, f.wsA, 'Slow chat', chatFlow('deepseek', 'deepseek-chat'));
  chatApp = await createApp(h, f.u.member.token, f.wsA, 'Chat', chatFlow('openai', 'gpt-4o-mini', 'About {{#conversation.topic#}}: {{#llm.text#}}'));
  workflowApp = await createApp(h, f.u.member.token, f.wsA, 'Flow', workflowDoc);
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await fake?.close();
  await slow?.close();
});

const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const headers = () => ({ authorization: `Bearer ${f.u.member.token}`, 'x-workspace-id': f.wsA, 'content-type': 'application/json' });

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function openSlowChat(controller?: AbortController) {
  const res = await fetch(`${base}${RUNS(slowApp)}/draft/chat-messages`, { method: 'POST', headers: headers(), body: JSON.stringify({ query: 'long story' }), signal: controller?.signal });
  expect(res.status).toBe(200);
  return readSse(res.body!);
}

describe('stop', () => {
  it('stops a running run over HTTP: the stream ends with run_failed status stopped, and the run is stored as stopped', async () => {
    const events: RunStreamEvent[] = [];
    const stream = await openSlowChat();
    let runId = '';
    for await (const e of stream) {
      events.push(e);
      if (e.type === 'run_created') runId = e.runId;
      // Stop once the answer has started streaming (the provider is mid-answer).
      if (e.type === 'answer_chunk' && e.text === 't2 ') {
        expect(expectOk(await h.call('POST', `${RUNS(slowApp)}/runs/${runId}/stop`, member()))).toEqual({ stopped: true });
      }
    }
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'run_failed', status: 'stopped', error: { code: expect.any(String) } });
    const said = events.filter((e) => e.type === 'answer_chunk').length;
    expect(said).toBeGreaterThanOrEqual(3);
    expect(said).toBeLessThan(SLOW_CHUNKS.length);
    const detail = await until(
      async () => expectOk(await h.call('GET', `${RUNS(slowApp)}/runs/${runId}`, member())),
      (d) => d.run.status !== 'running',
    );
    expect(detail.run.status).toBe('stopped');
    expect(detail.nodes.find((n: { node_id: string }) => n.node_id === 'llm')).toMatchObject({ status: 'stopped' });
    const msgs = expectOk(await h.call('GET', `${RUNS(slowApp)}/conversations/${detail.run.conversation_id}/messages`, member()));
    expect(msgs.list[0]).toMatchObject({ status: 'stopped', runId });
    // The provider's request was cut too.
    expect(await until(async () => slow.open(), (n) => n === 0)).toBe(0);
    // A run that has ended cannot be stopped again.
    expect(expectOk(await h.call('POST', `${RUNS(slowApp)}/runs/${runId}/stop`, member()))).toEqual({ stopped: false });
  });

  it('a client that goes away does not stop the run: it finishes and is stored', async () => {
    const controller = new AbortController();
    const stream = await openSlowChat(controller);
    let runId = '';
    for await (const e of stream) {
      if (e.type === 'run_created') runId = e.runId;
      if (e.type === 'answer_chunk') break;
    }
    controller.abort();
    const detail = await until(
      async () => expectOk(await h.call('GET', `${RUNS(slowApp)}/runs/${runId}`, member())),
      (d) => d.run.status !== 'running',
      10_000,
    );
    expect(detail.run).toMatchObject({ status: 'succeeded', answer: SLOW_CHUNKS.join('') });
  });

  it('stop of an unknown or foreign run answers VALIDATION-1000', async () => {
    expectCode(await h.call('POST', `${RUNS(slowApp)}/runs/${MISSING}/stop`, member()), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(slowApp)}/runs/not-a-uuid/stop`, member()), 400, 'VALIDATION-1000');
  });
});

describe('run log', () => {
  it('lists runs newest first and filters them by status, keyword and period; page_size over 1000 answers VALIDATION-1009', async () => {
    for (const name of ['alpha', 'beta']) {
      parseSse((await h.call('POST', `${RUNS(workflowApp)}/draft/workflow-runs`, { ...member(), body: { inputs: { name } } })).raw.body);
    }
    parseSse((await h.call('POST', `${RUNS(workflowApp)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } })).raw.body);
    const all = expectOk(await h.call('GET', `${RUNS(workflowApp)}/runs`, member()));
    expect(all).toMatchObject({ total: 3, page: 1, page_size: 20 });
    expect(all.list.map((r: { status: string }) => r.status)).toEqual(['failed', 'succeeded', 'succeeded']);
    expect(all.list[1]).toMatchObject({ inputs: { name: 'beta' }, outputs: { out: 'Hi beta' }, created_by_name: 'runlog_member' });
    const failed = expectOk(await h.call('GET', `${RUNS(workflowApp)}/runs`, { ...member(), query: { status: 'failed' } }));
    expect(failed.total).toBe(1);
    expect(failed.list[0].error).toMatchObject({ code: 'START-INPUT-REQUIRED' });
    const beta = expectOk(await h.call('GET', `${RUNS(workflowApp)}/runs`, { ...member(), query: { keyword: 'BET' } }));
    expect(beta.list.map((r: { inputs: unknown }) => r.inputs)).toEqual([{ name: 'beta' }]);
    expect(expectOk(await h.call('GET', `${RUNS(workflowApp)}/runs`, { ...member(), query: { period: 'today' } })).total).toBe(3);
    expect(expectOk(await h.call('GET', `${RUNS(workflowApp)}/runs`, { ...member(), query: { period: '7d', page: 2, page_size: 2 } }))).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expectCode(await h.call('GET', `${RUNS(workflowApp)}/runs`, { ...member(), query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectCode(await h.call('GET', `${RUNS(workflowApp)}/runs`, { ...member(), query: { period: 'week' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${RUNS(workflowApp)}/runs`, { ...member(), query: { status: 'done' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${RUNS(workflowApp)}/runs/${MISSING}`, member()), 400, 'VALIDATION-1000');
  });
});

describe('conversations', () => {
  let conversationId: string;

  it('GET and PUT the variables: declared names with values of their type; the next message sees them', async () => {
    const first = parseSse((await h.call('POST', `${RUNS(chatApp)}/draft/chat-messages`, { ...member(), body: { query: 'first' } })).raw.body);
    conversationId = (first[0] as { conversationId: string }).conversationId;
    expect(first.at(-1)).toMatchObject({ answer: 'About none: Hello, world' });
    const url = `${RUNS(chatApp)}/conversations/${conversationId}/variables`;
    expect(expectOk(await h.call('GET', url, member()))).toEqual({ variables: { topic: 'none', count: 0 } });
    expect(expectOk(await h.call('PUT', url, { ...member(), body: { variables: { topic: 'cats' } } }))).toEqual({ variables: { topic: 'cats', count: 0 } });
    // Unknown names and values of the wrong type are refused and change nothing.
    expectCode(await h.call('PUT', url, { ...member(), body: { variables: { topic: 'dogs', nope: 1 } } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', url, { ...member(), body: { variables: { count: 'three' } } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', url, { ...member(), body: { vars: {} } }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', url, member()))).toEqual({ variables: { topic: 'cats', count: 0 } });
    const next = parseSse((await h.call('POST', `${RUNS(chatApp)}/draft/chat-messages`, { ...member(), body: { query: 'second', conversation_id: conversationId } })).raw.body);
    expect(next.at(-1)).toMatchObject({ type: 'run_finished', answer: 'About cats: Hello, world' });
  });

  it('lists conversations by period and deletes one with its messages (its runs stay in the log)', async () => {
    const list = expectOk(await h.call('GET', `${RUNS(chatApp)}/conversations`, { ...member(), query: { period: '30d' } }));
    expect(list.list.find((c: { id: string }) => c.id === conversationId)).toMatchObject({ message_count: 2, name: 'first' });
    expectOk(await h.call('DELETE', `${RUNS(chatApp)}/conversations/${conversationId}`, member()));
    expectCode(await h.call('GET', `${RUNS(chatApp)}/conversations/${conversationId}/messages`, member()), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${RUNS(chatApp)}/conversations/${conversationId}`, member()), 400, 'VALIDATION-1000');
    const runsLeft = expectOk(await h.call('GET', `${RUNS(chatApp)}/runs`, member()));
    expect(runsLeft.total).toBe(2);
    expect(runsLeft.list.every((r: { conversation_id: string | null }) => r.conversation_id === null)).toBe(true);
    // Continuing a deleted conversation is refused.
    expectCode(await h.call('POST', `${RUNS(chatApp)}/draft/chat-messages`, { ...member(), body: { query: 'x', conversation_id: conversationId } }), 400, 'VALIDATION-1000');
  });
});

describe('runs ending together', () => {
  it('are stored each with its own end: their run, message and conversation rows updated by one statement (one UPDATE per table, typed values)', async () => {
    const started = await Promise.all(
      ['one', 'two'].map(async (query) => parseSse((await h.call('POST', `${RUNS(chatApp)}/draft/chat-messages`, { ...member(), body: { query } })).raw.body)[0] as { runId: string; messageId: string; conversationId: string }),
    );
    const at = new Date('2026-11-28T08:00:00.000Z');
    // Both ends in the same turn: the run writer puts them in one statement (runs/raw-sql.ts combine).
    const writer = runWriterOf(h.studio.ctx.db);
    await Promise.all(
      started.map((r, i) =>
        writer.write([
          updateRow(runs, { status: 'failed', outputs: { n: i }, answer: `end ${i}`, error: null, totalTokens: 10 + i, finishedAt: at }, ['id', r.runId]),
          updateRow(messages, { answer: `end ${i}`, status: 'failed', totalTokens: 10 + i, citations: [{ n: i }], updatedAt: at }, ['id', r.messageId]),
          updateRow(conversations, { variables: { topic: `t${i}`, count: i }, updatedAt: at }, ['id', r.conversationId]),
        ]),
      ),
    );
    const db = h.studio.ctx.db;
    for (const [i, r] of started.entries()) {
      const [run] = await db.select().from(runs).where(eq(runs.id, r.runId));
      expect(run).toMatchObject({ status: 'failed', outputs: { n: i }, answer: `end ${i}`, error: null, totalTokens: 10 + i, finishedAt: at });
      const [msg] = await db.select().from(messages).where(eq(messages.id, r.messageId));
      expect(msg).toMatchObject({ answer: `end ${i}`, status: 'failed', totalTokens: 10 + i, citations: [{ n: i }], updatedAt: at });
      const [conv] = await db.select().from(conversations).where(eq(conversations.id, r.conversationId));
      expect(conv).toMatchObject({ variables: { topic: `t${i}`, count: i }, updatedAt: at });
    }
  });
});

describe('refusals change nothing', () => {
  const rows = async () => {
    const db = h.studio.ctx.db;
    const [r] = await db.select({ n: count() }).from(runs);
    const [c] = await db.select({ n: count() }).from(conversations);
    const [m] = await db.select({ n: count() }).from(messages);
    return [r.n, c.n, m.n];
  };

  it('other workspaces, tenants and missing headers are refused', async () => {
    const before = await rows();
    const body = { query: 'hi' };
    const chatUrl = `${RUNS(chatApp)}/draft/chat-messages`;
    // An outsider in their own workspace, the owner naming another of their workspaces, a user of another tenant.
    expectCode(await h.call('POST', chatUrl, { token: f.u.outsider.token, workspaceId: f.wsC, body }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', chatUrl, { token: f.u.outsider.token, workspaceId: f.wsA, body }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', chatUrl, { token: f.u.owner.token, workspaceId: f.wsB, body }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', chatUrl, { token: f.u.foreign.token, workspaceId: f.wsA, body }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', chatUrl, { token: f.u.member.token, body }), 400, 'VALIDATION-1008');
    expectCode(await h.call('POST', chatUrl, { workspaceId: f.wsA, body }), 401, 'AUTH-1001');
    expectCode(await h.call('GET', `${RUNS(chatApp)}/runs`, { token: f.u.outsider.token, workspaceId: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${RUNS(chatApp)}/conversations`, { token: f.u.foreign.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(workflowApp)}/draft/nodes/t/run`, { token: f.u.owner.token, workspaceId: f.wsB, body: { inputs: {} } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(MISSING)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } }), 400, 'VALIDATION-1000');
    // The owner of the workspace may run and read (any member may).
    expectOk(await h.call('GET', `${RUNS(chatApp)}/runs`, { token: f.u.owner.token, workspaceId: f.wsA }));
    expect(await rows()).toEqual(before);
  });

  it('invalid bodies and the wrong endpoint for the mode answer codes', async () => {
    const before = await rows();
    const chatUrl = `${RUNS(chatApp)}/draft/chat-messages`;
    for (const body of [{ query: '' }, {}, { query: 'x', conversation_id: 'abc' }, { query: 'x', inputs: [] }, { query: 'x', files: [{ name: 'a' }] }, { query: 'x', extra: 1 }]) {
      expectCode(await h.call('POST', chatUrl, { ...member(), body }), 400, 'VALIDATION-1000');
    }
    expectCode(await h.call('POST', chatUrl, { ...member(), body: { query: 'x', conversation_id: MISSING } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(workflowApp)}/draft/chat-messages`, { ...member(), body: { query: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(chatApp)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(workflowApp)}/draft/workflow-runs`, { ...member(), body: { inputs: 'x' } }), 400, 'VALIDATION-1000');
    expect(await rows()).toEqual(before);
  });

  it('the OpenAPI document lists the runs routes', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    for (const path of ['draft/chat-messages', 'draft/workflow-runs', 'draft/nodes/{node_id}/run', 'runs/{run_id}/stop', 'runs', 'conversations/{conversation_id}/variables']) {
      expect(Object.keys(doc.paths)).toContain(`/api/v1/console/apps/{app_id}/${path}`);
    }
  });

  it('a draft that cannot run answers VALIDATION-1000 with the issues, before any stream', async () => {
    const broken = flow([['s', 'start', { variables: [textInput('name')] }], ['e', 'end', { outputs: [{ name: 'out', selector: ['ghost', 'text'] }] }]], [['s', 'e']]);
    const app = await createApp(h, f.u.member.token, f.wsA, 'Broken flow', broken);
    const before = await rows();
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { name: 'x' } } });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ node_id: 'e' })]));
    expect(await rows()).toEqual(before);
  });
});
