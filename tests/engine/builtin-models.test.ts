// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ConversationMemory } from '../../src/plugin-sdk';
import { fakeModels, flow, model, runBuiltin } from './builtin-kit';

const prompt = (role: string, text: string) => ({ role, text });

describe('built-in kinds: llm', () => {
  it('streams the llm text into the answer chunk by chunk in a chatflow, with usage and memory', async () => {
    const models = fakeModels(() => ({ chunks: ['Hel', 'lo ', 'Ada'] }));
    const memory: ConversationMemory = {
      history: async ({ conversationId, turns }) => [
        { role: 'user', content: `earlier question in ${conversationId} (${turns})` },
        { role: 'assistant', content: 'earlier answer' },
      ],
    };
    const doc = flow(
      [
        ['s', 'start'],
        ['llm', 'llm', { model, prompts: [prompt('system', 'You are terse.'), prompt('user', 'Greet {{#sys.query#}}')], memoryEnabled: true, memoryWindow: 3 }],
        ['ans', 'answer', { answer: 'Bot: {{#llm.text#}}.' }],
      ],
      [
        ['s', 'llm'],
        ['llm', 'ans'],
      ],
      'chatflow',
    );
    const r = runBuiltin(doc, { sys: { query: 'Ada', conversation_id: 'c1' }, services: { models: models.service, memory } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', answer: 'Bot: Hello Ada.', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } });
    // The reply went out in pieces as the model streamed, not in one piece at the end.
    expect(r.of('answer_chunk').map((e) => e.text)).toEqual(['Bot: ', 'Hel', 'lo ', 'Ada', '.']);
    expect(r.of('node_chunk', 'llm').map((e) => e.text)).toEqual(['Hel', 'lo ', 'Ada']);
    expect(r.of('node_finished', 'llm')[0].outputs).toMatchObject({ text: 'Hello Ada', usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    expect(models.requests[0]).toMatchObject({
      provider: 'fake',
      model: 'fake-1',
      parameters: { temperature: 0.7 },
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'earlier question in c1 (3)' },
        { role: 'assistant', content: 'earlier answer' },
        { role: 'user', content: 'Greet Ada' },
      ],
    });
  });

  it('puts the context into {{#context#}} and parses structured output as declared', async () => {
    const models = fakeModels(() => ({ text: '```json\n{"city": "Paris", "days": "3", "extra": true}\n```' }));
    const doc = flow(
      [
        ['s', 'start', { variables: [{ name: 'docs', label: '', type: 'text', required: true, options: [], allowed_extensions: [] }] }],
        [
          'llm',
          'llm',
          {
            model,
            prompts: [prompt('system', 'Use this: {{#context#}}'), prompt('user', 'Plan a trip')],
            contextEnabled: true,
            context: ['s', 'docs'],
            structuredOutputEnabled: true,
            structuredOutput: [
              { name: 'city', type: 'string', description: 'Where', required: true, options: [] },
              { name: 'days', type: 'number', description: 'How long', required: true, options: [] },
            ],
          },
        ],
        ['e', 'end', { outputs: [{ name: 'plan', selector: ['llm', 'structured_output'] }] }],
      ],
      [
        ['s', 'llm'],
        ['llm', 'e'],
      ],
    );
    const result = await runBuiltin(doc, { inputs: { docs: 'Paris is nice' }, services: { models: models.service } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { plan: { city: 'Paris', days: 3, extra: true } } });
    const req = models.requests[0];
    expect(req.parameters).toMatchObject({ response_format: 'json_object' });
    expect(req.messages.map((m) => m.content)).toContain('Use this: Paris is nice');
    expect(req.messages[0].content).toContain('"days":{"type":"number"');
  });

  it('fails with MODEL-OUTPUT-INVALID when structured output is not JSON, and MODEL-UNAVAILABLE without a model service', async () => {
    const doc = flow(
      [
        ['s', 'start'],
        ['llm', 'llm', { model, prompts: [prompt('user', 'hi')], structuredOutputEnabled: true, structuredOutput: [{ name: 'a', type: 'string', description: '', required: true, options: [] }] }],
      ],
      [['s', 'llm']],
    );
    const models = fakeModels(() => ({ text: 'sorry, no JSON today' }));
    expect((await runBuiltin(doc, { services: { models: models.service } }).result).error).toMatchObject({ code: 'MODEL-OUTPUT-INVALID', nodeId: 'llm' });
    expect((await runBuiltin(doc).result).error).toMatchObject({ code: 'MODEL-UNAVAILABLE', nodeId: 'llm' });
  });
});

describe('built-in kinds: question classifier', () => {
  const doc = flow(
    [
      ['s', 'start'],
      [
        'qc',
        'question-classifier',
        {
          model,
          query: ['sys', 'query'],
          classes: [
            { id: 'billing', name: 'Questions about invoices and payments' },
            { id: 'tech', name: 'Technical problems' },
          ],
          instruction: 'User language: {{#sys.user_id#}}',
        },
      ],
      ['a1', 'answer', { answer: 'billing team' }],
      ['a2', 'answer', { answer: 'tech team ({{#qc.class_name#}})' }],
    ],
    [
      ['s', 'qc'],
      ['qc', 'a1', 'billing'],
      ['qc', 'a2', 'tech'],
    ],
    'chatflow',
  );

  it('takes the branch of the class the model names, by id in JSON or by name in prose', async () => {
    const byId = fakeModels(() => ({ text: '{"class_id": "tech"}' }));
    const r = runBuiltin(doc, { sys: { query: 'the app crashes', user_id: 'fr' }, services: { models: byId.service } });
    expect(await r.result).toMatchObject({ status: 'succeeded', answer: 'tech team (Technical problems)' });
    expect(r.of('node_finished', 'qc')[0]).toMatchObject({ handle: 'tech', outputs: { class_name: 'Technical problems' } });
    expect(r.of('node_skipped').map((e) => e.nodeId)).toEqual(['a1']);
    const req = byId.requests[0];
    expect(req.messages[0].content).toContain('"billing"');
    expect(req.messages[0].content).toContain('User language: fr');
    expect(req.messages.at(-1)).toEqual({ role: 'user', content: 'the app crashes' });
    expect(req.parameters).toMatchObject({ temperature: 0 });

    const byName = fakeModels(() => ({ text: 'I think this is: Questions about invoices and payments' }));
    expect(await runBuiltin(doc, { sys: { query: 'refund?' }, services: { models: byName.service } }).result).toMatchObject({ answer: 'billing team' });
  });
});

describe('built-in kinds: parameter extractor', () => {
  const params = [
    { name: 'city', type: 'string', description: 'City', required: true, options: [] },
    { name: 'nights', type: 'number', description: 'Nights', required: true, options: [] },
    { name: 'breakfast', type: 'boolean', description: 'Breakfast', required: false, options: [] },
    { name: 'room', type: 'string', description: 'Room', required: false, options: ['single', 'double'] },
  ];
  const doc = (reasoningMode: string) =>
    flow(
      [
        ['s', 'start', { variables: [{ name: 'q', label: '', type: 'paragraph', required: true, options: [], allowed_extensions: [] }] }],
        ['pe', 'parameter-extractor', { model, query: ['s', 'q'], parameters: params, reasoningMode, instruction: 'Dates are in {{#sys.user_id#}}' }],
        [
          'e',
          'end',
          {
            outputs: [
              { name: 'city', selector: ['pe', 'city'] },
              { name: 'nights', selector: ['pe', 'nights'] },
              { name: 'breakfast', selector: ['pe', 'breakfast'] },
              { name: 'ok', selector: ['pe', '__is_success'] },
              { name: 'reason', selector: ['pe', '__reason'] },
            ],
          },
        ],
      ],
      [
        ['s', 'pe'],
        ['pe', 'e'],
      ],
    );

  it('function calling: offers a typed schema and reads the call, coercing types', async () => {
    const models = fakeModels(() => ({ text: '', toolCalls: [{ id: 'c1', name: 'extract_parameters', arguments: { city: 'Oslo', nights: '2', breakfast: 'true' } }] }));
    const result = await runBuiltin(doc('function_call'), { inputs: { q: 'two nights in Oslo with breakfast' }, services: { models: models.service } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { city: 'Oslo', nights: 2, breakfast: true, ok: 1, reason: '' } });
    const tool = models.requests[0].tools![0];
    expect(tool.name).toBe('extract_parameters');
    expect(tool.parameters).toMatchObject({ required: ['city', 'nights'], properties: { nights: { type: 'number' }, room: { enum: ['single', 'double'] } } });
  });

  it('prompt mode: reads the JSON answer; a missing required parameter gives __is_success 0 and the reason', async () => {
    const models = fakeModels(() => ({ text: 'Here you go: {"city": "Rome", "room": "suite"}' }));
    const result = await runBuiltin(doc('prompt'), { inputs: { q: 'a room in Rome' }, services: { models: models.service } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { city: 'Rome', nights: 0, breakfast: false, ok: 0 } });
    expect(result.outputs.reason).toContain('"nights" was not found');
    expect(result.outputs.reason).toContain('"room" should be one of single, double');
    expect(models.requests[0].tools).toBeUndefined();
    expect(models.requests[0].parameters).toMatchObject({ response_format: 'json_object' });
  });
});
