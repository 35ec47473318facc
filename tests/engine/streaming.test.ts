// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { begin, createKit, flow, is, planOf } from './kit';

const said = (r: ReturnType<typeof begin>) => r.of('answer_chunk').map((e) => e.text);
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('engine: answer streaming', () => {
  it('streaming order: the answer says its text at once and passes the llm chunks on as they arrive', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [['s', 'start'], ['llm', 'stream', { chunks: ['He', 'llo'], gate: 'llm' }], ['ans', 'answer', { answer: 'Bot: {{#llm.text#}}!' }]],
        [['s', 'llm'], ['llm', 'ans']],
        'chatflow',
      ),
    );
    const r = begin(plan);
    await r.until(is('node_started', 'llm'));
    // The answer is sure to run, so its literal text goes out before the llm says anything.
    expect(said(r)).toEqual(['Bot: ']);
    kit.gate('llm:0').resolve();
    await r.until(is('answer_chunk'));
    await r.until((e) => e.type === 'answer_chunk' && e.text === 'He');
    expect(r.of('node_finished', 'llm')).toHaveLength(0);
    kit.gate('llm:1').resolve();
    const result = await r.result;
    expect(said(r)).toEqual(['Bot: ', 'He', 'llo', '!']);
    expect(result.answer).toBe('Bot: Hello!');
    expect(result.usage).toEqual({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
    // Each llm chunk is its own node_chunk, and goes to the answer right after.
    const order = r.events.filter((e) => e.type === 'node_chunk' || e.type === 'answer_chunk').map((e) => `${e.type}:${(e as { text: string }).text}`);
    expect(order).toEqual(['answer_chunk:Bot: ', 'node_chunk:He', 'answer_chunk:He', 'node_chunk:llo', 'answer_chunk:llo', 'answer_chunk:!']);
    expect(r.trail().slice(-2)).toEqual(['answer_chunk:ans', 'node_finished:ans']);
  });

  it('a later answer waits for the one before it, even when its own source streamed first', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start'],
          ['slow', 'stream', { chunks: ['1', '2'], gate: 'slow' }],
          ['fast', 'stream', { chunks: ['x', 'y'] }],
          ['a1', 'answer', { answer: 'A{{#slow.text#}};' }],
          ['a2', 'answer', { answer: 'B{{#fast.text#}}.' }],
        ],
        [['s', 'slow'], ['s', 'fast'], ['slow', 'a1'], ['a1', 'a2'], ['fast', 'a2']],
        'chatflow',
      ),
    );
    const r = begin(plan);
    await r.until(is('node_finished', 'fast'));
    expect(said(r)).toEqual(['A']);
    kit.gate('slow:0').resolve();
    kit.gate('slow:1').resolve();
    const result = await r.result;
    expect(result.answer).toBe('A12;Bxy.');
    expect(said(r)).toEqual(['A', '1', '2', ';', 'B', 'x', 'y', '.']);
  });

  it('an answer behind a branch waits for the branch, and a skipped answer says nothing', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start', { variables: [{ name: 'go', type: 'string' }] }],
          ['hold', 'step', { gate: 'hold', from: ['s', 'go'] }],
          ['if', 'branch', { cases: [{ id: 'yes', when: ['hold', 'value'] }] }],
          ['yes', 'answer', { answer: 'yes!' }],
          ['no', 'answer', { answer: 'no!' }],
        ],
        [['s', 'hold'], ['hold', 'if'], ['if', 'yes', 'yes'], ['if', 'no', 'else']],
        'chatflow',
      ),
    );
    const r = begin(plan, { inputs: { go: 'y' } });
    await r.until(is('node_started', 'hold'));
    await tick();
    expect(said(r)).toEqual([]);
    kit.gate('hold').resolve();
    const result = await r.result;
    expect(result.answer).toBe('yes!');
    expect(r.of('node_skipped').map((e) => e.nodeId)).toEqual(['no']);
  });

  it('an answer quoting a node that does not stream says its value once the node is done', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [['s', 'start'], ['calc', 'step', { text: '42', gate: 'calc' }], ['ans', 'answer', { answer: '= {{#calc.text#}}' }]],
        [['s', 'calc'], ['calc', 'ans']],
        'chatflow',
      ),
    );
    const r = begin(plan);
    await r.until(is('node_started', 'calc'));
    expect(said(r)).toEqual(['= ']);
    kit.gate('calc').resolve();
    expect((await r.result).answer).toBe('= 42');
  });

  it('answers inside an iteration say their whole text when they finish', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start', { variables: [{ name: 'list', type: 'array[string]' }] }],
          ['it', 'iteration', { items: ['s', 'list'] }],
          ['it-start', 'iteration-start', {}, 'it'],
          ['say', 'answer', { answer: '[{{#it.item#}}]' }, 'it'],
        ],
        [['s', 'it'], ['it-start', 'say']],
        'chatflow',
      ),
    );
    const result = await begin(plan, { inputs: { list: ['a', 'b'] } }).result;
    expect(result.answer).toBe('[a][b]');
  });
});
