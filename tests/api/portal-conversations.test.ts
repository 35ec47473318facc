import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../schemas/flow';
import type { FakeServer } from './fake-providers';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { suggestFollowUps } from '../../src/server/runs/suggest';
import { multipartBody, useTempDataDir } from './knowledge-kit';
import { distribute, expectStatus, modelProvider, publish, web, WEB } from './portal-kit';
import { createApp, flow, model, parseSse, prompt } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The portal's sessions (issue 21): a user's own conversations (rename, pin, groups, persona,
// delete), messages paged upwards, feedback, regenerate, follow-up suggestions, attachments within
// the app's limits, and conversation variables kept per conversation. Another user's conversation,
// message or group answers VALIDATION-1000 on every route.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let fake: FakeServer;
let bot = '';
let memo = '';

const owner = () => ({ token: f.u.owner.token, workspaceId: f.wsA });
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** An LLM chatflow taking one image per message, with follow-up suggestions. */
const botDoc: FlowDocument = {
  ...flow(
    [
      ['s', 'start'],
      ['llm', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('system', 'Be brief.'), prompt('user', '{{#sys.query#}}')] }],
      ['ans', 'answer', { answer: '{{#llm.text#}}' }],
    ],
    [
      ['s', 'llm'],
      ['llm', 'ans'],
    ],
    'chatflow',
  ),
  features: { suggested_questions_after_answer: true, file_upload: { enabled: true, types: ['image'], max_count: 1, image_detail: 'low' } } as never,
};

/** No model: says the conversation's previous question, then remembers this one (a conversation variable). No feedback. */
const memoDoc: FlowDocument = {
  ...flow(
    [
      ['s', 'start'],
      ['ans', 'answer', { answer: 'prev={{#conversation.last#}}' }],
      ['as', 'variable-assigner', { assignments: [{ target: ['conversation', 'last'], operation: 'over-write', source: 'variable', selector: ['sys', 'query'] }] }],
    ],
    [
      ['s', 'ans'],
      ['ans', 'as'],
    ],
    'chatflow',
    { conversation: [{ id: 'v1', name: 'last', type: 'string', value: '', description: 'The last question' }] },
  ),
  features: { feedback: false } as never,
};

type Created = { type: 'run_created'; runId: string; conversationId: string; messageId: string };

async function chat(token: string, appId: string, body: Record<string, unknown>) {
  const r = await web(h, token, 'POST', `/portal/${appId}/chat-messages`, { body });
  expectStatus(r, 200);
  const events = parseSse(r.raw.body) as unknown as { type: string; answer?: string }[];
  return { created: events[0] as unknown as Created, finished: events.at(-2)!, end: events.at(-1)! };
}

async function uploadFile(token: string, name: string, bytes: Buffer | string) {
  const { payload, contentType } = await multipartBody({}, { name, bytes });
  return h.call('POST', `${WEB}/files/upload`, { token, body: payload, headers: { 'content-type': contentType } });
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'sessions');
  fake = await modelProvider(h);
  bot = await createApp(h, f.u.member.token, f.wsA, 'Bot', botDoc);
  memo = await createApp(h, f.u.member.token, f.wsA, 'Memo', memoDoc);
  for (const app of [bot, memo]) {
    await publish(h, owner(), app, '1.0');
    await distribute(h, owner(), app, 'portal');
  }
});
afterAll(() => fake?.close());

describe('the sessions page', () => {
  let c1 = '';
  let c2 = '';

  it('renames, pins (pinned first), sets a persona that reaches the model, and deletes', async () => {
    c1 = (await chat(f.u.outsider.token, bot, { query: 'First chat' })).created.conversationId;
    c2 = (await chat(f.u.outsider.token, bot, { query: 'Second chat' })).created.conversationId;
    const list = async (query = {}) => expectOk(await web(h, f.u.outsider.token, 'GET', '/conversations', { query })).list as { id: string; name: string; pinned: boolean; group_id: string | null; persona: string; message_count: number; app_name: string }[];
    expect((await list()).map((c) => [c.id, c.name, c.message_count, c.app_name])).toEqual([
      [c2, 'Second chat', 1, 'Bot'],
      [c1, 'First chat', 1, 'Bot'],
    ]);
    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: { name: 'Renamed', pinned: true } }))).toMatchObject({ id: c1, name: 'Renamed', pinned: true });
    expect((await list()).map((c) => c.id)).toEqual([c1, c2]);
    expect((await list({ keyword: 'renam' })).map((c) => c.id)).toEqual([c1]);
    expectCode(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: {} }), 400, 'VALIDATION-1012');
    expectCode(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: { name: '' } }), 400, 'VALIDATION-1000');

    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: { persona: 'You are a cheerful pirate.' } })).persona).toBe('You are a cheerful pirate.');
    await chat(f.u.outsider.token, bot, { query: 'Ahoy?', conversation_id: c1 });
    expect(fake.requests.at(-1)!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.\n\nYou are a cheerful pirate.' });
    await chat(f.u.outsider.token, bot, { query: 'Plain', conversation_id: c2 });
    expect(fake.requests.at(-1)!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });

    expectOk(await web(h, f.u.outsider.token, 'DELETE', `/conversations/${c2}`));
    expect((await list()).map((c) => c.id)).toEqual([c1]);
    expectCode(await web(h, f.u.outsider.token, 'GET', `/conversations/${c2}/messages`), 400, 'VALIDATION-1000');
  });

  it("groups the user's conversations: create, unique names, move in and out, rename, delete", async () => {
    const g = expectOk(await web(h, f.u.outsider.token, 'POST', '/groups', { body: { name: 'Work' } }));
    expect(g).toMatchObject({ name: 'Work', conversation_count: 0 });
    expectCode(await web(h, f.u.outsider.token, 'POST', '/groups', { body: { name: 'work' } }), 400, 'VALIDATION-1001');
    expectCode(await web(h, f.u.outsider.token, 'POST', '/groups', { body: { name: '' } }), 400, 'VALIDATION-1000');
    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: { group_id: g.id } })).group_id).toBe(g.id);
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/groups'))).toEqual([{ ...g, conversation_count: 1 }]);
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/conversations', { query: { group_id: g.id } })).total).toBe(1);
    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/groups/${g.id}`, { body: { name: 'Office' } })).name).toBe('Office');
    // Another user's group cannot be used, renamed or deleted.
    const theirs = expectOk(await web(h, f.u.member.token, 'POST', '/groups', { body: { name: 'Mine' } }));
    expectCode(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: { group_id: theirs.id } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.outsider.token, 'PUT', `/groups/${theirs.id}`, { body: { name: 'Taken' } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.outsider.token, 'DELETE', `/groups/${theirs.id}`), 400, 'VALIDATION-1000');
    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: { group_id: null } })).group_id).toBeNull();
    expectOk(await web(h, f.u.outsider.token, 'PUT', `/conversations/${c1}`, { body: { group_id: g.id } }));
    expectOk(await web(h, f.u.outsider.token, 'DELETE', `/groups/${g.id}`));
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}`)).group_id).toBeNull();
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/groups'))).toEqual([]);
  });

  it('pages messages upwards: newest first, before_id for the page above', async () => {
    const first = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`, { query: { limit: 1 } }));
    expect(first).toMatchObject({ has_more: true });
    expect(first.list.map((m: { query: string }) => m.query)).toEqual(['Ahoy?']);
    const above = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`, { query: { limit: 1, before_id: first.list[0].id } }));
    expect(above).toMatchObject({ has_more: false, list: [{ query: 'First chat', answer: 'Hello, world', status: 'succeeded', feedback: null, citations: [] }] });
    expectCode(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`, { query: { before_id: MISSING } }), 400, 'VALIDATION-1000');
  });

  it('stores like and dislike with the message (null takes it back); an app without feedback refuses it', async () => {
    const [last] = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`, { query: { limit: 1 } })).list;
    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/messages/${last.id}/feedback`, { body: { rating: 'like' } })).feedback).toBe('like');
    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/messages/${last.id}/feedback`, { body: { rating: 'dislike' } })).feedback).toBe('dislike');
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`, { query: { limit: 1 } })).list[0].feedback).toBe('dislike');
    expect(expectOk(await web(h, f.u.outsider.token, 'PUT', `/messages/${last.id}/feedback`, { body: { rating: null } })).feedback).toBeNull();
    expectCode(await web(h, f.u.outsider.token, 'PUT', `/messages/${last.id}/feedback`, { body: { rating: 'love' } }), 400, 'VALIDATION-1000');
    const m = await chat(f.u.outsider.token, memo, { query: 'note' });
    expectCode(await web(h, f.u.outsider.token, 'PUT', `/messages/${m.created.messageId}/feedback`, { body: { rating: 'like' } }), 400, 'VALIDATION-1000');
  });

  it('regenerates the last answer in place; an earlier message cannot be regenerated', async () => {
    const before = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`)).list as { id: string; query: string }[];
    expectCode(await web(h, f.u.outsider.token, 'POST', `/portal/${bot}/chat-messages`, { body: { query: 'x', conversation_id: c1, regenerate_message_id: before[1].id } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.outsider.token, 'POST', `/portal/${bot}/chat-messages`, { body: { query: 'x', regenerate_message_id: before[0].id } }), 400, 'VALIDATION-1000');
    const again = await chat(f.u.outsider.token, bot, { query: 'ignored', conversation_id: c1, regenerate_message_id: before[0].id });
    expect(again.finished).toMatchObject({ type: 'run_finished', answer: 'Hello, world' });
    const after = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`)).list as { id: string; query: string }[];
    expect(after.map((m) => m.query)).toEqual(before.map((m) => m.query));
    expect(after[0].id).toBe(again.created.messageId);
    expect(after[0].id).not.toBe(before[0].id);
    // The replaced answer is not in the memory the model got.
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Ahoy?' });
  });

  it('suggests follow-up questions with the app\'s model when the feature is on, none otherwise', async () => {
    const [last] = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`, { query: { limit: 1 } })).list;
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/messages/${last.id}/suggested`))).toEqual({ questions: ['Hello, world'] });
    expect(fake.requests.at(-1)!.body.messages[0].content).toContain('follow-up questions');
    const m = await chat(f.u.outsider.token, memo, { query: 'hello' });
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/messages/${m.created.messageId}/suggested`))).toEqual({ questions: [] });
    // A model the tenant has not configured, or no model at all: an empty list, not an error.
    const turn = { query: 'q', answer: 'a' };
    const unconfigured = { ...botDoc, nodes: botDoc.nodes.map((n) => (n.id === 'llm' ? { ...n, config: { ...n.config, model: model('anthropic', 'claude-3-5-haiku-latest') } } : n)) };
    expect(await suggestFollowUps(h.studio.ctx, DEFAULT_TENANT_ID, unconfigured, turn)).toEqual([]);
    expect(await suggestFollowUps(h.studio.ctx, DEFAULT_TENANT_ID, memoDoc, turn)).toEqual([]);
  });

  it('refuses every conversation and message route to another user with VALIDATION-1000', async () => {
    const [msg] = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}/messages`, { query: { limit: 1 } })).list;
    for (const who of [f.u.member.token, f.u.foreign.token]) {
      expectCode(await web(h, who, 'GET', `/conversations/${c1}`), 400, 'VALIDATION-1000');
      expectCode(await web(h, who, 'GET', '/conversation/find', { query: { conversation_id: c1 } }), 400, 'VALIDATION-1000');
      expectCode(await web(h, who, 'PUT', `/conversations/${c1}`, { body: { name: 'Mine now' } }), 400, 'VALIDATION-1000');
      expectCode(await web(h, who, 'DELETE', `/conversations/${c1}`), 400, 'VALIDATION-1000');
      expectCode(await web(h, who, 'GET', `/conversations/${c1}/messages`), 400, 'VALIDATION-1000');
      expectCode(await web(h, who, 'PUT', `/messages/${msg.id}/feedback`, { body: { rating: 'like' } }), 400, 'VALIDATION-1000');
      expectCode(await web(h, who, 'GET', `/messages/${msg.id}/suggested`), 400, 'VALIDATION-1000');
      expectCode(await web(h, who, 'POST', `/portal/${bot}/chat-messages`, { body: { query: 'hi', conversation_id: c1 } }), 400, 'VALIDATION-1000');
      expect(expectOk(await web(h, who, 'GET', '/conversations')).list.map((c: { id: string }) => c.id)).not.toContain(c1);
    }
    // The owner's legacy find answers the same as GET /conversations/{id}.
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', '/conversation/find', { query: { conversation_id: c1 } }))).toEqual(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}`)));
    // Nothing changed for the owner.
    expect(expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${c1}`))).toMatchObject({ name: 'Renamed', message_count: 2 });
  });
});

describe('attachments and conversation variables', () => {
  it("uploads the user's files and takes them within the app's count and kinds only", async () => {
    const img1 = expectOk(await uploadFile(f.u.outsider.token, 'cat.png', PNG));
    const img2 = expectOk(await uploadFile(f.u.outsider.token, 'dog.png', PNG));
    const txt = expectOk(await uploadFile(f.u.outsider.token, 'notes.txt', 'hello'));
    const theirs = expectOk(await uploadFile(f.u.member.token, 'theirs.png', PNG));
    expectCode(await uploadFile(f.u.outsider.token, 'tool.exe', 'MZ'), 400, 'VALIDATION-1000');
    const send = (files: { file_id: string }[], app = bot) => web(h, f.u.outsider.token, 'POST', `/portal/${app}/chat-messages`, { body: { query: 'Look', files } });
    expectCode(await send([{ file_id: img1.id }, { file_id: img2.id }]), 400, 'VALIDATION-1000');
    expectCode(await send([{ file_id: txt.id }]), 400, 'VALIDATION-1000');
    expectCode(await send([{ file_id: theirs.id }]), 400, 'VALIDATION-1000');
    expectCode(await send([{ file_id: MISSING }]), 400, 'VALIDATION-1000');
    expectCode(await send([{ file_id: img1.id }], memo), 400, 'VALIDATION-1000');
    const ok = await send([{ file_id: img1.id }]);
    expectStatus(ok, 200);
    const created = parseSse(ok.raw.body)[0] as unknown as Created;
    const [m] = expectOk(await web(h, f.u.outsider.token, 'GET', `/conversations/${created.conversationId}/messages`)).list;
    expect(m.files).toEqual([{ file_id: img1.id, name: 'cat.png', type: 'image/png' }]);
  });

  it('keeps conversation variables per conversation', async () => {
    const a = await chat(f.u.outsider.token, memo, { query: 'alpha' });
    expect(a.finished).toMatchObject({ answer: 'prev=' });
    const b = await chat(f.u.outsider.token, memo, { query: 'beta', conversation_id: a.created.conversationId });
    expect(b.finished).toMatchObject({ answer: 'prev=alpha' });
    const other = await chat(f.u.outsider.token, memo, { query: 'gamma' });
    expect(other.finished).toMatchObject({ answer: 'prev=' });
    const c = await chat(f.u.outsider.token, memo, { query: 'delta', conversation_id: a.created.conversationId });
    expect(c.finished).toMatchObject({ answer: 'prev=beta' });
  });
});

describe('OpenAPI', () => {
  it('documents every WEB path under its own tags, the legacy ones as deprecated', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    const paths = [
      ['get', '/portal'],
      ['get', '/portal/{portal_id}'],
      ['post', '/portal/{portal_id}/chat-messages'],
      ['post', '/portal/{portal_id}/workflow-runs'],
      ['post', '/portal/{portal_id}/runs/{run_id}/stop'],
      ['get', '/portal/{portal_id}/runs'],
      ['get', '/portal/{portal_id}/runs/{run_id}'],
      ['get', '/conversations'],
      ['get', '/conversations/{conversation_id}'],
      ['put', '/conversations/{conversation_id}'],
      ['delete', '/conversations/{conversation_id}'],
      ['get', '/conversations/{conversation_id}/messages'],
      ['put', '/messages/{message_id}/feedback'],
      ['get', '/messages/{message_id}/suggested'],
      ['get', '/groups'],
      ['post', '/groups'],
      ['put', '/groups/{group_id}'],
      ['delete', '/groups/{group_id}'],
      ['get', '/usage-records'],
      ['post', '/files/upload'],
      ['get', '/usage-record/list'],
      ['get', '/conversation/find'],
    ];
    for (const [method, path] of paths) {
      const op = doc.paths[`/api/v1/web${path}`]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags[0]).toMatch(/^web: /);
      expect(Boolean(op.deprecated), path).toBe(path === '/usage-record/list' || path === '/conversation/find');
    }
    for (const method of ['get', 'post', 'put']) expect(doc.paths['/api/v1/console/apps/{app_id}/distribution'][method].tags).toEqual(['console: app distribution']);
    expect(doc.paths['/api/v1/console/apps/{app_id}/distribution/{distribution_id}'].delete).toBeDefined();
  });
});
