import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { configureProvider, createApp, flow, model, parseSse, prompt, RUNS } from './runs-kit';
import { countStatements } from './statements-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// sys.dialogue_count (Dify's, kept by the import): the turn a chat run answers, counted per conversation.
// And a conversation's memory, read as the run starts (issues 21/34).

const h = useStudio();
let f: Fixture;
let appId: string;
let memoryApp: string;
let fake: FakeServer;

const doc = flow(
  [
    ['s', 'start'],
    ['ans', 'answer', { answer: 'Turn {{#sys.dialogue_count#}}' }],
  ],
  [['s', 'ans']],
  'chatflow',
);

// Two model nodes with different memory windows; the second's prompt reads the dialogue count.
const memoryDoc = flow(
  [
    ['s', 'start'],
    ['short', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('user', '{{#sys.query#}}')], memoryEnabled: true, memoryWindow: 1 }],
    ['long', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('user', '{{#sys.query#}} (turn {{#sys.dialogue_count#}})')], memoryEnabled: true, memoryWindow: 3 }],
    ['ans', 'answer', { answer: '{{#long.text#}}' }],
  ],
  [
    ['s', 'short'],
    ['short', 'long'],
    ['long', 'ans'],
  ],
  'chatflow',
);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'dialogue');
  appId = await createApp(h, f.u.member.token, f.wsA, 'Turns', doc);
  fake = await fakeOpenAi();
  await configureProvider(h, 'openai', fake.baseUrl);
  memoryApp = await createApp(h, f.u.member.token, f.wsA, 'Memory', memoryDoc);
});
afterAll(() => fake?.close());

async function chat(body: Record<string, unknown>, app = appId) {
  const r = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { token: f.u.member.token, workspaceId: f.wsA, body });
  expect(r.status, r.raw.body).toBe(200);
  return parseSse(r.raw.body);
}

describe('sys.dialogue_count', () => {
  it('is 1 for a conversation’s first message and counts up with each turn; a new conversation starts again', async () => {
    const first = await chat({ query: 'one' });
    const created = first[0];
    if (created.type !== 'run_created') throw new Error('first event');
    expect(first.at(-1)).toMatchObject({ type: 'run_finished', answer: 'Turn 1' });
    expect((await chat({ query: 'two', conversation_id: created.conversationId })).at(-1)).toMatchObject({ answer: 'Turn 2' });
    expect((await chat({ query: 'three', conversation_id: created.conversationId })).at(-1)).toMatchObject({ answer: 'Turn 3' });
    expect((await chat({ query: 'again' })).at(-1)).toMatchObject({ answer: 'Turn 1' });
  });

  // The memory read used to wait for the count (awaited before the engine starts) and then for the
  // nodes before the model's: a round trip of its own in front of the first token.
  it("reads a conversation's memory as the run starts, before the count it waits for; each model node gets its own window of it", async () => {
    const first = await chat({ query: 'q1' }, memoryApp);
    if (first[0]?.type !== 'run_created') throw new Error('first event');
    const conversation_id = first[0].conversationId;
    for (const q of ['q2', 'q3', 'q4']) expect((await chat({ query: q, conversation_id }, memoryApp)).at(-1)).toMatchObject({ type: 'run_finished' });
    const sent = fake.requests.length;
    const seen = await countStatements(h, async () => {
      expect((await chat({ query: 'q5', conversation_id }, memoryApp)).at(-1)).toMatchObject({ type: 'run_finished' });
    });
    const isMemory = (t: string) => /^\s*select\s+"messages"\."query",\s*"messages"\."answer"\s+from\s+"messages"/i.test(t);
    const memory = seen.texts.findIndex(isMemory);
    const count = seen.texts.findIndex((t) => /^\s*select\s+count\(/i.test(t));
    expect(memory, seen.texts.join('\n')).toBeGreaterThanOrEqual(0);
    expect(count, seen.texts.join('\n')).toBeGreaterThanOrEqual(0);
    expect(memory, 'the memory read is sent before the dialogue count').toBeLessThan(count);
    expect(seen.texts.filter(isMemory), 'one memory read for both nodes').toHaveLength(1);
    // The newest turns, oldest first: the short window's one, the long window's three.
    const [short, long] = fake.requests.slice(sent).map((r) => (r.body.messages as { content: string }[]).map((m) => m.content));
    const answer = 'Hello, world';
    expect(short).toEqual(['q4', answer, 'q5']);
    expect(long).toEqual(['q2', answer, 'q3', answer, 'q4', answer, 'q5 (turn 5)']);
  });
});
