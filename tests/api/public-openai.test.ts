import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { conversations, messages, runEvents, runs } from '../../src/server/db/schema';
import { runEventLog } from '../../src/server/runs/event-log';
import type { FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { modelProvider } from './portal-kit';
import { chatFlow, createKey, publishedApp, sayFlow, type Owner } from './public-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// The OpenAI-compatible endpoint (issue 22), driven by the official `openai` client over real HTTP:
// chat completions streamed and not, the conversation continued by the turns sent back, a client's
// own history given to the flow's memory, GET /v1/models, and errors in OpenAI's shape.

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
let base = '';
let appId = '';
let client: OpenAI;
let flowClient: OpenAI;
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'openai');
  fake = await modelProvider(h);
  appId = await publishedApp(h, owner(), 'Assistant', chatFlow('Bot'));
  const key = (await createKey(h, owner(), appId)).secret;
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  client = new OpenAI({ baseURL: `${base}/v1`, apiKey: key, maxRetries: 0 });
  const flowKey = (await createKey(h, owner(), await publishedApp(h, owner(), 'A workflow', sayFlow()))).secret;
  flowClient = new OpenAI({ baseURL: `${base}/v1`, apiKey: flowKey, maxRetries: 0 });
});
afterAll(async () => {
  await fake?.close();
});

describe('POST /v1/chat/completions with the openai client', () => {
  it('answers a completion (not streamed), stored as an API run of the app', async () => {
    const c = await client.chat.completions.create({ model: appId, messages: [{ role: 'system', content: 'ignored' }, { role: 'user', content: 'hi' }], user: 'olga' });
    expect(c.object).toBe('chat.completion');
    expect(c.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Bot: Hello, world.' });
    expect(c.choices[0]!.finish_reason).toBe('stop');
    expect(c.usage).toEqual({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    expect(c.model).toBe(appId);
    const [run] = await h.studio.ctx.db.select().from(runs).where(eq(runs.id, c.id.replace('chatcmpl-', '')));
    expect(run).toMatchObject({ source: 'api', endUser: 'olga', query: 'hi', status: 'succeeded' });
  });

  it('not streamed: logs no stream (its id comes with the answer: nothing can resume it); the console shows its end rebuilt from the run', async () => {
    const c = await client.chat.completions.create({ model: appId, messages: [{ role: 'user', content: 'quietly' }], user: 'olga' });
    const runId = c.id.replace('chatcmpl-', '');
    await runEventLog(h.studio.ctx).flush();
    expect(await h.studio.ctx.db.select({ seq: runEvents.seq }).from(runEvents).where(eq(runEvents.runId, runId))).toEqual([]);
    const r = await h.call('GET', `/api/v1/console/apps/${appId}/runs/${runId}/events`, owner());
    expect(r.status, r.raw.body).toBe(200);
    const frames = r.raw.body.split('\n\n').filter((x) => x.startsWith('event: '));
    expect(frames.length, r.raw.body).toBe(1);
    expect(frames[0]).toMatch(/^event: run_finished\nid: 0\ndata: /);
    expect(JSON.parse(frames[0]!.split('data: ')[1]!)).toMatchObject({ type: 'run_finished', runId, answer: 'Bot: Hello, world.', usage: { totalTokens: 17 } });
  });

  it('streams chunks and ends with [DONE]', async () => {
    const stream = await client.chat.completions.create({ model: appId, messages: [{ role: 'user', content: 'stream please' }], stream: true });
    let text = '';
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta.content ?? '';
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(text).toBe('Bot: Hello, world.');
    expect(finishes.at(-1)).toBe('stop');
  });

  it('continues the conversation whose turns are sent back; an unknown history becomes one the flow remembers', async () => {
    const first = await client.chat.completions.create({ model: appId, messages: [{ role: 'user', content: 'first' }], user: 'pia' });
    const answer = first.choices[0]!.message.content!;
    const conv = (first as unknown as { conversation_id: string }).conversation_id;
    const second = await client.chat.completions.create({
      model: appId,
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: answer },
        { role: 'user', content: 'second' },
      ],
      user: 'pia',
    });
    expect((second as unknown as { conversation_id: string }).conversation_id).toBe(conv);
    expect(fake.requests.at(-1)!.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'first'],
      ['assistant', answer],
      ['user', 'second'],
    ]);
    expect((await h.studio.ctx.db.select().from(messages).where(eq(messages.conversationId, conv))).length).toBe(2);

    // Another user sending the same turns does not continue pia's conversation.
    const other = await client.chat.completions.create({ model: appId, messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: answer }, { role: 'user', content: 'x' }], user: 'quinn' });
    expect((other as unknown as { conversation_id: string }).conversation_id).not.toBe(conv);

    // A history of the client's own making: kept as the conversation's first turns, read by the flow's memory.
    const made = await client.chat.completions.create({
      model: appId,
      messages: [
        { role: 'user', content: 'my name is Rae' },
        { role: 'assistant', content: 'Hello Rae' },
        { role: 'user', content: 'what is my name?' },
      ],
    });
    expect(fake.requests.at(-1)!.body.messages.slice(1).map((m: { content: string }) => m.content)).toEqual(['my name is Rae', 'Hello Rae', 'what is my name?']);
    const [c] = await h.studio.ctx.db.select().from(conversations).where(eq(conversations.id, (made as unknown as { conversation_id: string }).conversation_id));
    expect(c).toMatchObject({ source: 'api', endUser: 'openai', name: 'my name is Rae' });
  });

  it('lists the app as the one model', async () => {
    const list = await client.models.list();
    expect(list.data.map((m) => [m.id, m.object, m.owned_by])).toEqual([[appId, 'model', 'weft']]);
  });

  it('answers errors in OpenAI’s shape: a wrong key (401), a workflow app or a bad body (400)', async () => {
    const wrong = new OpenAI({ baseURL: `${base}/v1`, apiKey: `wk-${'B'.repeat(40)}`, maxRetries: 0 });
    await expect(wrong.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401, code: 'AUTH-1007', type: 'authentication_error' });
    await expect(flowClient.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400, code: 'VALIDATION-1000' });
    await expect(client.chat.completions.create({ model: 'x', messages: [] })).rejects.toMatchObject({ status: 400, code: 'VALIDATION-1000' });
    await expect(client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] })).rejects.toMatchObject({ status: 400, code: 'VALIDATION-1000' });
    const raw = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ error: { message: expect.any(String), type: 'authentication_error', code: 'AUTH-1007', param: null } });
  });
});
