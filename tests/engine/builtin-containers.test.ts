// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { SandboxService } from '../../src/plugin-sdk';
import { flow, runBuiltin } from './builtin-kit';

const listInput = { name: 'list', label: '', type: 'text', required: true, options: [], allowed_extensions: [] };

describe('built-in kinds: iteration', () => {
  /** start(list) → code (splits the text; a fake sandbox) → iteration { template(item, index) } → end. */
  const splitter: SandboxService = { run: async ({ inputs }) => ({ parts: String(inputs.text).split(',') }) };
  const doc = (iteration: Record<string, unknown>, template = '{{ idx }}={{ item | upper }}') =>
    flow(
      [
        ['s', 'start', { variables: [listInput] }],
        ['split', 'code', { inputs: [{ name: 'text', selector: ['s', 'list'] }], code: 'function main({ text }) { return { parts: text.split(",") } }', outputs: [{ name: 'parts', type: 'array[string]' }] }],
        ['it', 'iteration', { iterator: ['split', 'parts'], output: ['t', 'output'], ...iteration }],
        ['it-start', 'iteration-start', {}, 'it'],
        [
          't',
          'template-transform',
          {
            inputs: [
              { name: 'item', selector: ['it', 'item'] },
              { name: 'idx', selector: ['it', 'index'] },
            ],
            template,
          },
          'it',
        ],
        ['e', 'end', { outputs: [{ name: 'out', selector: ['it', 'output'] }] }],
      ],
      [
        ['s', 'split'],
        ['split', 'it'],
        ['it-start', 't'],
        ['it', 'e'],
      ],
    );
  const opts = { inputs: { list: 'a,b,c' }, services: { sandbox: splitter } };

  it('runs the template once per element, serially or in parallel, keeping the order', async () => {
    for (const iteration of [{}, { parallel: true, maxParallelism: 2 }]) {
      const r = runBuiltin(doc(iteration), opts);
      expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { out: ['0=A', '1=B', '2=C'] } });
      expect(r.of('iteration_started')[0]).toMatchObject({ total: 3, parallelism: 'parallel' in iteration ? 2 : 1 });
    }
  });

  it('error mode remove-abnormal-output drops failed rounds; terminated fails the iteration', async () => {
    const failing = '{% if item == "b" %}{{ item | nosuch }}{% endif %}{{ item }}';
    const dropped = await runBuiltin(doc({ errorMode: 'remove-abnormal-output' }, failing), opts).result;
    expect(dropped).toMatchObject({ status: 'succeeded', outputs: { out: ['a', 'c'] } });
    const stopped = await runBuiltin(doc({}, failing), opts).result;
    expect(stopped).toMatchObject({ status: 'failed', error: { nodeId: 'it' } });
  });
});

describe('built-in kinds: loop and variable assigner', () => {
  it('assigners change loop variables each round and the break condition ends the loop', async () => {
    const doc = flow(
      [
        ['s', 'start'],
        [
          'lp',
          'loop',
          {
            loopVariables: [
              { name: 'total', type: 'number', source: 'constant', value: 1, selector: [] },
              { name: 'seen', type: 'array[number]', source: 'constant', value: [], selector: [] },
            ],
            breakConditions: [{ id: '', selector: ['lp', 'total'], operator: '≥', value: '20' }],
            logicalOperator: 'and',
            maxCount: 10,
          },
        ],
        ['lp-start', 'loop-start', {}, 'lp'],
        [
          'set',
          'variable-assigner',
          {
            assignments: [
              { target: ['lp', 'total'], operation: '*=', source: 'constant', value: 3, selector: [] },
              { target: ['lp', 'seen'], operation: 'append', source: 'variable', selector: ['lp', 'total'] },
            ],
          },
          'lp',
        ],
        [
          'e',
          'end',
          {
            outputs: [
              { name: 'total', selector: ['lp', 'total'] },
              { name: 'seen', selector: ['lp', 'seen'] },
            ],
          },
        ],
      ],
      [
        ['s', 'lp'],
        ['lp-start', 'set'],
        ['lp', 'e'],
      ],
    );
    const r = runBuiltin(doc);
    // 1 → 3 → 9 → 27: the third round reaches 20, so the loop breaks there.
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { total: 27, seen: [3, 9, 27] } });
    expect(r.of('node_finished', 'lp')[0].outputs).toMatchObject({ loop_rounds: 3, broke: true });
    expect(r.of('loop_next').map((e) => e.variables)).toEqual([
      { total: 1, seen: [] },
      { total: 3, seen: [3] },
      { total: 9, seen: [3, 9] },
    ]);
  });

  it('writes conversation variables (the run returns them), and a bad operation fails with ASSIGN-OPERATION-INVALID', async () => {
    const conv = [
      { id: 'v1', name: 'names', type: 'array[string]', value: ['x'], description: '' },
      { id: 'v2', name: 'count', type: 'number', value: 5, description: '' },
    ];
    const doc = (assignments: unknown[]) =>
      flow(
        [
          ['s', 'start'],
          ['set', 'variable-assigner', { assignments }],
          ['a', 'answer', { answer: '{{#conversation.names#}} {{#conversation.count#}}' }],
        ],
        [
          ['s', 'set'],
          ['set', 'a'],
        ],
        'chatflow',
        { conversation: conv as never },
      );
    const run = runBuiltin(
      doc([
        { target: ['conversation', 'names'], operation: 'extend', source: 'constant', value: ['y', 'z'], selector: [] },
        { target: ['conversation', 'names'], operation: 'remove-first', source: 'constant', selector: [] },
        { target: ['conversation', 'count'], operation: '-=', source: 'variable', selector: ['sys', 'query'] },
      ]),
      { sys: { query: '2' } },
    );
    expect(await run.result).toMatchObject({ status: 'succeeded', conversation: { names: ['y', 'z'], count: 3 } });
    // A node after the assigner reads the new values.
    expect(run.of('node_finished', 'a')[0].outputs).toEqual({ answer: '["y","z"] 3' });

    // The document's checks catch type mistakes they can see; a value known only at run time fails the node.
    const bad = await runBuiltin(doc([{ target: ['conversation', 'count'], operation: '/=', source: 'variable', selector: ['sys', 'query'] }]), { sys: { query: 'lots' } }).result;
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'ASSIGN-OPERATION-INVALID', nodeId: 'set' } });
  });
});
