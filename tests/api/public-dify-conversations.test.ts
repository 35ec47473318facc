import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { modelProvider } from './portal-kit';
import { chatFlow, createKey, expectDifyError, publishedApp, sayFlow, v1, type Owner } from './public-kit';
import { textInput } from './runs-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// The Dify-compatible conversation routes (issue 22): conversations of (app, user), rename, delete,
// messages paged upwards, feedback, file upload and its use, the app's parameters and info; another
// user's or another app's conversation answers 404 like a missing one.

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
let chatApp = '';
let key = '';
let otherKey = '';
let flowKey = '';
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });

async function ask(query: string, user: string, conversation_id?: string, extra: Record<string, unknown> = {}) {
  const r = await v1(h, key, 'POST', '/chat-messages', { body: { query, user, ...(conversation_id ? { conversation_id } : {}), ...extra } });
  expect(r.status, r.raw.body).toBe(200);
  return r.body as any;
}

function upload(k: string, user: string | undefined, name: string, content: string) {
  const boundary = '----weft-test';
  const parts = [
    ...(user !== undefined ? [`--${boundary}\r\nContent-Disposition: form-data; name="user"\r\n\r\n${user}\r\n`] : []),
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n`,
    `--${boundary}--\r\n`,
  ];
  return v1(h, k, 'POST', '/files/upload', { body: parts.join(''), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'difyconv');
  fake = await modelProvider(h);
  const doc = chatFlow('Bot', {
    features: {
      opening_statement: 'Hi there',
      suggested_questions: ['What can you do?', 'Who are you?'],
      file_upload: { enabled: true, types: ['document'], max_count: 2, image_detail: 'low' },
    },
  } as never);
  doc.nodes[0]!.config = { variables: [{ ...textInput('topic'), required: false, max_length: 20 }, { name: 'tone', label: 'Tone', type: 'select', required: false, options: ['calm', 'bold'], allowed_extensions: [] }] };
  chatApp = await publishedApp(h, owner(), 'Chatty', doc);
  key = (await createKey(h, owner(), chatApp)).secret;
  const other = await publishedApp(h, owner(), 'Other chat', chatFlow('Other'));
  otherKey = (await createKey(h, owner(), other)).secret;
  flowKey = (await createKey(h, owner(), await publishedApp(h, owner(), 'Flow', sayFlow()))).secret;
});
afterAll(async () => {
  await fake?.close();
});

describe('conversations', () => {
  it('lists the user’s conversations, newest first, paged by last_id; renames; deletes', async () => {
    const a = await ask('first question', 'dave', undefined, { inputs: { topic: 'cats' } });
    const b = await ask('second question', 'dave');
    await ask('someone else', 'erin');
    const page = await v1(h, key, 'GET', '/conversations', { query: { user: 'dave', limit: 1 } });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ limit: 1, has_more: true, data: [{ id: b.conversation_id, name: 'second question', status: 'normal', introduction: '', inputs: {} }] });
    const next = (await v1(h, key, 'GET', '/conversations', { query: { user: 'dave', limit: 1, last_id: b.conversation_id } })).body as any;
    expect(next).toMatchObject({ has_more: false, data: [{ id: a.conversation_id, inputs: { topic: 'cats' } }] });
    const oldestFirst = (await v1(h, key, 'GET', '/conversations', { query: { user: 'dave', sort_by: 'created_at' } })).body as any;
    expect(oldestFirst.data.map((c: { id: string }) => c.id)).toEqual([a.conversation_id, b.conversation_id]);

    const renamed = await v1(h, key, 'POST', `/conversations/${a.conversation_id}/name`, { body: { name: 'Cats', user: 'dave' } });
    expect(renamed.body).toMatchObject({ id: a.conversation_id, name: 'Cats', inputs: { topic: 'cats' }, status: 'normal' });
    const auto = await v1(h, key, 'POST', `/conversations/${a.conversation_id}/name`, { body: { auto_generate: true, user: 'dave' } });
    expect((auto.body as any).name).toBe('first question');
    expectDifyError(await v1(h, key, 'POST', `/conversations/${a.conversation_id}/name`, { body: { user: 'dave' } }), 400, 'VALIDATION-1000');
    expectDifyError(await v1(h, key, 'POST', `/conversations/${a.conversation_id}/name`, { body: { name: 'Mine', user: 'erin' } }), 404, 'VALIDATION-1000');

    expectDifyError(await v1(h, key, 'DELETE', `/conversations/${a.conversation_id}`, { body: { user: 'erin' } }), 404, 'VALIDATION-1000');
    expect((await v1(h, key, 'DELETE', `/conversations/${a.conversation_id}`, { body: { user: 'dave' } })).body).toEqual({ result: 'success' });
    expectDifyError(await v1(h, key, 'GET', '/messages', { query: { conversation_id: a.conversation_id, user: 'dave' } }), 404, 'VALIDATION-1000');
    expect(((await v1(h, key, 'GET', '/conversations', { query: { user: 'dave' } })).body as any).data.map((c: { id: string }) => c.id)).toEqual([b.conversation_id]);
  });

  it('refuses another app’s key on this app’s conversation, and a workflow app’s key (404 / 400)', async () => {
    const c = await ask('private', 'frank');
    expectDifyError(await v1(h, otherKey, 'GET', '/messages', { query: { conversation_id: c.conversation_id, user: 'frank' } }), 404, 'VALIDATION-1000');
    expectDifyError(await v1(h, otherKey, 'POST', '/chat-messages', { body: { query: 'hijack', user: 'frank', conversation_id: c.conversation_id } }), 404, 'VALIDATION-1000');
    expectDifyError(await v1(h, otherKey, 'DELETE', `/conversations/${c.conversation_id}`, { body: { user: 'frank' } }), 404, 'VALIDATION-1000');
    expectDifyError(await v1(h, otherKey, 'POST', `/messages/${c.message_id}/feedbacks`, { body: { rating: 'like', user: 'frank' } }), 404, 'VALIDATION-1000');
    expectDifyError(await v1(h, flowKey, 'GET', '/conversations', { query: { user: 'frank' } }), 400, 'VALIDATION-1000');
    expectDifyError(await v1(h, key, 'GET', '/conversations', { query: { user: 'frank', limit: 101 } }), 400, 'VALIDATION-1000');
    expectDifyError(await v1(h, key, 'GET', '/conversations', {}), 400, 'VALIDATION-1000');
  });
});

describe('messages and feedback', () => {
  it('answers the latest messages oldest first, pages upwards with first_id, and records feedback', async () => {
    const first = await ask('one', 'gina');
    const conv = first.conversation_id;
    for (const q of ['two', 'three']) await ask(q, 'gina', conv);
    const latest = (await v1(h, key, 'GET', '/messages', { query: { conversation_id: conv, user: 'gina', limit: 2 } })).body as any;
    expect(latest).toMatchObject({ limit: 2, has_more: true });
    expect(latest.data.map((m: { query: string }) => m.query)).toEqual(['two', 'three']);
    expect(latest.data[1]).toMatchObject({ conversation_id: conv, answer: 'Bot: Hello, world.', message_files: [], feedback: null, retriever_resources: [], inputs: {} });
    const older = (await v1(h, key, 'GET', '/messages', { query: { conversation_id: conv, user: 'gina', limit: 2, first_id: latest.data[0].id } })).body as any;
    expect(older).toMatchObject({ has_more: false, data: [{ id: first.message_id, query: 'one' }] });

    expect((await v1(h, key, 'POST', `/messages/${first.message_id}/feedbacks`, { body: { rating: 'like', user: 'gina', content: 'nice' } })).body).toEqual({ result: 'success' });
    const after = (await v1(h, key, 'GET', '/messages', { query: { conversation_id: conv, user: 'gina' } })).body as any;
    expect(after.data[0].feedback).toEqual({ rating: 'like' });
    await v1(h, key, 'POST', `/messages/${first.message_id}/feedbacks`, { body: { rating: null, user: 'gina' } });
    expect(((await v1(h, key, 'GET', '/messages', { query: { conversation_id: conv, user: 'gina' } })).body as any).data[0].feedback).toBeNull();
    expectDifyError(await v1(h, key, 'POST', `/messages/${first.message_id}/feedbacks`, { body: { rating: 'like', user: 'hank' } }), 404, 'VALIDATION-1000');
    expectDifyError(await v1(h, key, 'POST', `/messages/${first.message_id}/feedbacks`, { body: { rating: 'great', user: 'gina' } }), 400, 'VALIDATION-1000');
  });
});

describe('files', () => {
  it('uploads a file of the end user, usable in their own message only', async () => {
    const r = await upload(key, 'ivy', 'notes.txt', 'some notes');
    expect(r.status, r.raw.body).toBe(201);
    const file = r.body as any;
    expect(file).toMatchObject({ name: 'notes.txt', size: 10, extension: 'txt', mime_type: 'text/plain', created_by: expect.any(String), created_at: expect.any(Number) });
    const ref = [{ type: 'document', transfer_method: 'local_file', upload_file_id: file.id }];
    const m = await ask('read this', 'ivy', undefined, { files: ref });
    const list = (await v1(h, key, 'GET', '/messages', { query: { conversation_id: m.conversation_id, user: 'ivy' } })).body as any;
    expect(list.data[0].message_files).toEqual([{ id: file.id, type: 'document', url: '', belongs_to: 'user' }]);
    // Another user of the app, or the same user string on another app, cannot use it.
    expectDifyError(await v1(h, key, 'POST', '/chat-messages', { body: { query: 'steal', user: 'jack', files: ref } }), 400, 'VALIDATION-1000');
    expectDifyError(await v1(h, otherKey, 'POST', '/chat-messages', { body: { query: 'steal', user: 'ivy', files: ref } }), 400, 'VALIDATION-1000');
  });

  it('refuses an upload without user or file, or of an unknown kind', async () => {
    expectDifyError(await upload(key, undefined, 'a.txt', 'x'), 400, 'VALIDATION-1000');
    expectDifyError(await upload(key, 'ivy', 'a.exe', 'x'), 400, 'VALIDATION-1000');
    expectDifyError(await v1(h, key, 'POST', '/files/upload', { body: { user: 'ivy' } }), 400, 'VALIDATION-1000');
    // The text rule of every request (schemas/text.ts) holds for multipart fields and file names too.
    expectDifyError(await upload(key, 'iv\u0000y', 'a.txt', 'x'), 400, 'VALIDATION-1000');
    expectDifyError(await upload(key, 'ivy', 'a\u0000.txt', 'x'), 400, 'VALIDATION-1000');
  });
});

describe('GET /v1/parameters and /v1/info', () => {
  it('answers the served version’s opening statement, questions, start form and uploads', async () => {
    const r = await v1(h, key, 'GET', '/parameters');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      opening_statement: 'Hi there',
      suggested_questions: ['What can you do?', 'Who are you?'],
      suggested_questions_after_answer: { enabled: false },
      retriever_resource: { enabled: true },
      user_input_form: [
        { 'text-input': { label: 'topic', variable: 'topic', required: false, default: '', max_length: 20 } },
        { select: { label: 'Tone', variable: 'tone', required: false, default: '', options: ['calm', 'bold'] } },
      ],
      file_upload: { enabled: true, allowed_file_types: ['document'], number_limits: 2, image: { enabled: false } },
      system_parameters: { file_size_limit: 50 },
    });
    expect((await v1(h, flowKey, 'GET', '/parameters')).body).toMatchObject({ user_input_form: [{ 'text-input': { variable: 'word', required: true } }] });
    expect((await v1(h, key, 'GET', '/info')).body).toEqual({ name: 'Chatty', description: 'Chatty', tags: [], mode: 'chatflow' });
  });

  it('checks the start form: too long, not an option, unknown field (VALIDATION-1000)', async () => {
    for (const inputs of [{ topic: 'x'.repeat(21) }, { tone: 'loud' }, { colour: 'red' }]) {
      expectDifyError(await v1(h, key, 'POST', '/chat-messages', { body: { query: 'q', user: 'kim', inputs } }), 400, 'VALIDATION-1000');
    }
  });
});
