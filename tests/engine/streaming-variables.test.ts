// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { flow, runBuiltin } from './builtin-kit';

// An answer quoting a conversation variable must show the value the run gave it before the answer
// ran, not the value at the start (the answer's literal text still streams at once).
describe('engine: answers quoting run-wide variables', () => {
  const doc = flow(
    [
      ['s', 'start'],
      ['set', 'variable-assigner', { assignments: [{ target: ['conversation', 'topic'], operation: 'over-write', source: 'constant', value: 'new' }] }],
      ['ans', 'answer', { answer: 'Topic: {{#conversation.topic#}}; asked {{#sys.query#}}' }],
    ],
    [
      ['s', 'set'],
      ['set', 'ans'],
    ],
    'chatflow',
    { conversation: [{ id: 'v1', name: 'topic', type: 'string', value: 'old', description: '' }] },
  );

  it('a conversation variable assigned earlier in the same run shows its new value', async () => {
    const r = runBuiltin(doc, { sys: { query: 'why' } });
    const result = await r.result;
    expect(result.status).toBe('succeeded');
    expect(result.answer).toBe('Topic: new; asked why');
    expect(result.conversation).toMatchObject({ topic: 'new' });
    // The literal text before the reference went out before the assigner ran.
    const trail = r.events.map((e) => (e.type === 'answer_chunk' ? `say:${e.text}` : `${e.type}:${'nodeId' in e ? e.nodeId : ''}`));
    expect(trail.indexOf('say:Topic: ')).toBeLessThan(trail.indexOf('node_started:set'));
    expect(trail.indexOf('say:new')).toBeGreaterThan(trail.indexOf('node_finished:set'));
  });

  it('the value given for the conversation is what an answer shows when nothing assigns it', async () => {
    const plain = { ...doc, nodes: doc.nodes.filter((n) => n.id !== 'set'), edges: [{ id: 'e', source: 's', sourceHandle: 'source', target: 'ans', targetHandle: 'target' }] };
    const result = await runBuiltin(plain, { sys: { query: 'q' }, conversation: { topic: 'kept' } }).result;
    expect(result.answer).toBe('Topic: kept; asked q');
  });
});
