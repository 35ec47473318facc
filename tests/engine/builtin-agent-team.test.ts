// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../schemas/flow';
import { compile, RUN_ERRORS, type RunOptions } from '../../src/engine';
import type { ChatRequest } from '../../src/plugin-sdk';
import { HANDOFF_LIMIT } from '../../plugins/agent/executor';
import { fakeModels, flow, model, registries, type Reply } from './builtin-kit';
import { begin } from './kit';

/**
 * Agent teams: start → entry agent → answer, the other agents on the canvas without edges. The
 * server compiles such flows with the same `detached` option (src/server/runs/app-flow.ts).
 */
const teamOptions = { detached: (n: { kind: string }) => n.kind === 'agent' };

function compileTeam(doc: FlowDocument) {
  return compile(doc, registries, teamOptions);
}

function runTeam(doc: FlowDocument, opts: RunOptions) {
  const c = compileTeam(doc);
  if (!c.ok) throw new Error(`Flow does not compile: ${c.issues.map((i) => `${i.code} ${i.nodeId ?? ''} ${i.message}`).join('; ')}`);
  return begin(c.plan, opts);
}

/** An agent_team flow: `entry` wired start → entry → answer, `members` detached. */
function team(entry: Record<string, unknown>, members: [string, Record<string, unknown>][], answer = '{{#triage.text#}}'): FlowDocument {
  return flow(
    [['s', 'start'], ['triage', 'agent', { model, ...entry }], ...members.map(([id, c]): [string, string, Record<string, unknown>] => [id, 'agent', { model, ...c }]), ['ans', 'answer', { answer }]],
    [
      ['s', 'triage'],
      ['triage', 'ans'],
    ],
    'agent_team',
  );
}

/** Who a request is for: the first line of its system message (the agent's instructions). */
const whoOf = (req: ChatRequest) => (req.messages[0].role === 'system' ? req.messages[0].content.split('\n')[0] : '');
const transfer = (to: string, reason = ''): Reply => ({ text: '', toolCalls: [{ id: `h-${to}`, name: `transfer_to_${to}`, arguments: reason ? { reason } : {} }] });

type Outputs = {
  text: string;
  handoff_to: string;
  answered_by: string;
  agents: { id: string; title: string; text: string; handoff_to?: string; reason?: string }[];
  steps: { agent?: string; tool: string }[];
  usage: unknown;
};

describe('agent team: detached agents and hand-offs', () => {
  it('compiles detached agents as peers only with the option, and still checks their config', () => {
    const doc = team({ instructions: 'You triage.', handoffs: ['billing'] }, [['billing', { instructions: 'You do billing.', handoffDescription: 'Invoices' }]]);
    const plain = compile(doc, registries);
    expect(plain.ok).toBe(false);
    expect(!plain.ok && plain.issues).toEqual([expect.objectContaining({ code: RUN_ERRORS.UNREACHABLE, nodeId: 'billing' })]);

    const c = compileTeam(doc);
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect([...c.plan.peers.keys()]).toEqual(['billing']);
    expect(c.plan.nodes.has('billing')).toBe(false);
    expect(c.plan.root.nodes.map((n) => n.id)).toEqual(['s', 'triage', 'ans']);
    // Parsed with the schema's defaults, and with its executor.
    expect(c.plan.peers.get('billing')).toMatchObject({ kind: 'agent', executor: expect.any(Object), config: { maxIterations: 10, tools: [], query: ['sys', 'query'] } });

    // A detached agent with a broken config refuses the flow (the registry's checks run on it).
    const broken = team({ instructions: 'x', handoffs: ['billing'] }, [['billing', { instructions: 'b', handoffDescription: 'd', model: { provider: '', name: '' } }]]);
    const b = compileTeam(broken);
    expect(b.ok).toBe(false);
    expect(!b.ok && b.issues.every((i) => i.code === RUN_ERRORS.FLOW_INVALID && i.nodeId === 'billing')).toBe(true);

    // Only what the option names stands apart: a stray answer node is still unreachable.
    const stray = { ...doc, nodes: [...doc.nodes, { ...doc.nodes.at(-1)!, id: 'ans2', config: { answer: 'hello' } }] };
    const st = compileTeam(stray);
    expect(!st.ok && st.issues).toEqual([expect.objectContaining({ code: RUN_ERRORS.UNREACHABLE, nodeId: 'ans2' })]);
  });

  it('a hand-off target that is not an agent of the flow refuses the flow', () => {
    const doc = team({ instructions: 'You triage.', handoffs: ['ghost', 'ans'] }, []);
    const c = compileTeam(doc);
    expect(c.ok).toBe(false);
    const keys = !c.ok ? c.issues.map((i) => [i.code, i.nodeId, i.issue?.key, i.issue?.params]) : [];
    expect(keys).toEqual([
      [RUN_ERRORS.FLOW_INVALID, 'triage', 'issues.handoffMissing', { id: 'ghost' }],
      [RUN_ERRORS.FLOW_INVALID, 'triage', 'issues.handoffMissing', { id: 'ans' }],
    ]);
  });

  it('the entry agent hands off to billing, billing answers: its tokens stream as the answer, the chain is traced, usage summed', async () => {
    const models = fakeModels((req) => (whoOf(req) === 'You triage.' ? transfer('billing', 'an invoice question') : { chunks: ['Your invoice ', 'is fixed.'] }));
    const doc = team({ instructions: 'You triage.', handoffs: ['billing', 'tech'] }, [
      ['billing', { instructions: 'You do billing.', handoffDescription: 'Invoices and refunds', handoffs: ['triage', 'tech'] }],
      ['tech', { instructions: 'You fix tech.', handoffDescription: 'Bugs' }],
    ]);
    const r = runTeam(doc, { sys: { query: 'my invoice is wrong' }, services: { models: models.service } });
    expect(await r.result).toMatchObject({ status: 'succeeded', answer: 'Your invoice is fixed.', usage: { totalTokens: 30 } });
    expect(r.of('answer_chunk').map((e) => e.text)).toEqual(['Your invoice ', 'is fixed.']);
    expect(r.of('node_chunk', 'triage').map((e) => e.text)).toEqual(['Your invoice ', 'is fixed.']);
    // Only the scheduled nodes have node events.
    expect(r.trail().filter((t) => t.startsWith('node_finished'))).toEqual(['node_finished:s', 'node_finished:triage', 'node_finished:ans']);

    const out = r.of('node_finished', 'triage')[0].outputs as Outputs;
    expect(out).toMatchObject({ text: 'Your invoice is fixed.', handoff_to: '', answered_by: 'billing', usage: { total_tokens: 30 } });
    expect(out.agents).toEqual([
      { id: 'triage', title: 'triage', text: '', handoff_to: 'billing', reason: 'an invoice question' },
      { id: 'billing', title: 'billing', text: 'Your invoice is fixed.' },
    ]);
    expect(out.steps).toEqual([expect.objectContaining({ agent: 'triage', tool: 'transfer_to_billing' })]);

    const [first, second] = models.requests;
    expect(first.tools!.map((t) => t.name)).toEqual(['transfer_to_billing', 'transfer_to_tech']);
    expect(first.tools![0].description).toContain('Invoices and refunds');
    // Billing: its own instructions, told about the hand-off, on the same user message; never offered a way back.
    expect(second.messages[0].content).toContain('You do billing.');
    expect(second.messages[0].content).toContain('"triage" handed this conversation to "billing" because: an invoice question');
    expect(second.messages.at(-1)).toEqual({ role: 'user', content: 'my invoice is wrong' });
    expect(second.tools!.map((t) => t.name)).toEqual(['transfer_to_tech']);
  });

  it('billing hands off again to tech, which answers; what an earlier agent said streams first', async () => {
    const models = fakeModels((req) => {
      const who = whoOf(req);
      if (who === 'You triage.') return { text: 'One moment.', toolCalls: [{ id: 'h1', name: 'transfer_to_billing', arguments: {} }] };
      if (who === 'You do billing.') return transfer('tech', 'a login bug');
      return { chunks: ['Reset ', 'your password.'] };
    });
    const doc = team({ instructions: 'You triage.', handoffs: ['billing'] }, [
      ['billing', { instructions: 'You do billing.', handoffDescription: 'Invoices', handoffs: ['tech'] }],
      ['tech', { instructions: 'You fix tech.', handoffDescription: 'Bugs' }],
    ]);
    const r = runTeam(doc, { sys: { query: 'cannot log in to pay' }, services: { models: models.service } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', answer: 'One moment.\n\nReset your password.', usage: { totalTokens: 45 } });
    expect(r.of('answer_chunk').map((e) => e.text)).toEqual(['One moment.', '\n\nReset ', 'your password.']);
    const out = r.of('node_finished', 'triage')[0].outputs as Outputs;
    expect(out.text).toBe(result.answer);
    expect(out.answered_by).toBe('tech');
    expect(out.agents.map((a) => [a.id, a.handoff_to ?? null, a.text])).toEqual([
      ['triage', 'billing', 'One moment.'],
      ['billing', 'tech', ''],
      ['tech', null, 'Reset your password.'],
    ]);
    const tech = models.requests[2];
    expect(tech.tools).toBeUndefined();
    expect(tech.messages[0].content).toContain('It had told the user: "One moment."');
    expect(tech.messages[0].content).toContain('"billing" handed this conversation to "tech" because: a login bug');
    expect(tech.messages[0].content).toContain('You are "tech" now');
  });

  it(`stops handing off after ${HANDOFF_LIMIT} hand-offs: the agent reached then answers, offered no transfer`, async () => {
    const n = HANDOFF_LIMIT + 2;
    const ids = Array.from({ length: n }, (_, i) => `a${i}`);
    const models = fakeModels((req) => {
      const next = req.tools?.find((t) => t.name.startsWith('transfer_to_'));
      return next ? transfer(next.name.slice('transfer_to_'.length)) : { text: `${whoOf(req)} answers` };
    });
    // triage → a1 → a2 … each may hand to the next one.
    const doc = team(
      { instructions: 'a0', handoffs: ['a1'] },
      ids.slice(1).map((id, i) => [id, { instructions: id, handoffDescription: id, handoffs: ids[i + 2] ? [ids[i + 2]] : [] }]),
    );
    const r = runTeam(doc, { sys: { query: 'q' }, services: { models: models.service } });
    expect(await r.result).toMatchObject({ status: 'succeeded', answer: `a${HANDOFF_LIMIT} answers` });
    expect(models.requests).toHaveLength(HANDOFF_LIMIT + 1);
    expect(models.requests.at(-1)!.tools).toBeUndefined();
    const out = r.of('node_finished', 'triage')[0].outputs as Outputs;
    expect(out.agents).toHaveLength(HANDOFF_LIMIT + 1);
    expect(out.answered_by).toBe(`a${HANDOFF_LIMIT}`);
    expect(out.usage).toEqual({ prompt_tokens: 10 * (HANDOFF_LIMIT + 1), completion_tokens: 5 * (HANDOFF_LIMIT + 1), total_tokens: 15 * (HANDOFF_LIMIT + 1) });
  });

  it('a transfer the model invents (unknown or not offered) goes back to it as an error, and it answers', async () => {
    const models = fakeModels((req, call) => (call === 0 ? transfer('ghost') : { text: 'I will help myself.' }));
    const doc = team({ instructions: 'You triage.', handoffs: ['billing'] }, [['billing', { instructions: 'b', handoffDescription: 'd' }]]);
    const r = runTeam(doc, { sys: { query: 'q' }, services: { models: models.service } });
    expect(await r.result).toMatchObject({ status: 'succeeded', answer: 'I will help myself.' });
    expect(models.requests[1].messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'h-ghost', content: 'Error: There is no tool "transfer_to_ghost"' });
    const out = r.of('node_finished', 'triage')[0].outputs as Outputs;
    expect(out).toMatchObject({ answered_by: 'triage', handoff_to: '', agents: [{ id: 'triage', text: 'I will help myself.' }] });
  });

  it("a team member's own settings apply: its model, its tools and its knowledge bases", async () => {
    const searched: unknown[] = [];
    const models = fakeModels((req) => {
      if (whoOf(req) === 'You triage.') return transfer('docs');
      if (!req.messages.some((m) => m.role === 'tool')) return { text: '', toolCalls: [{ id: 'k', name: 'search_knowledge', arguments: { query: 'refund policy' } }] };
      return { text: 'Refunds take 5 days.' };
    });
    const doc = team({ instructions: 'You triage.', handoffs: ['docs'] }, [
      ['docs', { instructions: 'You answer from the docs.', handoffDescription: 'Policies', knowledgeIds: ['kb1'], knowledgeTopK: 2, model: { ...model, name: 'fake-2' } }],
    ]);
    const r = runTeam(doc, {
      sys: { query: 'refunds?' },
      services: {
        models: models.service,
        knowledge: {
          retrieve: async (q) => {
            searched.push(q);
            return [{ content: 'Refunds take 5 days.', score: 0.9, title: 'policy.md' }];
          },
        },
      },
    });
    expect(await r.result).toMatchObject({ status: 'succeeded', answer: 'Refunds take 5 days.' });
    expect(models.requests.map((q) => q.model)).toEqual(['fake-1', 'fake-2', 'fake-2']);
    expect(models.requests[0].tools!.map((t) => t.name)).toEqual(['transfer_to_docs']);
    expect(models.requests[1].tools!.map((t) => t.name)).toEqual(['search_knowledge']);
    expect(searched).toEqual([expect.objectContaining({ datasetIds: ['kb1'], text: 'refund policy', topK: 2 })]);
  });

  it('a team member with memory on sees the earlier turns', async () => {
    const models = fakeModels((req) => (whoOf(req) === 'You triage.' ? transfer('billing') : { text: 'ok' }));
    // Memory is on by default; the triage agent turns it off here.
    const doc = team({ instructions: 'You triage.', handoffs: ['billing'], memoryEnabled: false }, [['billing', { instructions: 'You do billing.', handoffDescription: 'd', memoryEnabled: true }]]);
    const memory = {
      history: async () => [
        { role: 'user' as const, content: 'earlier question' },
        { role: 'assistant' as const, content: 'earlier answer' },
      ],
    };
    const r = runTeam(doc, { sys: { query: 'now', conversation_id: 'c1' }, services: { models: models.service, memory } });
    expect(await r.result).toMatchObject({ status: 'succeeded', answer: 'ok' });
    expect(models.requests[0].messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(models.requests[1].messages.map((m) => [m.role, m.content.split('\n')[0]])).toEqual([
      ['system', 'You do billing.'],
      ['user', 'earlier question'],
      ['assistant', 'earlier answer'],
      ['user', 'now'],
    ]);
  });
});
