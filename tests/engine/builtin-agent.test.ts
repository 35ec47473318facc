// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ToolService } from '../../src/plugin-sdk';
import { fakeModels, flow, model, runBuiltin, withBuiltinTools } from './builtin-kit';

const tool = (providerId: string, name: string, type = 'tool') => ({ type, providerId, name, enabled: true });

describe('built-in kinds: agent', () => {
  it('runs a function-calling loop: tool calls go out, their results come back, the final text streams into the answer', async () => {
    const calls: unknown[] = [];
    const tools: ToolService = {
      describe: async ({ provider, name }) => (provider === 'weather' && name === 'now' ? { name: 'weather now', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } : undefined),
      call: async (t, args) => {
        calls.push([t, args]);
        return { city: args.city, temperature: 21 };
      },
    };
    const models = fakeModels((req, n) => {
      if (n === 0) {
        return {
          text: '',
          toolCalls: [
            { id: 'a', name: 'calculator', arguments: { expression: '6 * 7' } },
            { id: 'b', name: 'weather_now', arguments: { city: 'Oslo' } },
            { id: 'c', name: 'nope', arguments: {} },
          ],
        };
      }
      return { chunks: ['It is ', '21° and 42.'] };
    });
    const doc = flow(
      [
        ['s', 'start'],
        ['ag', 'agent', { model, instructions: 'Help {{#sys.user_id#}}', tools: [tool('builtin', 'calculator'), tool('weather', 'now')], maxIterations: 4 }],
        ['ans', 'answer', { answer: '{{#ag.text#}}' }],
      ],
      [
        ['s', 'ag'],
        ['ag', 'ans'],
      ],
      'agent',
    );
    const r = runBuiltin(doc, { sys: { query: 'weather and 6*7?', user_id: 'u1' }, services: { models: models.service, tools: withBuiltinTools(tools) } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', answer: 'It is 21° and 42.', usage: { totalTokens: 30 } });
    expect(r.of('answer_chunk').map((e) => e.text)).toEqual(['It is ', '21° and 42.']);
    expect(calls).toEqual([[{ provider: 'weather', name: 'now' }, { city: 'Oslo' }]]);

    const [first, second] = models.requests;
    expect(first.tools!.map((t) => t.name)).toEqual(['calculator', 'weather_now']);
    expect(first.messages).toEqual([
      { role: 'system', content: 'Help u1' },
      { role: 'user', content: 'weather and 6*7?' },
    ]);
    expect(second.messages.slice(2)).toEqual([
      { role: 'assistant', content: '', toolCalls: expect.any(Array) },
      { role: 'tool', toolCallId: 'a', content: '42' },
      { role: 'tool', toolCallId: 'b', content: '{"city":"Oslo","temperature":21}' },
      { role: 'tool', toolCallId: 'c', content: 'Error: There is no tool "nope"' },
    ]);
    const out = r.of('node_finished', 'ag')[0].outputs as { handoff_to: string; steps: unknown[]; usage: unknown };
    expect(out.handoff_to).toBe('');
    expect(out.steps).toHaveLength(3);
    expect(out.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
  });

  it('stops calling tools after maxIterations and asks the model to answer', async () => {
    const models = fakeModels((req) => (req.tools?.length ? { text: '', toolCalls: [{ id: 'x', name: 'current_time', arguments: { timezone: 'Asia/Tokyo' } }] } : { text: 'done' }));
    const doc = flow(
      [
        ['s', 'start'],
        ['ag', 'agent', { model, instructions: 'x', tools: [tool('builtin', 'current_time')], maxIterations: 2 }],
      ],
      [['s', 'ag']],
      'agent',
    );
    const r = runBuiltin(doc, { sys: { query: 'time?' }, services: { models: models.service, tools: withBuiltinTools() } });
    expect(await r.result).toMatchObject({ status: 'succeeded' });
    expect(models.requests).toHaveLength(3);
    expect(models.requests[2].tools).toBeUndefined();
    expect(models.requests[2].messages.at(-1)!.content).toContain('step limit');
    expect(models.requests[2].messages.filter((m) => m.role === 'tool')[0].content).toContain('(Asia/Tokyo)');
    expect(r.of('node_finished', 'ag')[0].outputs).toMatchObject({ text: 'done' });
  });

  it('agent team: a hand-off ends the agent with handoff_to, and an if-else on it routes to the chosen agent', async () => {
    const models = fakeModels((req) => {
      const system = req.messages[0].content;
      if (system === 'You triage.') return { text: '', toolCalls: [{ id: 'h', name: 'transfer_to_billing', arguments: { reason: 'invoice' } }] };
      return { text: 'Billing here.' };
    });
    const doc = flow(
      [
        ['s', 'start'],
        ['triage', 'agent', { model, instructions: 'You triage.', handoffs: ['billing'] }],
        [
          'route',
          'if-else',
          { cases: [{ id: 'to_billing', logicalOperator: 'and', conditions: [{ id: '', selector: ['triage', 'handoff_to'], operator: 'is', value: 'billing' }] }] },
        ],
        ['billing', 'agent', { model, instructions: 'You do billing.', handoffDescription: 'Invoices' }],
        ['a1', 'answer', { answer: '{{#billing.text#}}' }],
        ['a2', 'answer', { answer: '{{#triage.text#}}' }],
      ],
      [
        ['s', 'triage'],
        ['triage', 'route'],
        ['route', 'billing', 'to_billing'],
        ['billing', 'a1'],
        ['route', 'a2', 'false'],
      ],
      'agent_team',
    );
    const r = runBuiltin(doc, { sys: { query: 'my invoice is wrong' }, services: { models: models.service } });
    expect(await r.result).toMatchObject({ status: 'succeeded', answer: 'Billing here.' });
    expect(r.of('node_finished', 'triage')[0].outputs).toMatchObject({ handoff_to: 'billing' });
    expect(models.requests[0].tools!.map((t) => t.name)).toEqual(['transfer_to_billing']);
    expect(models.requests).toHaveLength(2);
  });

  it('a tool the service cannot describe fails the agent with TOOL-NOT-FOUND', async () => {
    const models = fakeModels(() => ({ text: 'unused' }));
    const doc = flow(
      [
        ['s', 'start'],
        ['ag', 'agent', { model, instructions: 'x', tools: [tool('builtin', 'teleport')] }],
      ],
      [['s', 'ag']],
      'agent',
    );
    expect((await runBuiltin(doc, { sys: { query: 'q' }, services: { models: models.service, tools: withBuiltinTools() } }).result).error).toMatchObject({ code: 'TOOL-NOT-FOUND', nodeId: 'ag' });
  });
});
