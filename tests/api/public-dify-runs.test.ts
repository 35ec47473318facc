import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { runEvents, runs } from '../../src/server/db/schema';
import { runEventLog } from '../../src/server/runs/event-log';
import type { FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { countStatements } from './statements-kit';
import { cancel, distribute, modelProvider, publish } from './portal-kit';
import { chatFlow, createKey, difyEvents, expectDifyError, publishedApp, sayFlow, v1, type Owner } from './public-kit';
import { configureProvider, createApp, model, saveDraft, slowOpenAi, textInput, type SlowServer } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The Dify-compatible run routes (issue 22): POST /v1/workflows/run and /v1/chat-messages, blocking
// and streaming, on the served version (distributed, else the latest published, never the draft),
// stop, bad bodies, and the app's log showing the runs with source `api`.

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
let slow: SlowServer;
let base = '';
let flowApp = '';
let flowKey = '';
let chatApp = '';
let chatKey = '';
let slowKey = '';
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'difyruns');
  fake = await modelProvider(h);
  flowApp = await publishedApp(h, owner(), 'Sayer', sayFlow('v1 {{ word }}'));
  flowKey = (await createKey(h, owner(), flowApp)).secret;
  chatApp = await publishedApp(h, owner(), 'Helper', chatFlow('Bot'));
  chatKey = (await createKey(h, owner(), chatApp)).secret;
  slow = await slowOpenAi(Array.from({ length: 40 }, (_, i) => `t${i} `), 25);
  await configureProvider(h, 'deepseek', slow.baseUrl);
  const slowDoc = chatFlow('Slow');
  slowDoc.nodes = slowDoc.nodes.map((n) => (n.id === 'llm' ? { ...n, config: { ...n.config, model: model('deepseek', 'deepseek-chat') } } : n));
  const slowApp = await publishedApp(h, owner(), 'Slow', slowDoc);
  slowKey = (await createKey(h, owner(), slowApp)).secret;
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await fake?.close();
  await slow?.close();
});

describe('POST /v1/workflows/run', () => {
  it('blocking: answers the run with its outputs in Dify’s shape', async () => {
    const r = await v1(h, flowKey, 'POST', '/workflows/run', { body: { inputs: { word: 'hi' }, response_mode: 'blocking', user: 'alice' } });
    expect(r.status, r.raw.body).toBe(200);
    const body = r.body as any;
    expect(body.task_id).toBe(body.workflow_run_id);
    expect(body.data).toMatchObject({ id: body.task_id, status: 'succeeded', outputs: { said: 'v1 hi' }, error: null, total_tokens: 0, total_steps: 3 });
    expect(typeof body.data.workflow_id).toBe('string');
    expect(body.data.finished_at).toBeGreaterThanOrEqual(body.data.created_at);
  });

  it('blocking: logs no stream (its task id comes with the answer, so nothing can resume it); its events route answers the end from the stored run', async () => {
    const r = await v1(h, flowKey, 'POST', '/workflows/run', { body: { inputs: { word: 'quiet' }, response_mode: 'blocking', user: 'alice' } });
    expect(r.status, r.raw.body).toBe(200);
    const taskId = (r.body as any).task_id as string;
    const again = await v1(h, flowKey, 'GET', `/workflows/tasks/${taskId}/events`, { query: { user: 'alice' } });
    expect(again.status, again.raw.body).toBe(200);
    const frames = difyEvents(again.raw.body);
    expect(frames.map((e) => e.event)).toEqual(['workflow_finished']);
    expect(frames[0]).toMatchObject({ task_id: taskId, workflow_run_id: taskId, data: { id: taskId, status: 'succeeded', outputs: { said: 'v1 quiet' }, total_steps: 3 } });
    await runEventLog(h.studio.ctx).flush();
    expect(await h.studio.ctx.db.select({ seq: runEvents.seq }).from(runEvents).where(eq(runEvents.runId, taskId))).toEqual([]);
  });

  it('streaming: workflow_started, node_started/node_finished per node, workflow_finished', async () => {
    const r = await v1(h, flowKey, 'POST', '/workflows/run', { body: { inputs: { word: 'yo' }, response_mode: 'streaming', user: 'alice' } });
    expect(r.status).toBe(200);
    expect(r.raw.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = difyEvents(r.raw.body);
    expect(events.map((e) => e.event)).toEqual(['workflow_started', 'node_started', 'node_finished', 'node_started', 'node_finished', 'node_started', 'node_finished', 'workflow_finished']);
    const runId = events[0]!.task_id;
    for (const e of events) expect(e).toMatchObject({ task_id: runId, workflow_run_id: runId });
    expect(events[2]!.data).toMatchObject({ node_id: 's', node_type: 'start', status: 'succeeded' });
    expect(events.at(-1)!.data).toMatchObject({ id: runId, status: 'succeeded', outputs: { said: 'v1 yo' } });
  });

  it('runs the distributed version, else the latest published one, never the draft', async () => {
    const id = await createApp(h, owner().token, owner().workspaceId, 'Versions', sayFlow('one {{ word }}'));
    const first = await publish(h, owner(), id, '1.0.0');
    const key = (await createKey(h, owner(), id)).secret;
    const said = async () => ((await v1(h, key, 'POST', '/workflows/run', { body: { inputs: { word: 'x' }, user: 'u' } })).body as any).data.outputs.said;
    expect(await said()).toBe('one x');
    await distribute(h, owner(), id, 'portal', first.id);
    await saveDraft(h, owner().token, owner().workspaceId, id, sayFlow('two {{ word }}'));
    await publish(h, owner(), id, '2.0.0');
    await saveDraft(h, owner().token, owner().workspaceId, id, sayFlow('draft {{ word }}'));
    expect(await said()).toBe('one x');
    await cancel(h, owner(), id, 'portal');
    expect(await said()).toBe('two x');
  });

  it('refuses an app never published (APP-1000), bad bodies and bad inputs (VALIDATION-1000), changing nothing', async () => {
    const draftOnly = await createApp(h, owner().token, owner().workspaceId, 'Unpublished', sayFlow());
    const key = (await createKey(h, owner(), draftOnly)).secret;
    expectDifyError(await v1(h, key, 'POST', '/workflows/run', { body: { inputs: { word: 'a' }, user: 'u' } }), 400, 'APP-1000');
    const before = (await h.studio.ctx.db.select().from(runs).where(eq(runs.appId, flowApp))).length;
    for (const body of [
      { inputs: { word: 'a' } },
      { inputs: { word: 'a' }, user: '' },
      { inputs: { word: 'a' }, user: 'u', response_mode: 'later' },
      { inputs: 'word', user: 'u' },
      { inputs: {}, user: 'u' },
      { inputs: { word: 'a', extra: 1 }, user: 'u' },
      { inputs: { word: 'a' }, user: 'u', files: [{ type: 'image', transfer_method: 'remote_url', url: 'http://x/y.png' }] },
    ]) {
      expectDifyError(await v1(h, flowKey, 'POST', '/workflows/run', { body }), 400, 'VALIDATION-1000');
    }
    expectDifyError(await v1(h, flowKey, 'POST', '/workflows/run', { body: '{not json', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION-1000');
    expectDifyError(await v1(h, flowKey, 'POST', '/chat-messages', { body: { query: 'hi', user: 'u' } }), 400, 'VALIDATION-1000');
    expectDifyError(await v1(h, chatKey, 'POST', '/workflows/run', { body: { inputs: {}, user: 'u' } }), 400, 'VALIDATION-1000');
    expect((await h.studio.ctx.db.select().from(runs).where(eq(runs.appId, flowApp))).length).toBe(before);
  });
});

describe('POST /v1/chat-messages', () => {
  it('blocking: the message with its conversation, answer and usage', async () => {
    const r = await v1(h, chatKey, 'POST', '/chat-messages', { body: { query: 'hello', user: 'bob', response_mode: 'blocking', inputs: {} } });
    expect(r.status, r.raw.body).toBe(200);
    const m = r.body as any;
    expect(m).toMatchObject({ event: 'message', answer: 'Bot: Hello, world.', mode: 'advanced-chat' });
    expect(m.id).toBe(m.message_id);
    expect(m.metadata.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17, currency: 'USD' });
    expect(m.metadata.retriever_resources).toEqual([]);
    // The next message continues the conversation; another user cannot (404, as a missing one).
    const again = await v1(h, chatKey, 'POST', '/chat-messages', { body: { query: 'more', user: 'bob', conversation_id: m.conversation_id } });
    expect((again.body as any).conversation_id).toBe(m.conversation_id);
    expectDifyError(await v1(h, chatKey, 'POST', '/chat-messages', { body: { query: 'mine?', user: 'eve', conversation_id: m.conversation_id } }), 404, 'VALIDATION-1000');
    // The model got the first turn as memory.
    expect(fake.requests.at(-1)!.body.messages.map((x: { role: string }) => x.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it("a conversation's message reads the conversation and its last inputs in one statement (one round trip fewer before the first token), and keeps those inputs", async () => {
    const doc = chatFlow('Topical');
    doc.nodes[0].config = { variables: [textInput('topic')] };
    const key = (await createKey(h, owner(), await publishedApp(h, owner(), 'Topical', doc))).secret;
    const first = await v1(h, key, 'POST', '/chat-messages', { body: { query: 'start', user: 'carol', response_mode: 'blocking', inputs: { topic: 'cats' } } });
    const conversation_id = (first.body as any).conversation_id as string;
    const seen = await countStatements(h, async () => {
      // Empty inputs: the required topic comes from the conversation's last run.
      const next = await v1(h, key, 'POST', '/chat-messages', { body: { query: 'go on', user: 'carol', response_mode: 'blocking', inputs: {}, conversation_id } });
      expect(next.status, next.raw.body).toBe(200);
    });
    expect(seen.texts.filter((t) => /^\s*select\s+"?inputs"?\s+from\s+"?runs"?/i.test(t)), 'the last inputs read on their own').toEqual([]);
    const stored = await h.studio.ctx.db.select({ inputs: runs.inputs }).from(runs).where(eq(runs.conversationId, conversation_id));
    expect(stored.map((r) => r.inputs)).toEqual([{ topic: 'cats' }, { topic: 'cats' }]);
  });

  it('blocking: logs no stream either; its events route answers workflow_finished and message_end from the stored run', async () => {
    const r = await v1(h, chatKey, 'POST', '/chat-messages', { body: { query: 'hello again', user: 'bob', response_mode: 'blocking', inputs: {} } });
    expect(r.status, r.raw.body).toBe(200);
    const { task_id, message_id, conversation_id } = r.body as any;
    const frames = difyEvents((await v1(h, chatKey, 'GET', `/chat-messages/${task_id}/events`, { query: { user: 'bob' } })).raw.body);
    expect(frames.map((e) => e.event)).toEqual(['workflow_finished', 'message_end']);
    expect(frames[0]).toMatchObject({ task_id, message_id, conversation_id, data: { id: task_id, status: 'succeeded' } });
    expect(frames[1]).toMatchObject({ id: message_id, metadata: { usage: { total_tokens: 17 } } });
    await runEventLog(h.studio.ctx).flush();
    expect(await h.studio.ctx.db.select({ seq: runEvents.seq }).from(runEvents).where(eq(runEvents.runId, task_id))).toEqual([]);
  });

  it('streaming: workflow and node events, message chunks, workflow_finished and message_end', async () => {
    const r = await v1(h, chatKey, 'POST', '/chat-messages', { body: { query: 'stream it', user: 'bob', response_mode: 'streaming' } });
    expect(r.status).toBe(200);
    const events = difyEvents(r.raw.body);
    const kinds = events.map((e) => e.event);
    expect(kinds[0]).toBe('workflow_started');
    expect(kinds.slice(-2)).toEqual(['workflow_finished', 'message_end']);
    expect(kinds).toContain('node_started');
    expect(kinds).toContain('node_finished');
    const chunks = events.filter((e) => e.event === 'message');
    expect(chunks.map((e) => e.answer).join('')).toBe('Bot: Hello, world.');
    const { task_id, message_id, conversation_id } = events[0]!;
    for (const e of events) expect(e).toMatchObject({ task_id, message_id, conversation_id, created_at: expect.any(Number) });
    expect(events.at(-1)).toMatchObject({ id: message_id, metadata: { usage: { total_tokens: 17 }, retriever_resources: [] } });
  });

  it('stops the end user’s running message (another user’s or app’s stop is refused: 404)', async () => {
    const res = await fetch(`${base}/v1/chat-messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slowKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'long story', user: 'carol', response_mode: 'streaming' }),
    });
    expect(res.status).toBe(200);
    const text = await (async () => {
      let buf = '';
      let stopped = false;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += Buffer.from(chunk).toString('utf8');
        const seen = difyEvents(buf.slice(0, buf.lastIndexOf('\n\n') + 2));
        const msgs = seen.filter((e) => e.event === 'message');
        if (!stopped && msgs.length >= 3) {
          stopped = true;
          const task = seen[0]!.task_id;
          expectDifyError(await v1(h, slowKey, 'POST', `/chat-messages/${task}/stop`, { body: { user: 'mallory' } }), 404, 'VALIDATION-1000');
          expectDifyError(await v1(h, chatKey, 'POST', `/chat-messages/${task}/stop`, { body: { user: 'carol' } }), 404, 'VALIDATION-1000');
          const ok = await v1(h, slowKey, 'POST', `/chat-messages/${task}/stop`, { body: { user: 'carol' } });
          expect(ok.body).toEqual({ result: 'success' });
        }
      }
      return buf;
    })();
    const events = difyEvents(text);
    expect(events.filter((e) => e.event === 'message').length).toBeLessThan(40);
    expect(events.at(-2)).toMatchObject({ event: 'workflow_finished', data: { status: 'stopped' } });
    const [row] = await h.studio.ctx.db.select().from(runs).where(eq(runs.id, events[0]!.task_id));
    expect(row).toMatchObject({ status: 'stopped', source: 'api', endUser: 'carol' });
    // Stopping a run that already ended still answers success (Dify's behaviour).
    expect((await v1(h, slowKey, 'POST', `/chat-messages/${events[0]!.task_id}/stop`, { body: { user: 'carol' } })).body).toEqual({ result: 'success' });
    expect((await v1(h, flowKey, 'POST', `/workflows/tasks/${events[0]!.task_id}/stop`, { body: { user: 'carol' } })).status).toBe(404);
  });
});

describe('the app’s log', () => {
  it('shows API runs with source api, their version and end user', async () => {
    const list = expectOk(await h.call('GET', `/api/v1/console/apps/${flowApp}/runs`, { ...owner(), query: { source: 'api' } }));
    expect(list.total).toBeGreaterThanOrEqual(2);
    for (const r of list.list) expect(r).toMatchObject({ source: 'api', version: '1.0.0', created_by_name: 'alice', status: 'succeeded' });
  });
});
