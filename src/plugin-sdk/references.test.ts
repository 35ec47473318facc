import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectReferences, mapReferences, MaybeSelector, remapNodeIds, Selector, Template } from './index';

const schema = z.object({
  query: Selector,
  maybe: MaybeSelector.optional(),
  prompt: Template.default(''),
  tags: z.array(z.string()).default([]),
  cases: z
    .array(
      z.object({
        id: z.string(),
        conditions: z.array(z.object({ variable_selector: MaybeSelector, value: z.string() })),
      }),
    )
    .default([]),
  mode: z.discriminatedUnion('type', [
    z.object({ type: z.literal('fixed'), value: z.string() }),
    z.object({ type: z.literal('variable'), from: Selector }),
  ]).optional(),
  headers: z.record(z.string(), z.string()).default({}),
  extra: z.unknown().optional(),
  count: z.number().default(1),
});
type Config = z.input<typeof schema>;

const config: Config = {
  query: ['start', 'q'],
  maybe: [],
  prompt: 'Answer {{#sys.query#}} with {{#llm1.text#}}',
  tags: ['llm1', 'text'],
  cases: [{ id: 'c1', conditions: [{ variable_selector: ['llm1', 'text'], value: 'ok {{#env.K#}}' }] }],
  mode: { type: 'variable', from: ['http1', 'body', 'items'] },
  headers: { Authorization: 'Bearer {{#env.TOKEN#}}' },
  extra: { nested: ['conversation', 'topic'], other: ['llm1', 'text'], note: '{{#llm1.usage#}}' },
  count: 2,
};

describe('collectReferences', () => {
  it('finds selector fields and text references along the schema, in order, with paths', () => {
    const refs = collectReferences(schema, config);
    expect(refs.map((r) => [r.source, r.selector.join('.'), r.path.join('/')])).toEqual([
      ['selector', 'start.q', 'query'],
      ['text', 'sys.query', 'prompt'],
      ['text', 'llm1.text', 'prompt'],
      ['selector', 'llm1.text', 'cases/0/conditions/0/variable_selector'],
      ['text', 'env.K', 'cases/0/conditions/0/value'],
      ['selector', 'http1.body.items', 'mode/from'],
      ['text', 'env.TOKEN', 'headers/Authorization'],
      // Under z.unknown(): namespaced selectors and text only (['llm1','text'] there may be data).
      ['selector', 'conversation.topic', 'extra/nested'],
      ['text', 'llm1.usage', 'extra/note'],
    ]);
    expect(refs[1].text).toMatchObject({ start: 7, end: 22 });
  });

  it('does not take a list of strings for a selector', () => {
    expect(collectReferences(schema, { query: ['a', 'b'], tags: ['llm1', 'text'] }).map((r) => r.path)).toEqual([['query']]);
  });

  it('walks values without a schema loosely (only namespaced selectors and text)', () => {
    expect(collectReferences(undefined, { a: ['sys', 'query'], b: ['n1', 'x'], c: ['{{#n1.y#}}'] }).map((r) => r.selector)).toEqual([
      ['sys', 'query'],
      ['n1', 'y'],
    ]);
  });
});

describe('remapNodeIds / mapReferences', () => {
  it('replaces node ids in selectors and texts, keeps data and namespaces, and does not mutate', () => {
    const before = JSON.stringify(config);
    const out = remapNodeIds(schema, config, { llm1: 'llm2', start: 'start9', http1: 'h', env: 'x', conversation: 'y' });
    expect(JSON.stringify(config)).toBe(before);
    expect(out).toEqual({
      ...config,
      query: ['start9', 'q'],
      prompt: 'Answer {{#sys.query#}} with {{#llm2.text#}}',
      tags: ['llm1', 'text'],
      cases: [{ id: 'c1', conditions: [{ variable_selector: ['llm2', 'text'], value: 'ok {{#env.K#}}' }] }],
      mode: { type: 'variable', from: ['h', 'body', 'items'] },
      // Under z.unknown() the mapped ids are recognised.
      extra: { nested: ['conversation', 'topic'], other: ['llm2', 'text'], note: '{{#llm2.usage#}}' },
    });
    // Untouched parts are shared, not copied.
    expect(out.headers).toBe(config.headers);
  });

  it('returns the same object when nothing changes', () => {
    expect(remapNodeIds(schema, config, new Map([['zzz', 'y']]))).toBe(config);
  });

  it('maps with a function (e.g. an output renamed)', () => {
    const out = mapReferences(schema, config, (sel) => (sel[0] === 'llm1' && sel[1] === 'text' ? ['llm1', 'answer'] : undefined));
    expect(out.prompt).toBe('Answer {{#sys.query#}} with {{#llm1.answer#}}');
    expect(out.cases?.[0].conditions[0].variable_selector).toEqual(['llm1', 'answer']);
  });
});
