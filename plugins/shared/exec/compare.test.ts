import { describe, expect, it } from 'vitest';
import type { VariableReader } from '../../../src/plugin-sdk';
import { COMPARISON_OPERATORS, type ComparisonOperator } from '../conditions';
import { compare, evaluateConditions } from './compare';

describe('condition operators', () => {
  const cases: [unknown, ComparisonOperator, string, boolean][] = [
    ['hello world', 'contains', 'lo w', true],
    [['a', 'b'], 'contains', 'b', true],
    [[1, 2], 'contains', '2', true],
    [42, 'contains', '4', false],
    ['hello', 'not contains', 'x', true],
    [['a'], 'not contains', 'a', false],
    ['hello', 'start with', 'he', true],
    ['hello', 'end with', 'lo', true],
    [3, 'start with', '3', false],
    ['yes', 'is', 'yes', true],
    [3, 'is', '3.0', true],
    [true, 'is', 'true', true],
    [undefined, 'is', '', false],
    ['yes', 'is not', 'no', true],
    [null, 'is not', 'x', true],
    ['', 'empty', '', true],
    [[], 'empty', '', true],
    [{}, 'empty', '', true],
    [null, 'empty', '', true],
    [0, 'empty', '', false],
    ['x', 'not empty', '', true],
    [10, '=', '10', true],
    ['10', '=', '10.0', true],
    [10, '≠', '11', true],
    ['abc', '≠', '1', true],
    ['abc', '=', '1', false],
    [11, '>', '10', true],
    [9, '<', '10', true],
    [10, '≥', '10', true],
    [10, '≤', '9', false],
    [[1, 2, 3], '>', '2', true],
    ['b', 'in', 'a, b, c', true],
    [2, 'in', '[1, 2]', true],
    ['d', 'in', 'a,b', false],
    ['d', 'not in', 'a,b', true],
    [['a', 'b', 'c'], 'all of', 'a,c', true],
    [['a'], 'all of', '["a","b"]', false],
    ['a', 'all of', 'a', false],
    [null, 'null', '', true],
    [undefined, 'null', '', true],
    [0, 'not null', '', true],
    [null, 'exists', '', true],
    [undefined, 'exists', '', false],
    [undefined, 'not exists', '', true],
  ];

  it.each(cases)('%j %s %j → %s', (actual, op, expected, result) => expect(compare(actual, op, expected)).toBe(result));

  it('covers every operator of the shared list', () => {
    expect(new Set(cases.map((c) => c[1]))).toEqual(new Set(COMPARISON_OPERATORS));
  });

  it('renders the compared value and joins with and/or', () => {
    const values: Record<string, unknown> = { 'a.n': 5, 'a.limit': 4 };
    const reader: VariableReader = {
      get: (s) => values[s.join('.')],
      has: (s) => s.join('.') in values,
      render: (t) => t.replace(/\{\{#([\w.]+)#\}\}/g, (_, k: string) => String(values[k])),
    };
    const above = { id: '', selector: ['a', 'n'], operator: '>' as const, value: '{{#a.limit#}}' };
    const below = { ...above, operator: '<' as const };
    expect(evaluateConditions([above, below], 'and', reader)).toBe(false);
    expect(evaluateConditions([above, below], 'or', reader)).toBe(true);
  });
});
