import { describe, expect, it } from 'vitest';
import { findTrigger, insertReference, tokenize } from './template';

describe('tokenize', () => {
  it('cuts a text into plain parts and references that join back', () => {
    const text = 'Hi {{#sys.query#}}, see {{#llm_1.usage.total_tokens#}}!';
    const segs = tokenize(text);
    expect(segs.map((s) => s.kind)).toEqual(['text', 'ref', 'text', 'ref', 'text']);
    expect(segs[1]).toMatchObject({ selector: ['sys', 'query'], start: 3 });
    expect(segs[3]).toMatchObject({ selector: ['llm_1', 'usage', 'total_tokens'] });
    expect(segs.map((s) => s.text).join('')).toBe(text);
  });

  it('leaves malformed references as text', () => {
    expect(tokenize('{{#a#}} {{#.x#}} {{ plain }}')).toEqual([{ kind: 'text', text: '{{#a#}} {{#.x#}} {{ plain }}', start: 0 }]);
    expect(tokenize('')).toEqual([]);
  });
});

describe('findTrigger', () => {
  it('opens on {, {{ and {{# with the query typed after it', () => {
    expect(findTrigger('Hello {', 7)).toEqual({ start: 6, query: '' });
    expect(findTrigger('Hello {{#ll', 11)).toEqual({ start: 6, query: 'll' });
    expect(findTrigger('Hello {{sys.q', 13)).toEqual({ start: 6, query: 'sys.q' });
  });

  it('opens on a / that starts a word, not inside a word or a URL', () => {
    expect(findTrigger('ask /sy', 7)).toEqual({ start: 4, query: 'sy' });
    expect(findTrigger('/', 1)).toEqual({ start: 0, query: '' });
    expect(findTrigger('a/b', 3)).toBeNull();
    expect(findTrigger('see https://x', 13)).toBeNull();
  });

  it('closes after a space, and inside a finished reference', () => {
    expect(findTrigger('Hello { there', 13)).toBeNull();
    expect(findTrigger('{{#sys.query#}}', 8)).toBeNull();
    expect(findTrigger('plain text', 10)).toBeNull();
  });
});

describe('insertReference', () => {
  it('replaces the trigger and its query with the reference, caret after it', () => {
    const text = 'Hi {{#ll and more';
    const trigger = findTrigger(text, 8);
    expect(insertReference(text, 8, ['llm_1', 'text'], trigger)).toEqual({ text: 'Hi {{#llm_1.text#}} and more', caret: 19 });
  });

  it('inserts at the caret without a trigger', () => {
    expect(insertReference('ab', 1, ['sys', 'query'])).toEqual({ text: 'a{{#sys.query#}}b', caret: 16 });
  });
});
