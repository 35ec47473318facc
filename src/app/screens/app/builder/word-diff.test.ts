import { describe, expect, it } from 'vitest';
import { wordDiff } from './word-diff';

describe('wordDiff', () => {
  it('marks the words added and removed, keeping the rest', () => {
    expect(wordDiff('Be nice to users.', 'Be very nice to everyone.')).toEqual([
      { type: 'same', text: 'Be ' },
      { type: 'added', text: 'very ' },
      { type: 'same', text: 'nice to ' },
      { type: 'removed', text: 'users.' },
      { type: 'added', text: 'everyone.' },
    ]);
  });

  it('a word followed by other whitespace is still the same word', () => {
    expect(wordDiff('in the city.', 'in the city.\n\nBe brief.')).toEqual([
      { type: 'same', text: 'in the city.' },
      { type: 'added', text: '\n\nBe brief.' },
    ]);
  });

  it('joins back to each text', () => {
    const before = 'You help {{#start.city#}} visitors.\n\nAnswer briefly.';
    const after = '# Role\nYou guide visitors of {{#start.city#}}.\n\nAnswer in short lists.';
    const parts = wordDiff(before, after);
    expect(parts.filter((p) => p.type !== 'added').map((p) => p.text).join('')).toBe(before);
    expect(parts.filter((p) => p.type !== 'removed').map((p) => p.text).join('')).toBe(after);
  });

  it('handles empty texts and falls back to lines for long ones', () => {
    expect(wordDiff('', 'new')).toEqual([{ type: 'added', text: 'new' }]);
    expect(wordDiff('old', '')).toEqual([{ type: 'removed', text: 'old' }]);
    const long = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    const parts = wordDiff(long, `${long} end`);
    expect(parts.filter((p) => p.type !== 'removed').map((p) => p.text).join('')).toBe(`${long} end`);
  });
});
