import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
import { configureProvider, createApp, flow, model, parseSse, RUNS, scriptedOpenAi, type ScriptedModel } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Agent-team apps run in the debug chat through the real routes on embedded Postgres and a scripted
// OpenAI-compatible model: start → the entry agent → answer, the team's other agents on the canvas
// without edges. The entry agent hands off with a transfer_to_<id> call; the agent taking over
// answers the same message in the same node, and the run's trace names the chain.

const h = useStudio();
let f: Fixture;
let llm: ScriptedModel;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });

/** Who a request is for: the first line of its system message (the agent's instructions). */
const whoOf = (body: any): string => (body.messages[0]?.role === 'system' ? String(body.messages[0].content).split('\n')[0] : '');

beforeAll(async () => {
  llm = await scriptedOpenAi((body) => {
    const who = whoOf(body);
    const last = body.messages.at(-1);
    if (who === 'You triage.' && last.role === 'user') {
      const to = String(last.content).includes('invoice') ? 'billing' : 'tech';
      return { tool: `transfer_to_${to}`, args: JSON.stringify({ reason: `a ${to} question` }) };
    }
    if (who === 'You do billing.') return 'Your invoice is fixed.';
    if (who === 'You fix tech.') return 'Restart the router.';
    return 'Hello.';
  });
  f = await setUpWorkspaces(h, 'team');
  await configureProvider(h, 'openai', llm.baseUrl);
});
afterAll(async () => {
  await llm?.close();
});

const gpt = model('openai', 'gpt-4o-mini');
const team = (members: [string, Record<string, unknown>][] = TEAM) =>
  flow(
    [
      ['s', 'start'],
      ['triage', 'agent', { model: gpt, instructions: 'You triage.', handoffs: members.map(([id]) => id) }],
      ['ans', 'answer', { answer: '{{#triage.text#}}' }],
      ...members.map(([id, c]): [string, string, Record<string, unknown>] => [id, 'agent', { model: gpt, ...c }]),
    ],
    [
      ['s', 'triage'],
      ['triage', 'ans'],
    ],
    'agent_team',
  );
const TEAM: [string, Record<string, unknown>][] = [
  ['billing', { instructions: 'You do billing.', handoffDescription: 'Invoices and refunds' }],
  ['tech', { instructions: 'You fix tech.', handoffDescription: 'Network problems' }],
];

async function chat(appId: string, body: Record<string, unknown>) {
  const r = await h.call('POST', `${RUNS(appId)}/draft/chat-messages`, { ...member(), body });
  expect(r.status, r.raw.body).toBe(200);
  return parseSse(r.raw.body);
}

describe('agent team debug runs', () => {
  it('the entry agent hands off; the member answers the same message, streamed; the trace names the chain', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Help desk', team());
    const before = llm.requests.length;
    const events = await chat(app, { query: 'my invoice is wrong' });
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'run_finished', answer: 'Your invoice is fixed.' });
    expect(events[1]).toMatchObject({ type: 'run_started', mode: 'agent_team' });
    expect(events.filter((e) => e.type === 'answer_chunk').map((e) => (e as { text: string }).text).join('')).toBe('Your invoice is fixed.');

    // The model saw: triage offered both members (described), then billing, told of the hand-off, with no way back.
    const [first, second] = llm.requests.slice(before).map((r) => r.body);
    expect(first.tools.map((t: any) => t.function.name)).toEqual(['transfer_to_billing', 'transfer_to_tech']);
    expect(first.tools[0].function.description).toContain('Invoices and refunds');
    expect(second.messages[0].content).toContain('You do billing.');
    expect(second.messages[0].content).toContain('handed this conversation to "billing" because: a billing question');
    expect(second.messages.at(-1)).toEqual({ role: 'user', content: 'my invoice is wrong' });
    expect(second.tools ?? []).toEqual([]);
    expect(llm.requests.length - before).toBe(2);

    // Stored: only the scheduled nodes are steps; the entry agent's outputs carry the chain.
    const runId = (events[0] as { runId: string }).runId;
    const detail = expectOk(await h.call('GET', `${RUNS(app)}/runs/${runId}`, member()));
    expect(detail.run).toMatchObject({ status: 'succeeded', mode: 'agent_team', answer: 'Your invoice is fixed.' });
    expect(detail.nodes.map((n: { node_id: string }) => n.node_id)).toEqual(['s', 'triage', 'ans']);
    expect(detail.nodes[1].outputs).toMatchObject({
      text: 'Your invoice is fixed.',
      answered_by: 'billing',
      handoff_to: '',
      agents: [
        { id: 'triage', text: '', handoff_to: 'billing', reason: 'a billing question' },
        { id: 'billing', text: 'Your invoice is fixed.' },
      ],
    });
  });

  it('each message of a conversation starts at the entry agent again', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Help desk 2', team());
    const one = await chat(app, { query: 'my invoice is wrong' });
    const conversationId = (one[0] as { conversationId: string }).conversationId;
    const two = await chat(app, { query: 'the wifi is down', conversation_id: conversationId });
    expect(two.at(-1)).toMatchObject({ type: 'run_finished', answer: 'Restart the router.' });
    expect((two[0] as { conversationId: string }).conversationId).toBe(conversationId);
  });

  it('refuses a team whose member is broken (named), and a workflow run of a team', async () => {
    const broken = await createApp(h, f.u.member.token, f.wsA, 'Broken desk', team([['billing', { instructions: 'You do billing.', handoffDescription: 'x', model: { provider: '', name: '' } }]]));
    const r = await h.call('POST', `${RUNS(broken)}/draft/chat-messages`, { ...member(), body: { query: 'hi' } });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.data.map((i: { node_id: string }) => i.node_id)).toContain('billing');

    const ok = await createApp(h, f.u.member.token, f.wsA, 'Desk 3', team());
    const wf = await h.call('POST', `${RUNS(ok)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } });
    expectCode(wf, 400, 'VALIDATION-1000');
    expect(wf.body.msg).toContain('is a conversation');
  });

  it('a member of another workspace cannot run the team', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Desk 4', team());
    expectCode(await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { token: f.u.outsider.token, workspaceId: f.wsA, body: { query: 'hi' } }), 400, 'VALIDATION-1000');
  });
});
