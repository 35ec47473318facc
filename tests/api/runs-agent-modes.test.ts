import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
import { configureProvider, createApp, flow, model, parseSse, RUNS, scriptedOpenAi, textInput, type ScriptedModel } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Dify's agent node lives in chatflows and workflows (issue 26): Weft's agent kind runs there too,
// through the real routes on embedded Postgres and a scripted OpenAI-compatible model. In a chatflow
// it remembers the conversation's earlier turns; a workflow has no conversation, so no memory.

const h = useStudio();
let f: Fixture;
let llm: ScriptedModel;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const owner = () => ({ token: f.u.owner.token, workspaceId: f.wsA });

beforeAll(async () => {
  // The agent calls its tool-less model once per turn; it echoes the user's last message.
  llm = await scriptedOpenAi((body) => `Echo: ${String(body.messages.at(-1)?.content ?? '')}`);
  f = await setUpWorkspaces(h, 'agentmodes');
  await configureProvider(h, 'openai', llm.baseUrl);
});
afterAll(async () => {
  await llm?.close();
});

const gpt = model('openai', 'gpt-4o-mini');

describe('the agent node outside agent apps', () => {
  it('runs in a chatflow start → agent → answer, remembering the earlier turn, and publishes', async () => {
    const doc = flow(
      [
        ['s', 'start'],
        ['a', 'agent', { model: gpt, instructions: 'You echo.' }],
        ['ans', 'answer', { answer: '{{#a.text#}}' }],
      ],
      [
        ['s', 'a'],
        ['a', 'ans'],
      ],
      'chatflow',
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'Agent chatflow', doc);
    const one = parseSse(expectStatus(await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { ...member(), body: { query: 'first' } })));
    expect(one.at(-1)).toMatchObject({ type: 'run_finished', answer: 'Echo: first' });
    const conversationId = (one[0] as { conversationId: string }).conversationId;

    const before = llm.requests.length;
    const two = parseSse(expectStatus(await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { ...member(), body: { query: 'second', conversation_id: conversationId } })));
    expect(two.at(-1)).toMatchObject({ type: 'run_finished', answer: 'Echo: second' });
    // Memory: the model saw the first turn before the new message.
    const seen = llm.requests.slice(before)[0]!.body.messages.map((m: { role: string; content: unknown }) => [m.role, m.content]);
    expect(seen).toEqual([
      ['system', expect.stringContaining('You echo.')],
      ['user', 'first'],
      ['assistant', 'Echo: first'],
      ['user', 'second'],
    ]);

    const published = await h.call('POST', `${RUNS(app)}/publish`, { ...owner(), body: { version: 'v1.0.0' } });
    expect(published.status, published.raw.body).toBe(200);
  });

  it('runs in a workflow on a start input, with no conversation to remember', async () => {
    const doc = flow(
      [
        ['s', 'start', { variables: [textInput('q')] }],
        ['a', 'agent', { model: gpt, instructions: 'You echo.', query: ['s', 'q'] }],
        ['e', 'end', { outputs: [{ name: 'reply', selector: ['a', 'text'] }] }],
      ],
      [
        ['s', 'a'],
        ['a', 'e'],
      ],
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'Agent workflow', doc);
    const before = llm.requests.length;
    const events = parseSse(expectStatus(await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { q: 'hello' } } })));
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', outputs: { reply: 'Echo: hello' } });
    const sent = llm.requests.slice(before).map((r) => r.body.messages.map((m: { role: string }) => m.role));
    expect(sent).toEqual([['system', 'user']]);
    const published = await h.call('POST', `${RUNS(app)}/publish`, { ...owner(), body: { version: 'v1.0.0' } });
    expect(published.status, published.raw.body).toBe(200);
  });
});

function expectStatus(r: { status: number; raw: { body: string } }): string {
  expect(r.status, r.raw.body).toBe(200);
  return r.raw.body;
}
