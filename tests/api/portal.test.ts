import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import type { FlowDocument } from '../../schemas/flow';
import type { RunStreamEvent } from '../../schemas/run-api';
import { messages as messagesTable, runEvents, runs } from '../../src/server/db/schema';
import type { FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { runEventLog } from '../../src/server/runs/event-log';
import { countStatements } from './statements-kit';
import { addUnits, createBase, uploadOk, useTempDataDir, waitUnit } from './knowledge-kit';
import { cancel, DIST, distribute, expectStatus, modelProvider, publish, web } from './portal-kit';
import { configureProvider, createApp, flow, model, parseSse, prompt, readSse, saveDraft, slowOpenAi, textInput, type SlowServer } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The portal's WEB calls (issue 21) against the real server: who sees which app, chat streamed from
// the local fake OpenAI-compatible provider on the DISTRIBUTED version, workflow runs with checked
// inputs, usage records, the app's log, stop, and a user who lost access. Conversations, groups,
// feedback, files: portal-conversations.test.ts.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let fake: FakeServer;
let chatApp = '';
let flowApp = '';
let ragApp = '';
let slowApp = '';
let slow: SlowServer;
let base = '';

const owner = () => ({ token: f.u.owner.token, workspaceId: f.wsA });
type Msg = Extract<RunStreamEvent, { type: 'run_finished' }>;

const chatDoc = (says: string, extra: Partial<FlowDocument> = {}): FlowDocument => ({
  ...flow(
    [
      ['s', 'start'],
      ['llm', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('system', 'Be brief.'), prompt('user', '{{#sys.query#}}')], memoryEnabled: true, memoryWindow: 5 }],
      ['ans', 'answer', { answer: `${says}: {{#llm.text#}}.` }],
    ],
    [
      ['s', 'llm'],
      ['llm', 'ans'],
    ],
    'chatflow',
  ),
  ...extra,
});

/** A workflow whose form has a required text, an optional number and a select; its middle node is titled. */
function formDoc(): FlowDocument {
  const doc = flow(
    [
      [
        's',
        'start',
        {
          variables: [
            textInput('word'),
            { name: 'count', label: 'Count', type: 'number', required: false, options: [], allowed_extensions: [] },
            { name: 'color', label: 'Color', type: 'select', required: false, options: ['red', 'blue'], allowed_extensions: [] },
          ],
        },
      ],
      ['t', 'template-transform', { inputs: [{ name: 'word', selector: ['s', 'word'] }, { name: 'color', selector: ['s', 'color'] }], template: '{{ word }} in {{ color }}' }],
      ['e', 'end', { outputs: [{ name: 'said', selector: ['t', 'output'] }] }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );
  doc.nodes[1].title = 'Say it';
  return doc;
}

/** The raw text of the last stream {@link chat} read. */
let lastStream = '';

/** Sends a chat message to the portal app as `token`'s user; answers the stream's events. */
async function chat(token: string, appId: string, body: Record<string, unknown>) {
  const r = await web(h, token, 'POST', `/portal/${appId}/chat-messages`, { body });
  expectStatus(r, 200);
  lastStream = r.raw.body;
  expect(r.raw.headers['content-type']).toMatch(/^text\/event-stream/);
  return parseSse(r.raw.body) as (RunStreamEvent | { type: 'message_end'; messageId: string; conversationId: string; citations: unknown[]; usage: unknown })[];
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'portal');
  fake = await modelProvider(h);
  chatApp = await createApp(h, f.u.member.token, f.wsA, 'Helpdesk', chatDoc('Bot v1', { features: { opening_statement: 'Hi there', suggested_questions: ['a?', 'b?'], suggested_questions_random_count: 1 } as never }));
  const v1 = await publish(h, owner(), chatApp, 'v1');
  await distribute(h, owner(), chatApp, 'portal', v1.id);
  // A newer version, not distributed: end users keep v1.
  await saveDraft(h, f.u.member.token, f.wsA, chatApp, chatDoc('Bot v2'));
  await publish(h, owner(), chatApp, 'v2');

  flowApp = await createApp(h, f.u.member.token, f.wsA, 'Form flow', formDoc());
  await publish(h, owner(), flowApp, 'f1');
  await distribute(h, owner(), flowApp, 'current_project');

  // A provider that answers slowly (40 chunks, 25 ms apart), to stop a run mid-answer over real HTTP.
  slow = await slowOpenAi(Array.from({ length: 40 }, (_, i) => `t${i} `), 25);
  await configureProvider(h, 'deepseek', slow.baseUrl);
  slowApp = await createApp(h, f.u.member.token, f.wsA, 'Slow bot', {
    ...chatDoc('Slow'),
    nodes: chatDoc('Slow').nodes.map((n) => (n.id === 'llm' ? { ...n, config: { ...n.config, model: model('deepseek', 'deepseek-chat') } } : n)),
  });
  await publish(h, owner(), slowApp, 's1');
  await distribute(h, owner(), slowApp, 'portal');
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await fake?.close();
  await slow?.close();
});

describe('GET /web/portal: who sees what', () => {
  it('a member of the space sees the portal app and the project app; the version is the distributed one', async () => {
    const page = expectOk(await web(h, f.u.member.token, 'GET', '/portal'));
    expect(page.list.map((a: { id: string; platform: string; version: string }) => [a.id, a.platform, a.version])).toEqual([
      [slowApp, 'portal', 's1'],
      [flowApp, 'current_project', 'f1'],
      [chatApp, 'portal', 'v1'],
    ]);
    expect(page).toMatchObject({ total: 3, page: 1, page_size: 100 });
    expect(page.list[2]).toMatchObject({ name: 'Helpdesk', description: 'Helpdesk', icon: { icon: 'bot' }, mode: 'chatflow', workspace_id: f.wsA, workspace_name: 'portal A', distributed_at: expect.any(String) });
    const second = expectOk(await web(h, f.u.member.token, 'GET', '/portal', { query: { page: 2, page_size: 2 } }));
    expect(second).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(second.list.map((a: { id: string }) => a.id)).toEqual([chatApp]);
    expect(expectOk(await web(h, f.u.member.token, 'GET', '/portal', { query: { mode: 'workflow' } })).list.map((a: { id: string }) => a.id)).toEqual([flowApp]);
    expect(expectOk(await web(h, f.u.member.token, 'GET', '/portal', { query: { keyword: 'helpd' } })).list.map((a: { id: string }) => a.id)).toEqual([chatApp]);
  });

  it('a tenant user outside the space sees only the portal app; another tenant sees nothing', async () => {
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/portal')).list.map((a: { id: string }) => a.id)).toEqual([slowApp, chatApp]);
    expect(expectOk(await web(h, f.u.foreign.token, 'GET', '/portal'))).toMatchObject({ list: [], total: 0 });
  });

  it('opens an app with its features, start form and conversation variables; anything not distributed to the user is VALIDATION-1000', async () => {
    const detail = expectOk(await web(h, f.u.outsider.token, 'GET', `/portal/${chatApp}`));
    expect(detail).toMatchObject({ id: chatApp, name: 'Helpdesk', mode: 'chatflow', version: 'v1', platform: 'portal', inputs: [], conversation_variables: [] });
    expect(detail.features).toMatchObject({ opening_statement: 'Hi there', suggested_questions: ['a?', 'b?'], suggested_questions_random_count: 1, citations: true, feedback: true });
    const form = expectOk(await web(h, f.u.member.token, 'GET', `/portal/${flowApp}`));
    expect(form.inputs.map((i: { name: string; type: string; required: boolean }) => [i.name, i.type, i.required])).toEqual([
      ['word', 'text', true],
      ['count', 'number', false],
      ['color', 'select', false],
    ]);
    // A renamed app shows its new name at once (the embedded database's cached access rows are dropped).
    expectOk(await h.call('PUT', '/api/v1/console/apps', { ...owner(), body: { id: chatApp, name: 'Help desk', description: 'Ask us' } }));
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/portal/${chatApp}`))).toMatchObject({ name: 'Help desk', description: 'Ask us' });
    expectOk(await h.call('PUT', '/api/v1/console/apps', { ...owner(), body: { id: chatApp, name: 'Helpdesk', description: 'Helpdesk' } }));
    expectCode(await web(h, f.u.outsider.token, 'GET', `/portal/${flowApp}`), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.foreign.token, 'GET', `/portal/${chatApp}`), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.member.token, 'GET', '/portal/not-an-id'), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.foreign.token, 'POST', `/portal/${chatApp}/chat-messages`, { body: { query: 'hi' } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.outsider.token, 'POST', `/portal/${flowApp}/workflow-runs`, { body: { inputs: { word: 'x' } } }), 400, 'VALIDATION-1000');
    // No token: AUTH-1001 like every other group.
    expectCode(await h.call('GET', '/api/v1/web/portal'), 401, 'AUTH-1001');
  });
});

describe('chat on the distributed version', () => {
  let conversationId = '';
  let runId = '';
  let firstStream = '';

  it('streams the answer of v1 (a newer v2 is published but not distributed), then message_end', async () => {
    const events = await chat(f.u.outsider.token, chatApp, { query: 'Say hello' });
    firstStream = lastStream;
    const created = events[0] as Extract<RunStreamEvent, { type: 'run_created' }>;
    expect(created).toMatchObject({ type: 'run_created', runId: expect.any(String), conversationId: expect.any(String), messageId: expect.any(String) });
    conversationId = created.conversationId!;
    runId = created.runId;
    expect(events.at(-2)).toMatchObject({ type: 'run_finished', answer: 'Bot v1: Hello, world.' });
    // The end user's view of the run: the answer streams; the nodes' progress shows, not their data.
    expect(events.filter((e) => e.type === 'answer_chunk').map((e) => (e as { text: string }).text)).toEqual(['Bot v1: ', 'Hel', 'lo', ', wor', 'ld', '.']);
    expect(events.some((e) => e.type === 'node_chunk')).toBe(false);
    const nodes = events.filter((e) => e.type === 'node_started' || e.type === 'node_finished') as { type: string; nodeId: string; inputs: unknown; outputs?: unknown }[];
    expect(nodes.map((e) => [e.type, e.nodeId])).toEqual([
      ['node_started', 's'],
      ['node_finished', 's'],
      ['node_started', 'llm'],
      ['node_finished', 'llm'],
      ['node_started', 'ans'],
      ['node_finished', 'ans'],
    ]);
    for (const e of nodes) expect([e.inputs, e.outputs ?? {}]).toEqual([{}, {}]);
    expect(events.at(-1)).toEqual({
      type: 'message_end',
      messageId: created.messageId,
      conversationId,
      citations: [],
      usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 },
    });
    // The second message keeps the conversation (memory of the first turn reaches the model).
    const next = await chat(f.u.outsider.token, chatApp, { query: 'Again', conversation_id: conversationId });
    expect((next.at(-2) as Msg).answer).toBe('Bot v1: Hello, world.');
    expect(fake.requests.at(-1)!.body.messages.map((m: { role: string; content: string }) => m.content)).toEqual(['Be brief.', 'Say hello', 'Bot v1: Hello, world.', 'Again']);
  });

  it("numbers the frames as the run's event log does, which holds no node_chunk (never shown to the end user)", async () => {
    const frames = firstStream
      .split('\n\n')
      .filter((x) => x.trim())
      .map((x) => ({ id: Number(/^id: (\d+)$/m.exec(x)![1]), type: (JSON.parse(/^data: (.*)$/m.exec(x)![1]) as { type: string }).type }));
    await runEventLog(h.studio.ctx).flush();
    const logged = await h.studio.ctx.db
      .select({ seq: runEvents.seq, type: sql<string>`${runEvents.event}->>'type'` })
      .from(runEvents)
      .where(eq(runEvents.runId, runId))
      .orderBy(asc(runEvents.seq));
    expect(logged.some((x) => x.type === 'node_chunk')).toBe(false);
    // Every logged event is a frame with its number (0, 1, 2… without gaps), then message_end after the last.
    expect(frames.map((x) => [x.id, x.type])).toEqual([...logged.map((x) => [x.seq, x.type]), [logged.length, 'message_end']]);
    expect(logged.map((x) => x.seq)).toEqual(logged.map((_, i) => i));
  });

  it("stores the run with source portal and the version; the app's log lists it and filters by source", async () => {
    const [row] = await h.studio.ctx.db.select().from(runs).where(eq(runs.id, runId));
    expect(row).toMatchObject({ source: 'portal', createdBy: f.u.outsider.id, conversationId, status: 'succeeded' });
    const log = expectOk(await h.call('GET', `/api/v1/console/apps/${chatApp}/runs`, { token: f.u.member.token, workspaceId: f.wsA, query: { source: 'portal' } }));
    expect(log.total).toBe(2);
    expect(log.list.at(-1)).toMatchObject({ id: runId, source: 'portal', version: 'v1', query: 'Say hello', created_by: f.u.outsider.id });
    expect(expectOk(await h.call('GET', `/api/v1/console/apps/${chatApp}/runs`, { token: f.u.member.token, workspaceId: f.wsA, query: { source: 'draft' } })).total).toBe(0);
  });

  it('refuses the conversation of another user (VALIDATION-1000) and the stop of their run', async () => {
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${chatApp}/chat-messages`, { body: { query: 'hi', conversation_id: conversationId } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${chatApp}/runs/${runId}/stop`), 400, 'VALIDATION-1000');
    expect(expectOk(await web(h, f.u.outsider.token, 'POST', `/portal/${chatApp}/runs/${runId}/stop`))).toEqual({ stopped: false });
    // A chat message to a workflow app, and a workflow run of a chat app: VALIDATION-1000.
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${flowApp}/chat-messages`, { body: { query: 'hi' } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${chatApp}/workflow-runs`, { body: { inputs: {} } }), 400, 'VALIDATION-1000');
  });

  it('lists the usage records of the user only, 10 a page by default', async () => {
    for (let i = 0; i < 9; i++) await chat(f.u.outsider.token, chatApp, { query: `more ${i}`, conversation_id: conversationId });
    const usage = expectOk(await web(h, f.u.outsider.token, 'GET', '/usage-records'));
    expect(usage).toMatchObject({ total: 11, page: 1, page_size: 10 });
    expect(usage.list).toHaveLength(10);
    expect(usage.list[0]).toMatchObject({ app_id: chatApp, app_name: 'Helpdesk', app_mode: 'chatflow', source: 'portal', conversation_id: conversationId, status: 'succeeded', query: 'more 8' });
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/usage-records', { query: { page: 2 } })).list).toHaveLength(1);
    const legacy = expectOk(await web(h, f.u.outsider.token, 'GET', '/usage-record/list'));
    expect(legacy.list.map((r: { id: string }) => r.id)).toEqual(usage.list.map((r: { id: string }) => r.id));
    expect(expectOk(await web(h, f.u.foreign.token, 'GET', '/usage-records')).total).toBe(0);
    expectCode(await web(h, f.u.outsider.token, 'GET', '/usage-records', { query: { page_size: 5000 } }), 400, 'VALIDATION-1009');
  });
});

describe('stop', () => {
  it("stops the user's own running run; another user's stop is refused and the run goes on", async () => {
    const res = await fetch(`${base}/api/v1/web/portal/${slowApp}/chat-messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.u.outsider.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'long story' }),
    });
    expect(res.status).toBe(200);
    const events: { type: string; text?: string; status?: string; runId?: string }[] = [];
    let runId = '';
    for await (const e of readSse(res.body!)) {
      events.push(e as never);
      if (e.type === 'run_created') runId = e.runId;
      if (e.type === 'answer_chunk' && e.text === 't1 ') {
        expectCode(await web(h, f.u.member.token, 'POST', `/portal/${slowApp}/runs/${runId}/stop`), 400, 'VALIDATION-1000');
        expectCode(await web(h, f.u.foreign.token, 'POST', `/portal/${slowApp}/runs/${runId}/stop`), 400, 'VALIDATION-1000');
      }
      if (e.type === 'answer_chunk' && e.text === 't3 ') expect(expectOk(await web(h, f.u.outsider.token, 'POST', `/portal/${slowApp}/runs/${runId}/stop`))).toEqual({ stopped: true });
    }
    const said = events.filter((e) => e.type === 'answer_chunk').length;
    expect(said).toBeGreaterThanOrEqual(4);
    expect(said).toBeLessThan(40);
    expect(events.at(-2)).toMatchObject({ type: 'run_failed', status: 'stopped' });
    expect(events.at(-1)).toMatchObject({ type: 'message_end' });
    const [row] = await h.studio.ctx.db.select().from(runs).where(eq(runs.id, runId));
    expect(row).toMatchObject({ status: 'stopped', source: 'portal' });
  });
});

describe('workflow runs with the form', () => {
  it('refuses bad inputs before anything is written', async () => {
    const count = async () => (await h.studio.ctx.db.select({ id: runs.id }).from(runs).where(eq(runs.appId, flowApp))).length;
    const before = await count();
    for (const inputs of [{}, { word: 'x', other: 1 }, { word: 'x', count: 'many' }, { word: 'x', color: 'green' }, { word: { file_id: 'nope' } }]) {
      const r = await web(h, f.u.member.token, 'POST', `/portal/${flowApp}/workflow-runs`, { body: { inputs } });
      expectCode(r, 400, 'VALIDATION-1000');
    }
    const missing = await web(h, f.u.member.token, 'POST', `/portal/${flowApp}/workflow-runs`, { body: { inputs: { color: 'green' } } });
    expect(missing.body.data).toEqual([
      { path: 'body/inputs/word', message: 'is required' },
      { path: 'body/inputs/color', message: 'is not one of its options (red, blue)' },
    ]);
    expect(await count()).toBe(before);
  });

  it("runs with the form's values, lists the user's runs and shows a run's steps by title and state", async () => {
    const r = await web(h, f.u.member.token, 'POST', `/portal/${flowApp}/workflow-runs`, { body: { inputs: { word: 'sky', count: '3', color: 'blue' } } });
    expectStatus(r, 200);
    const events = parseSse(r.raw.body);
    const created = events[0] as Extract<RunStreamEvent, { type: 'run_created' }>;
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', outputs: { said: 'sky in blue' } });
    const list = expectOk(await web(h, f.u.member.token, 'GET', `/portal/${flowApp}/runs`));
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ id: created.runId, status: 'succeeded', inputs: { word: 'sky', count: 3, color: 'blue' }, outputs: { said: 'sky in blue' }, steps: [] });
    const detail = expectOk(await web(h, f.u.member.token, 'GET', `/portal/${flowApp}/runs/${created.runId}`));
    expect(detail.steps.map((s: { node_id: string; title: string; status: string }) => [s.node_id, s.title, s.status])).toEqual([
      ['s', 's', 'succeeded'],
      ['t', 'Say it', 'succeeded'],
      ['e', 'e', 'succeeded'],
    ]);
    expect(detail.steps[0]).not.toHaveProperty('outputs');
    // Someone else's run: VALIDATION-1000; their list is empty.
    expectCode(await web(h, f.u.admin.token, 'GET', `/portal/${flowApp}/runs/${created.runId}`), 400, 'VALIDATION-1000');
    expect(expectOk(await web(h, f.u.admin.token, 'GET', `/portal/${flowApp}/runs`)).total).toBe(0);
    // The app's log shows the portal run's inputs and outputs.
    const log = expectOk(await h.call('GET', `/api/v1/console/apps/${flowApp}/runs`, { ...owner(), query: { source: 'portal' } }));
    expect(log.list[0]).toMatchObject({ source: 'portal', version: 'f1', inputs: { word: 'sky', count: 3, color: 'blue' }, outputs: { said: 'sky in blue' } });
  });
});

describe('citations', () => {
  it('collects the passages of the knowledge-retrieval node, stores them with the message and sends them in message_end', async () => {
    const ds = await createBase(h, f.u.member.token, f.wsA, 'Facts');
    const file = await uploadOk(h, f.u.member.token, f.wsA, 'facts.txt', 'Giant pandas eat bamboo for most of the day.\n\nThe moon orbits the earth.');
    const [{ id: doc }] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file] });
    expect((await waitUnit(h, f.u.member.token, f.wsA, ds, doc)).status).toBe('completed');
    ragApp = await createApp(
      h,
      f.u.member.token,
      f.wsA,
      'Facts bot',
      flow(
        [
          ['s', 'start'],
          ['k', 'knowledge-retrieval', { query: ['sys', 'query'], datasetIds: [ds], retrievalMode: 'hybrid', topK: 1 }],
          ['llm', 'llm', { model: model('openai', 'gpt-4o-mini'), contextEnabled: true, context: ['k', 'result'], prompts: [prompt('user', '{{#context#}} {{#sys.query#}}')] }],
          ['ans', 'answer', { answer: '{{#llm.text#}}' }],
        ],
        [
          ['s', 'k'],
          ['k', 'llm'],
          ['llm', 'ans'],
        ],
        'chatflow',
      ),
    );
    await publish(h, owner(), ragApp, '1');
    await distribute(h, owner(), ragApp, 'portal');
    const events = await chat(f.u.outsider.token, ragApp, { query: 'What do pandas eat?' });
    const end = events.at(-1) as { type: string; citations: { dataset_name: string; document_name: string; content: string; score: number }[]; messageId: string; conversationId: string };
    expect(end.type).toBe('message_end');
    expect(end.citations).toHaveLength(1);
    expect(end.citations[0]).toMatchObject({ dataset_id: ds, dataset_name: 'Facts', document_id: doc, document_name: 'facts.txt', content: expect.stringContaining('pandas'), score: expect.any(Number) });
    const messages = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${end.conversationId}/messages`));
    expect(messages.list[0].citations).toEqual(end.citations);

    // With the app's citations feature off, the passages are stored but not shown: not in message_end, not in the messages.
    const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${ragApp}/workflow`, owner()));
    await saveDraft(h, f.u.owner.token, f.wsA, ragApp, { ...draft.document, features: { citations: false } });
    const v2 = await publish(h, owner(), ragApp, '2');
    const [{ distribution }] = (expectOk(await h.call('GET', DIST(ragApp), owner())).platforms as { platform: string; distribution: { id: string } }[]).filter((p) => p.platform === 'portal');
    expectOk(await h.call('PUT', DIST(ragApp), { ...owner(), body: { id: distribution.id, version_id: v2.id } }));
    const hidden = (await chat(f.u.outsider.token, ragApp, { query: 'What do pandas eat?' })).at(-1) as typeof end;
    expect(hidden).toMatchObject({ type: 'message_end', citations: [] });
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${hidden.conversationId}/messages`)).list[0].citations).toEqual([]);
    const [stored] = await h.studio.ctx.db.select({ citations: messagesTable.citations }).from(messagesTable).where(eq(messagesTable.id, hidden.messageId));
    expect(stored.citations).toHaveLength(1);
  });
});

describe('a user who lost access', () => {
  it('keeps listing and reading their conversations (accessible: false) but cannot send; distributing again restores it', async () => {
    const [conv] = expectOk(await web(h, f.u.outsider.token, 'GET', '/conversations', { query: { app_id: chatApp } })).list;
    expect(conv.accessible).toBe(true);
    await cancel(h, owner(), chatApp, 'portal');
    const after = expectOk(await web(h, f.u.outsider.token, 'GET', '/conversations', { query: { app_id: chatApp } })).list[0];
    expect(after).toMatchObject({ id: conv.id, accessible: false, message_count: 11 });
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${conv.id}`)).accessible).toBe(false);
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${conv.id}/messages`)).list).toHaveLength(11);
    expectCode(await web(h, f.u.outsider.token, 'POST', `/portal/${chatApp}/chat-messages`, { body: { query: 'still there?', conversation_id: conv.id } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.outsider.token, 'GET', `/portal/${chatApp}`), 400, 'VALIDATION-1000');
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/portal')).list.map((a: { id: string }) => a.id)).not.toContain(chatApp);
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/usage-records')).total).toBeGreaterThanOrEqual(11);

    await distribute(h, owner(), chatApp, 'portal');
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${conv.id}`)).accessible).toBe(true);
    // Distributed again at the newest version (v2).
    const events = await chat(f.u.outsider.token, chatApp, { query: 'back', conversation_id: conv.id });
    expect((events.at(-2) as Msg).answer).toBe('Bot v2: Hello, world.');
  });

  it('a member removed from the space loses a current_project app', async () => {
    expect(expectOk(await web(h, f.u.admin.token, 'GET', '/portal')).list.map((a: { id: string }) => a.id)).toContain(flowApp);
    const members = expectOk(await h.call('GET', `/api/v1/console/workspaces/${f.wsA}/members`, owner()));
    const admin = members.items.find((m: { user_id: string; id: string }) => m.user_id === f.u.admin.id);
    expectOk(await h.call('DELETE', `/api/v1/console/workspaces/${f.wsA}/members/${admin.id}`, owner()));
    expect(expectOk(await web(h, f.u.admin.token, 'GET', '/portal')).list.map((a: { id: string }) => a.id)).not.toContain(flowApp);
    expectCode(await web(h, f.u.admin.token, 'POST', `/portal/${flowApp}/workflow-runs`, { body: { inputs: { word: 'x' } } }), 400, 'VALIDATION-1000');
  });
});

describe('database round trips of a message', () => {
  it("a new conversation's message: no memory read, no transaction; its rows in at most three statements", async () => {
    const seen = await countStatements(h, async () => {
      const events = await chat(f.u.member.token, chatApp, { query: 'Count my statements' });
      expect(events.at(-1)).toMatchObject({ type: 'message_end' });
    });
    const rows = seen.texts.filter((t) => /"?(runs|messages|conversations|node_executions)"?\b/i.test(t));
    expect(seen.transactions, rows.join('\n')).toBe(0);
    // Reads of other tables that name runs (the overview's background keeper: `from apps a where exists
    // (select 1 from runs …)`) may fall in the window on a server shared with background work.
    expect(rows.filter((t) => /^\s*select[\s\S]*?\bfrom\s+"?(messages|conversations)"?\b/i.test(t)), 'memory of a conversation that has no message yet').toEqual([]);
    const writes = rows.filter((t) => !/^\s*select/i.test(t));
    expect(writes.length, writes.join('\n')).toBeLessThanOrEqual(3);
    // Everything is stored: the run, its node rows, the message with its answer.
    const created = await h.studio.ctx.db.select().from(messagesTable).where(eq(messagesTable.createdBy, f.u.member.id));
    expect(created.find((m) => m.query === 'Count my statements')).toMatchObject({ status: 'succeeded', answer: 'Bot v2: Hello, world.' });
  });

  // Issues 21/34: each read the first token waits for is a round trip (on the embedded database, a wait
  // behind the other streams' writes). The app's character is part of the app as the portal reached it.
  it("a message reads no character of its own: the app's persona comes with the app, and a change reaches the next message", async () => {
    const system = () => (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'system').map((m) => m.content).join('\n');
    const member = { token: f.u.member.token, workspaceId: f.wsA };
    const c = expectOk(await h.call('POST', '/api/v1/console/characters', { ...member, body: { name: 'Clerk', persona: 'You are Clerk.' } }));
    expectOk(await h.call('PUT', `/api/v1/console/apps/${chatApp}/digital-human`, { ...member, body: { kind: 'conversation', character_id: c.id } }));
    const seen = await countStatements(h, async () => {
      expect((await chat(f.u.member.token, chatApp, { query: 'Who are you?' })).at(-1)).toMatchObject({ type: 'message_end' });
    });
    expect(system()).toContain('You are Clerk.');
    const own = seen.texts.filter((t) => /^\s*select[^(]*?\bfrom\s+"?(digital_human_apps|characters)"?/i.test(t));
    expect(own, 'a read of the character on its own').toEqual([]);
    // A new persona, then no character: each reaches the very next message (every process drops its cached app).
    expectOk(await h.call('PUT', '/api/v1/console/characters', { ...member, body: { id: c.id, persona: 'You are Clerk, now terse.' } }));
    await chat(f.u.member.token, chatApp, { query: 'And now?' });
    expect(system()).toContain('You are Clerk, now terse.');
    expectOk(await h.call('DELETE', `/api/v1/console/apps/${chatApp}/digital-human`, member));
    await chat(f.u.member.token, chatApp, { query: 'And without?' });
    expect(system()).not.toContain('Clerk');
  });

  it('on the embedded database a message long after the last reads no caller, model or network policy: only a change drops them; on a server their expiry bounds a missed notice', async () => {
    await chat(f.u.member.token, chatApp, { query: 'Warm' });
    // 30 s later (without waiting them): past every cache's expiry (1–5 s).
    const real = Date.now.bind(Date);
    const later = vi.spyOn(Date, 'now').mockImplementation(() => real() + 30_000);
    let seen: Awaited<ReturnType<typeof countStatements>>;
    try {
      seen = await countStatements(h, async () => {
        expect((await chat(f.u.member.token, chatApp, { query: 'Later' })).at(-1)).toMatchObject({ type: 'message_end' });
      });
    } finally {
      later.mockRestore();
    }
    const reads = seen.texts.filter((t) => /^\s*select[^(]*?\bfrom\s+"?(users|model_provider_credentials|custom_models|model_settings|system_settings)"?/i.test(t));
    if (h.studio.ctx.exclusiveDb) expect(reads, 'one process owns the embedded database: nothing changes unseen').toEqual([]);
    else expect(reads.some((t) => /\bfrom\s+"?users"?/i.test(t)), 'the caller read again after its expiry').toBe(true);
  });

  it("a conversation's message reads the conversation and its last inputs in one statement, and reuses those inputs", async () => {
    const doc = chatDoc('Topical');
    doc.nodes[0].config = { variables: [textInput('topic')] };
    const app = await createApp(h, f.u.member.token, f.wsA, 'Topical', doc);
    await distribute(h, owner(), app, 'portal', (await publish(h, owner(), app, 't1')).id);
    const first = await chat(f.u.member.token, app, { query: 'Start', inputs: { topic: 'cats' } });
    const { conversationId } = first.at(-1) as { conversationId: string };
    const seen = await countStatements(h, async () => {
      // No inputs: the required topic comes from the conversation's last run.
      expect((await chat(f.u.member.token, app, { query: 'Go on', conversation_id: conversationId })).at(-1)).toMatchObject({ type: 'message_end' });
    });
    const lastInputs = seen.texts.filter((t) => /^\s*select\s+"?inputs"?\s+from\s+"?runs"?/i.test(t));
    expect(lastInputs, 'the last inputs read on their own').toEqual([]);
    const stored = await h.studio.ctx.db.select({ inputs: runs.inputs }).from(runs).where(eq(runs.conversationId, conversationId));
    expect(stored.map((r) => r.inputs)).toEqual([{ topic: 'cats' }, { topic: 'cats' }]);
  });
});
