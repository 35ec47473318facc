import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../src/api/auth';
import { generatePromptQuestions, optimizePrompt, stopPromptDebug, streamPromptDebug, type PromptDebugEvent } from '../../src/api/prompts';
import { ApiError, configureRequest } from '../../src/api/request';
import { GOOD_KEY } from './fake-providers';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { configureProvider } from './runs-kit';
import { expectCode, expectOk, type Fixture, PASSWORD, setUpWorkspaces, type Who } from './workspace-fixture';

// The prompt debug view's calls (completion-messages and its stop, optimization_prompt,
// generate_question) against the embedded database and a scripted OpenAI-compatible server over
// real HTTP: the answers it streams are chosen by each test.

const h = useStudio();
const URL = '/api/v1/console/prompts';
const MODEL = { provider: 'openai', name: 'gpt-4o-mini' };
let f: Fixture;
let fake: Scripted;
let base: string;

interface Script {
  chunks: string[];
  delayMs?: number;
}

interface Scripted {
  baseUrl: string;
  /** What the next chat requests answer (by the request's messages). */
  answer: (messages: { role: string; content: string }[]) => Script;
  requests: { messages: { role: string; content: string }[] }[];
  /** Streams still being written (a stopped debug run's request is aborted: back to 0). */
  open(): number;
  close(): Promise<void>;
}

/** An OpenAI-compatible chat server streaming the chunks a test scripts, with a pause between them. */
async function scriptedOpenAi(): Promise<Scripted> {
  let open = 0;
  const s: Scripted = {
    baseUrl: '',
    answer: () => ({ chunks: ['ok'] }),
    requests: [],
    open: () => open,
    close: async () => {},
  };
  const server = http.createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'bad key' } }));
    }
    s.requests.push({ messages: body.messages });
    const script = s.answer(body.messages);
    open++;
    let closed = false;
    res.on('close', () => (closed = true));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: unknown, finish_reason: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason }] });
    send(chunk({ role: 'assistant', content: '' }));
    for (const c of script.chunks) {
      if (closed) break;
      send(chunk({ content: c }));
      await new Promise((r) => setTimeout(r, script.delayMs ?? 2));
    }
    if (!closed) {
      send(chunk({}, 'stop'));
      send({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage: { prompt_tokens: 11, completion_tokens: script.chunks.length, total_tokens: 11 + script.chunks.length } });
      res.write('data: [DONE]\n\n');
      res.end();
    }
    open--;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  s.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return s;
}

interface DebugEvent {
  type: string;
  message_id: string;
  [k: string]: any;
}

/** Frames of an SSE body as they arrive. */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<DebugEvent> {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const part of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(part, { stream: true });
    let at: number;
    while ((at = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, at);
      buf = buf.slice(at + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]);
      expect(data.type).toBe(event);
      yield data;
    }
  }
}

function headers(who: Who, ws = f.wsA) {
  return { authorization: `Bearer ${f.u[who].token}`, 'x-workspace-id': ws, 'content-type': 'application/json' };
}

/** Starts a debug run over real HTTP. */
async function debugRun(body: Record<string, unknown>, who: Who = 'member') {
  const res = await fetch(`${base}${URL}/completion-messages`, { method: 'POST', headers: headers(who), body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  return frames(res.body!);
}

async function all(body: Record<string, unknown>, who: Who = 'member') {
  const out: DebugEvent[] = [];
  for await (const e of await debugRun(body, who)) out.push(e);
  return out;
}

const call = (method: string, url: string, who: Who, body?: unknown, ws: string | null = f.wsA) =>
  h.call(method, url, { token: f.u[who].token, workspaceId: ws ?? undefined, body });

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'pdbg');
  fake = await scriptedOpenAi();
  await configureProvider(h, 'openai', fake.baseUrl);
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await fake?.close();
});

describe('POST /console/prompts/completion-messages', () => {
  it('renders an f-string template and streams the answer in order, then the end with usage', async () => {
    fake.answer = () => ({ chunks: ['Bon', 'jour', ', ', 'Ada', '!'] });
    const events = await all({ content: 'Greet {name} in {lang}. {{braces}}', template_type: 'f-string', variables: { name: 'Ada', lang: 'French' }, model: MODEL });
    expect(events[0]).toMatchObject({ type: 'message_created', rendered_prompt: 'Greet Ada in French. {braces}', model: MODEL });
    const id = events[0].message_id;
    expect(events.slice(1, -1)).toEqual(['Bon', 'jour', ', ', 'Ada', '!'].map((text) => ({ type: 'text_chunk', message_id: id, text })));
    expect(events.at(-1)).toMatchObject({
      type: 'message_end',
      message_id: id,
      status: 'succeeded',
      answer: 'Bonjour, Ada!',
      usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 },
    });
    // The rendered prompt is what the model got.
    expect(fake.requests.at(-1)!.messages).toEqual([{ role: 'user', content: 'Greet Ada in French. {braces}' }]);
  });

  it('renders jinja2 (loops, filters) and sends a query after the prompt as the user message', async () => {
    fake.answer = () => ({ chunks: ['fine'] });
    const events = await all({
      content: 'Topics:{% for t in topics.split(",") %} [{{ t | upper }}]{% endfor %} for {{ user }}',
      template_type: 'jinja2',
      variables: { topics: 'a,b', user: 'Bo' },
      model: MODEL,
      query: 'How are you?',
    });
    expect(events[0].rendered_prompt).toBe('Topics: [A] [B] for Bo');
    expect(fake.requests.at(-1)!.messages).toEqual([
      { role: 'system', content: 'Topics: [A] [B] for Bo' },
      { role: 'user', content: 'How are you?' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', status: 'succeeded', answer: 'fine' });
  });

  it('stop ends the stream early; the answer is marked stopped and the provider request is aborted', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `w${i} `);
    fake.answer = () => ({ chunks: long, delayMs: 15 });
    const started = Date.now();
    const seen: DebugEvent[] = [];
    for await (const e of await debugRun({ content: 'Tell a story about {x}', variables: { x: 'cats' }, model: MODEL })) {
      seen.push(e);
      if (e.type === 'text_chunk' && seen.filter((x) => x.type === 'text_chunk').length === 3) {
        // Only the caller who started it may stop it.
        expectCode(await call('POST', `${URL}/completion-messages/${e.message_id}/stop`, 'owner'), 400, 'VALIDATION-1000');
        expect(expectOk(await call('POST', `${URL}/completion-messages/${e.message_id}/stop`, 'member'))).toEqual({ stopped: true });
      }
    }
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ type: 'message_end', status: 'stopped' });
    const chunks = seen.filter((x) => x.type === 'text_chunk');
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.length).toBeLessThan(50);
    expect(last.answer).toBe(chunks.map((c) => c.text).join(''));
    expect(Date.now() - started).toBeLessThan(2500);
    await expect.poll(() => fake.open()).toBe(0);
    // Stopping again: it has ended.
    expect(expectOk(await call('POST', `${URL}/completion-messages/${last.message_id}/stop`, 'member'))).toEqual({ stopped: false });
    expectCode(await call('POST', `${URL}/completion-messages/${last.message_id}/stop`, 'member', undefined, f.wsB), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/completion-messages/not-an-id/stop`, 'member'), 400, 'VALIDATION-1000');
  });

  it('a client that goes away stops the model call', async () => {
    fake.answer = () => ({ chunks: Array.from({ length: 200 }, () => 'x'), delayMs: 15 });
    const controller = new AbortController();
    const res = await fetch(`${base}${URL}/completion-messages`, {
      method: 'POST',
      headers: headers('member'),
      body: JSON.stringify({ content: 'go', model: MODEL }),
      signal: controller.signal,
    });
    const reader = frames(res.body!);
    await reader.next();
    await reader.next();
    controller.abort();
    await expect.poll(() => fake.open(), { timeout: 3000 }).toBe(0);
  });

  it('one user may have 5 debug runs going at once', async () => {
    fake.answer = () => ({ chunks: Array.from({ length: 200 }, () => 'x'), delayMs: 15 });
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    const open = await Promise.all(
      controllers.map((c) => fetch(`${base}${URL}/completion-messages`, { method: 'POST', headers: headers('admin'), body: JSON.stringify({ content: 'go', model: MODEL }), signal: c.signal })),
    );
    expect(open.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await call('POST', `${URL}/completion-messages`, 'admin', { content: 'go', model: MODEL });
    expectCode(sixth, 400, 'VALIDATION-1000');
    expect(sixth.body.msg).toContain('At most 5 debug runs');
    // Someone else is not limited by it.
    const other = await fetch(`${base}${URL}/completion-messages`, { method: 'POST', headers: headers('owner'), body: JSON.stringify({ content: 'go', model: MODEL }), signal: controllers[0].signal });
    expect(other.status).toBe(200);
    for (const c of controllers) c.abort();
    await expect.poll(() => fake.open(), { timeout: 5000 }).toBe(0);
    // The runs that went away free their places.
    fake.answer = () => ({ chunks: ['ok'] });
    await expect.poll(async () => (await call('POST', `${URL}/completion-messages`, 'admin', { content: 'go', model: MODEL })).status, { timeout: 5000 }).toBe(200);
  });

  it('missing variables: VALIDATION-1000 listing them, and the model is not called', async () => {
    const before = fake.requests.length;
    const r = await call('POST', `${URL}/completion-messages`, 'member', { content: 'Hi {a}, {b} and {c}', variables: { b: '' }, model: MODEL });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toContain('a, c');
    expect(r.body.data).toEqual([
      { path: 'body/variables/a', message: expect.any(String) },
      { path: 'body/variables/c', message: expect.any(String) },
    ]);
    // An invalid template answers its position; an unknown field is refused.
    const bad = await call('POST', `${URL}/completion-messages`, 'member', { content: 'Hi {a', variables: { a: 'x' }, model: MODEL });
    expectCode(bad, 400, 'VALIDATION-1000');
    expect(bad.body.data[0]).toMatchObject({ path: 'body/content', line: 1 });
    expectCode(await call('POST', `${URL}/completion-messages`, 'member', { content: 'x', model: MODEL, extra: 1 }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/completion-messages`, 'member', { content: '   ', model: MODEL }), 400, 'VALIDATION-1000');
    expect(fake.requests.length).toBe(before);
  });

  it('wrong workspace: another workspace, another tenant, no header', async () => {
    const body = { content: 'x', model: MODEL };
    expectCode(await call('POST', `${URL}/completion-messages`, 'member', body, f.wsB), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/completion-messages`, 'owner', body, f.wsC), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/completion-messages`, 'foreign', body), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/completion-messages`, 'member', body, null), 400, 'VALIDATION-1008');
    expectCode(await call('POST', `${URL}/optimization_prompt`, 'owner', body, f.wsC), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/generate_question`, 'foreign', body), 400, 'VALIDATION-1000');
  });

  it('no model: a clear VALIDATION-1000; then the prompt’s model and the tenant default are used', async () => {
    const r = await call('POST', `${URL}/completion-messages`, 'member', { content: 'x' });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toContain('No model is configured');
    // A provider without credentials in the tenant, and a model the provider does not have.
    const unconfigured = await call('POST', `${URL}/completion-messages`, 'member', { content: 'x', model: { provider: 'anthropic', name: 'claude-3-5-haiku-latest' } });
    expectCode(unconfigured, 400, 'VALIDATION-1000');
    expect(unconfigured.body.msg).toContain("'anthropic/claude-3-5-haiku-latest' cannot be used");
    expectCode(await call('POST', `${URL}/optimization_prompt`, 'member', { content: 'x', model: { provider: 'openai', name: 'no-such-model' } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/generate_question`, 'member', { content: 'x' }), 400, 'VALIDATION-1000');

    // The stored prompt's model.
    const p = expectOk(await call('POST', URL, 'owner', { name: 'Debugged', content: 'Hello {who}', model: MODEL }));
    fake.answer = () => ({ chunks: ['from prompt'] });
    const events = await all({ prompt_id: p.id, content: 'Hello {who}', variables: { who: 'you' } });
    expect(events[0]).toMatchObject({ model: MODEL });
    expect(events.at(-1)).toMatchObject({ status: 'succeeded', answer: 'from prompt' });
    // Another workspace's prompt id is refused.
    const other = expectOk(await call('POST', URL, 'owner', { name: 'Elsewhere', content: 'x' }, f.wsB));
    expectCode(await call('POST', `${URL}/completion-messages`, 'member', { prompt_id: other.id, content: 'x' }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/completion-messages`, 'member', { prompt_id: other.id, content: 'x', model: MODEL }), 400, 'VALIDATION-1000');

    // The tenant's default LLM.
    const d = await h.call('PUT', '/api/v1/admin/models/tenant-default', { token: h.adminToken, body: { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' } });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    fake.answer = () => ({ chunks: ['default'] });
    expect((await all({ content: 'x' })).at(-1)).toMatchObject({ status: 'succeeded', answer: 'default' });
  });

  it('a model that fails mid-call ends the stream with an error event carrying a catalogue code', async () => {
    await configureProvider(h, 'deepseek', 'http://127.0.0.1:9/v1');
    const events = await all({ content: 'x', model: { provider: 'deepseek', name: 'deepseek-chat' } });
    expect(events[0].type).toBe('message_created');
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'SYSTEM-1500', model_error: 'unreachable', message: expect.stringContaining('cannot be reached') });
  });
});

describe('POST /console/prompts/optimization_prompt', () => {
  it('answers the rewrite when it keeps every placeholder, and tells the model to keep them', async () => {
    fake.answer = () => ({ chunks: ['```\n', 'You are a helpful guide. Answer {question} ', 'using {context}, {{briefly}}.', '\n```'] });
    const r = expectOk(await call('POST', `${URL}/optimization_prompt`, 'member', { content: 'answer {question} with {context}', model: MODEL, instruction: 'be polite' }));
    expect(r).toEqual({ content: 'You are a helpful guide. Answer {question} using {context}, {{briefly}}.' });
    const system = fake.requests.at(-1)!.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('{question}, {context}');
    expect(system.content).toContain('be polite');
  });

  it('refuses a rewrite that drops or adds a placeholder, naming them', async () => {
    fake.answer = () => ({ chunks: ['Answer the question using {context} and {style}.'] });
    const r = await call('POST', `${URL}/optimization_prompt`, 'member', { content: 'answer {question} with {context}', model: MODEL });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toContain('dropped {question}');
    expect(r.body.msg).toContain('added {style}');
    expect(r.body.data).toMatchObject({ missing: ['question'], added: ['style'] });

    fake.answer = () => ({ chunks: ['Hi {{ user }}, {% if x %}'] });
    const broken = await call('POST', `${URL}/optimization_prompt`, 'member', { content: 'Hi {{ user }}', template_type: 'jinja2', model: MODEL });
    expectCode(broken, 400, 'VALIDATION-1000');
    expect(broken.body.msg).toContain('not a valid jinja2 template');
  });
});

describe('POST /console/prompts/generate_question', () => {
  it('parses a JSON array, also inside prose or a fence, and keeps at most count', async () => {
    fake.answer = () => ({ chunks: ['["What is ', 'Weft?", "How do I add a tool?", "Who am I?"]'] });
    expect(expectOk(await call('POST', `${URL}/generate_question`, 'member', { content: 'Help with {topic}', variables: { topic: 'Weft' }, model: MODEL }))).toEqual({
      questions: ['What is Weft?', 'How do I add a tool?', 'Who am I?'],
    });
    expect(fake.requests.at(-1)!.messages[1].content).toContain('- topic: Weft');

    fake.answer = () => ({ chunks: ['Sure! Here they are:\n```json\n[{"question": "One?"}, "Two?", "Two?", "Three?"]\n```'] });
    expect(expectOk(await call('POST', `${URL}/generate_question`, 'member', { content: 'x', model: MODEL, count: 2 }))).toEqual({ questions: ['One?', 'Two?'] });

    fake.answer = () => ({ chunks: ['1. First?\n2) Second?\n- Third?'] });
    expect(expectOk(await call('POST', `${URL}/generate_question`, 'member', { content: 'x', model: MODEL }))).toEqual({ questions: ['First?', 'Second?', 'Third?'] });
  });

  it('validates count (1..10)', async () => {
    expectCode(await call('POST', `${URL}/generate_question`, 'member', { content: 'x', model: MODEL, count: 0 }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/generate_question`, 'member', { content: 'x', model: MODEL, count: 11 }), 400, 'VALIDATION-1000');
  });
});

describe('OpenAPI', () => {
  it('documents the debug calls with their bodies', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    for (const path of ['completion-messages', 'completion-messages/{id}/stop', 'optimization_prompt', 'generate_question']) {
      expect(doc.paths[`/api/v1/console/prompts/${path}`]?.post, path).toBeDefined();
    }
    const body = doc.paths['/api/v1/console/prompts/completion-messages'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['content']));
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['prompt_id', 'content', 'template_type', 'variables', 'model', 'query']));
  });
});

describe('the client functions of src/api/prompts.ts', () => {
  it('stream, stop, optimize and generate against the real server', async () => {
    configureRequest({ baseUrl: base });
    await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'pdbg_member', password: PASSWORD });
    const o = { workspaceId: f.wsA };
    fake.answer = () => ({ chunks: ['a', 'b', 'c'] });
    const got: PromptDebugEvent[] = [];
    for await (const e of streamPromptDebug({ content: 'Say {x}', variables: { x: 'abc' }, model: MODEL }, o)) got.push(e);
    expect(got.map((e) => e.type)).toEqual(['message_created', 'text_chunk', 'text_chunk', 'text_chunk', 'message_end']);
    expect(got.at(-1)).toMatchObject({ status: 'succeeded', answer: 'abc' });

    fake.answer = () => ({ chunks: Array.from({ length: 200 }, () => 'z'), delayMs: 15 });
    const stopped: PromptDebugEvent[] = [];
    for await (const e of streamPromptDebug({ content: 'go', model: MODEL }, o)) {
      stopped.push(e);
      if (e.type === 'text_chunk' && stopped.length === 3) expect(await stopPromptDebug(e.message_id, o)).toEqual({ stopped: true });
    }
    expect(stopped.at(-1)).toMatchObject({ type: 'message_end', status: 'stopped' });

    // An error before the stream rejects like any call.
    const err = await (async () => {
      for await (const _ of streamPromptDebug({ content: 'Say {x}', model: MODEL }, { ...o, reaction: 'silent' })) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'VALIDATION-1000', msg: expect.stringContaining('x') });

    fake.answer = () => ({ chunks: ['Please say {x}.'] });
    expect(await optimizePrompt({ content: 'Say {x}', model: MODEL }, o)).toEqual({ content: 'Please say {x}.' });
    fake.answer = () => ({ chunks: ['["q1","q2"]'] });
    expect(await generatePromptQuestions({ content: 'Say {x}', model: MODEL, count: 2 }, o)).toEqual({ questions: ['q1', 'q2'] });
  });
});
