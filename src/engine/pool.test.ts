// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { stringify, templateSegments, VariablePool } from './pool';

const root = { sys: { query: 'hi', files: [] }, env: { KEY: 'k' }, conversation: { n: 1 } };

describe('VariablePool', () => {
  it('reads namespaces, node outputs and nested paths, and falls back to the parent scope', () => {
    const outer = new VariablePool(root).set('http', { body: { items: ['a'], user: { name: 'Ada' } } });
    const inner = new VariablePool(root, outer).set('it', { item: 'x', index: 0 });
    expect(inner.get(['sys', 'query'])).toBe('hi');
    expect(inner.get(['env', 'KEY'])).toBe('k');
    expect(inner.get(['conversation', 'n'])).toBe(1);
    expect(inner.get(['http', 'body', 'user', 'name'])).toBe('Ada');
    expect(inner.get(['it', 'item'])).toBe('x');
    expect(outer.get(['it', 'item'])).toBeUndefined();
    expect(inner.get(['http', 'body', 'missing', 'deeper'])).toBeUndefined();
    expect(inner.has(['http', 'body'])).toBe(true);
    // Inherited properties are not values.
    expect(inner.get(['http', 'body', 'constructor'])).toBeUndefined();
  });

  it('renders templates: strings as they are, other values as JSON, missing as empty', () => {
    const pool = new VariablePool(root).set('a', { text: 'T', n: 2, list: [1, 2], nothing: null });
    expect(pool.render('{{#a.text#}}-{{#a.n#}}-{{#a.list#}}-{{#a.nothing#}}-{{#a.ghost#}}-{{#sys.query#}}')).toBe('T-2-[1,2]---hi');
    expect(pool.render('no references')).toBe('no references');
    expect(stringify({ a: 1 })).toBe('{"a":1}');
    expect(stringify(true)).toBe('true');
  });

  it('splits a template into literal text and references', () => {
    expect(templateSegments('Hi {{#llm.text#}}!')).toEqual([{ text: 'Hi ' }, { selector: ['llm', 'text'] }, { text: '!' }]);
    expect(templateSegments('{{#a.b#}}{{#c.d#}}')).toEqual([{ selector: ['a', 'b'] }, { selector: ['c', 'd'] }]);
  });
});
