// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { flow, runBuiltin } from './builtin-kit';

const field = (name: string, type: string, extra: Record<string, unknown> = {}) => ({ name, label: '', type, required: true, options: [], allowed_extensions: [], ...extra });

describe('built-in kinds: start, template-transform, end', () => {
  const doc = flow(
    [
      ['s', 'start', { variables: [field('name', 'text'), field('count', 'number'), field('color', 'select', { options: ['red', 'blue'], required: false })] }],
      [
        't',
        'template-transform',
        {
          inputs: [
            { name: 'name', selector: ['s', 'name'] },
            { name: 'count', selector: ['s', 'count'] },
            { name: 'color', selector: ['s', 'color'] },
          ],
          template: 'Hi {{ name | upper }}:{% for i in range(count) %} {{ i + 1 }}{% endfor %}{% if color %} in {{ color }}{% endif %} <b>',
        },
      ],
      [
        'e',
        'end',
        {
          outputs: [
            { name: 'text', selector: ['t', 'output'] },
            { name: 'count', selector: ['s', 'count'] },
          ],
        },
      ],
      ['n', 'note', { text: 'never runs' }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );

  it('coerces the form values, renders Jinja2 without escaping, and returns the end outputs; the note is not a step', async () => {
    const r = runBuiltin(doc, { inputs: { name: 'ada', count: '3' } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: 'Hi ADA: 1 2 3 <b>', count: 3 } });
    expect(r.of('node_finished', 's')[0].outputs).toEqual({ name: 'ada', count: 3, color: null });
    expect(r.trail().some((t) => t.endsWith(':n'))).toBe(false);
    expect(result.steps).toBe(3);
  });

  it('a missing required input fails the start with START-INPUT-REQUIRED', async () => {
    const result = await runBuiltin(doc, { inputs: { name: 'ada' } }).result;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'START-INPUT-REQUIRED', nodeId: 's' } });
    expect(result.error!.message).toContain('count');
  });

  it('a value outside a select field\'s options or a non-number fails with START-INPUT-INVALID', async () => {
    expect((await runBuiltin(doc, { inputs: { name: 'a', count: 1, color: 'green' } }).result).error).toMatchObject({ code: 'START-INPUT-INVALID' });
    expect((await runBuiltin(doc, { inputs: { name: 'a', count: 'many' } }).result).error).toMatchObject({ code: 'START-INPUT-INVALID' });
  });

  it("joins a string as Jinja2 does (its characters), and lists and attributes as before", async () => {
    const doc = flow(
      [
        ['s', 'start', { variables: [field('word', 'text')] }],
        ['t', 'template-transform', { inputs: [{ name: 'word', selector: ['s', 'word'] }], template: "{{ word | join('-') }}|{{ [1, 2] | join }}|{{ [{ 'n': 'a' }, { 'n': 'b' }] | join(', ', 'n') }}" }],
        ['e', 'end', { outputs: [{ name: 'text', selector: ['t', 'output'] }] }],
      ],
      [
        ['s', 't'],
        ['t', 'e'],
      ],
    );
    const result = await runBuiltin(doc, { inputs: { word: 'abc' } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: 'a-b-c|12|a, b' } });
  });

  it('a template error fails the node with TEMPLATE-RENDER-FAILED and the reason', async () => {
    const bad = flow(
      [
        ['s', 'start'],
        ['t', 'template-transform', { inputs: [], template: '{{ x | nosuchfilter }}' }],
      ],
      [['s', 't']],
    );
    const result = await runBuiltin(bad).result;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'TEMPLATE-RENDER-FAILED' } });
    expect(result.error!.message).toContain('nosuchfilter');
  });
});

describe('built-in kinds: if-else routing and the aggregator', () => {
  /** start(n, tags, word) → if-else { big: n > 10 and tags contains "vip"; word: word in a,b / starts with z; else } → one template each → aggregator → end. */
  const cond = (selector: string[], operator: string, value = '') => ({ id: '', selector, operator, value });
  const doc = flow(
    [
      ['s', 'start', { variables: [field('n', 'number'), field('word', 'text', { required: false }), field('tags', 'text', { required: false })] }],
      ['split', 'template-transform', { inputs: [{ name: 'tags', selector: ['s', 'tags'] }], template: '{{ tags }}' }],
      [
        'if',
        'if-else',
        {
          cases: [
            { id: 'big', logicalOperator: 'and', conditions: [cond(['s', 'n'], '>', '10'), cond(['s', 'tags'], 'contains', 'vip')] },
            { id: 'word', logicalOperator: 'or', conditions: [cond(['s', 'word'], 'in', 'alpha, beta'), cond(['s', 'word'], 'start with', 'z')] },
            { id: 'blank', logicalOperator: 'and', conditions: [cond(['s', 'word'], 'empty'), cond(['s', 'n'], '≤', '{{#s.n#}}')] },
          ],
        },
      ],
      ['a', 'template-transform', { inputs: [], template: 'BIG' }],
      ['b', 'template-transform', { inputs: [{ name: 'w', selector: ['s', 'word'] }], template: 'WORD {{ w }}' }],
      ['c', 'template-transform', { inputs: [], template: 'BLANK' }],
      ['d', 'template-transform', { inputs: [], template: 'ELSE' }],
      ['agg', 'variable-aggregator', { selectors: [['a', 'output'], ['b', 'output'], ['c', 'output'], ['d', 'output']] }],
      ['e', 'end', { outputs: [{ name: 'out', selector: ['agg', 'output'] }] }],
    ],
    [
      ['s', 'split'],
      ['split', 'if'],
      ['if', 'a', 'big'],
      ['if', 'b', 'word'],
      ['if', 'c', 'blank'],
      ['if', 'd', 'false'],
      ['a', 'agg'],
      ['b', 'agg'],
      ['c', 'agg'],
      ['d', 'agg'],
      ['agg', 'e'],
    ],
  );

  it.each([
    [{ n: 11, tags: 'vip,gold', word: 'x' }, 'BIG', 'big'],
    [{ n: '12', tags: 'basic', word: 'beta' }, 'WORD beta', 'word'],
    [{ n: 3, word: 'zebra' }, 'WORD zebra', 'word'],
    [{ n: 3, word: '' }, 'BLANK', 'blank'],
    [{ n: 3, word: 'gamma' }, 'ELSE', 'false'],
  ])('inputs %j take the branch that says %s', async (inputs, out, handle) => {
    const r = runBuiltin(doc, { inputs });
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { out } });
    expect(r.of('node_finished', 'if')[0].handle).toBe(handle);
    // The branches not taken are skipped, not run.
    const ran = ['a', 'b', 'c', 'd'].filter((id) => r.of('node_finished', id).length);
    expect(ran).toHaveLength(1);
    expect(r.of('node_skipped').map((e) => e.nodeId).sort()).toEqual(['a', 'b', 'c', 'd'].filter((id) => !ran.includes(id)));
  });
});
