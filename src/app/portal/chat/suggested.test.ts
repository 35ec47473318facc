import { describe, expect, it } from 'vitest';
import { pickSuggested } from './suggested';

/** A random source that returns the given numbers in turn (then 0). */
const seq = (...values: number[]) => () => values.shift() ?? 0;

describe('pickSuggested', () => {
  const qs = ['a', 'b', 'c', 'd', 'e'];

  it('shows all of them when the count is 0 or not below their number', () => {
    expect(pickSuggested(qs, 0)).toEqual(qs);
    expect(pickSuggested(qs, 5)).toEqual(qs);
    expect(pickSuggested(qs, 9)).toEqual(qs);
    expect(pickSuggested([], 3)).toEqual([]);
  });

  it('never shows more than the count, each at most once, in their written order', () => {
    for (let i = 0; i < 200; i++) {
      const picked = pickSuggested(qs, 2);
      expect(picked).toHaveLength(2);
      expect(new Set(picked).size).toBe(2);
      expect([...picked].sort((x, y) => qs.indexOf(x) - qs.indexOf(y))).toEqual(picked);
    }
  });

  it('chooses at random: every question can be picked, by the random source given', () => {
    expect(pickSuggested(qs, 1, seq(0))).toEqual(['a']);
    expect(pickSuggested(qs, 1, seq(0.99))).toEqual(['e']);
    expect(pickSuggested(qs, 2, seq(0.5, 0.99))).toEqual(['c', 'e']);
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) seen.add(pickSuggested(qs, 1)[0]);
    expect([...seen].sort()).toEqual(qs);
  });
});
