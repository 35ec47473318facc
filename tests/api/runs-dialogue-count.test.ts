import { beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
import { createApp, flow, parseSse, RUNS } from './runs-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// sys.dialogue_count (Dify's, kept by the import): the turn a chat run answers, counted per conversation.

const h = useStudio();
let f: Fixture;
let appId: string;

const doc = flow(
  [
    ['s', 'start'],
    ['ans', 'answer', { answer: 'Turn {{#sys.dialogue_count#}}' }],
  ],
  [['s', 'ans']],
  'chatflow',
);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'dialogue');
  appId = await createApp(h, f.u.member.token, f.wsA, 'Turns', doc);
});

async function chat(body: Record<string, unknown>) {
  const r = await h.call('POST', `${RUNS(appId)}/draft/chat-messages`, { token: f.u.member.token, workspaceId: f.wsA, body });
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
});
