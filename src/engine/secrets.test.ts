import { describe, expect, it } from 'vitest';
import { createSecretMasker, SECRET_MASK } from './secrets';

describe('createSecretMasker', () => {
  const m = createSecretMasker(['sk-abc/123+x', 'ab', '', 4711]);

  it('masks every occurrence in strings, nested values and keys, in the forms a URL or JSON gives it', () => {
    expect(m.text('Bearer sk-abc/123+x and sk-abc/123+x')).toBe(`Bearer ${SECRET_MASK} and ${SECRET_MASK}`);
    expect(m.text(`https://api.test/v1?key=${encodeURIComponent('sk-abc/123+x')}`)).toBe(`https://api.test/v1?key=${SECRET_MASK}`);
    expect(m.text(new URLSearchParams({ key: 'sk-abc/123+x' }).toString())).toBe(`key=${SECRET_MASK}`);
    const v = { a: [{ b: 'x sk-abc/123+x' }], ['h sk-abc/123+x']: 1, n: 4711, keep: 47, flag: true, none: null };
    expect(m.value(v)).toEqual({ a: [{ b: `x ${SECRET_MASK}` }], [`h ${SECRET_MASK}`]: 1, n: SECRET_MASK, keep: 47, flag: true, none: null });
    // The input is not changed (the engine keeps using it).
    expect(v.a[0].b).toBe('x sk-abc/123+x');
  });

  it('masks a short secret only where a whole string is it', () => {
    expect(m.text('ab')).toBe(SECRET_MASK);
    expect(m.text('about a cab')).toBe('about a cab');
  });

  it('holds streamed text back while it may be the start of a secret', () => {
    const pieces = ['key: sk-a', 'bc/1', '23+x done, sk-', 'nothing'];
    const out = pieces.map((p) => m.chunk('s', p));
    expect(out).toEqual(['key: ', '', `${SECRET_MASK} done, `, 'sk-nothing']);
    expect(m.chunk('s', 'tail sk-ab')).toBe('tail ');
    expect(m.flush('s')).toBe('sk-ab');
    expect(m.flush('s')).toBe('');
  });

  it('does nothing without secrets', () => {
    const none = createSecretMasker(['', undefined, null]);
    expect(none.active).toBe(false);
    const v = { a: 'x' };
    expect(none.value(v)).toBe(v);
  });
});
