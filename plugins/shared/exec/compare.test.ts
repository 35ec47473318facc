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

// Dify's file sub-conditions ("files contain one whose type is in image"): each test is tried on
// every file (any file for a positive test, all of them for a "not" one), the tests joined by and/or;
// "not contains" is the opposite of "contains".
describe('conditions on the files of a file list', () => {
  const files = [
    { name: 'notes.MD', mime_type: 'text/markdown', size: 120, transfer_method: 'local_file' },
    { name: 'cat.png', mime_type: 'image/png', size: 5000, transfer_method: 'remote_url', url: 'https://x.test/cat.png' },
  ];
  const values: Record<string, unknown> = { 'sys.files': files, 'sys.none': [], 'a.kind': 'image' };
  const reader: VariableReader = {
    get: (s) => values[s.join('.')],
    has: (s) => s.join('.') in values,
    render: (t) => t.replace(/\{\{#([\w.]+)#\}\}/g, (_, k: string) => String(values[k])),
  };
  const on = (operator: 'contains' | 'not contains', logicalOperator: 'and' | 'or', conditions: { key: string; operator: ComparisonOperator; value: string }[], selector = ['sys', 'files']) => [
    { id: 'c', selector, operator, value: '', fileConditions: { logicalOperator, conditions: conditions.map((c) => ({ id: '', ...c })) } },
  ];

  it.each([
    ['contains', 'and', [{ key: 'type', operator: 'in', value: 'image' }], true],
    ['contains', 'and', [{ key: 'type', operator: 'in', value: '{{#a.kind#}}' }], true],
    ['contains', 'and', [{ key: 'type', operator: 'in', value: 'video,audio' }], false],
    ['not contains', 'and', [{ key: 'type', operator: 'in', value: 'video' }], true],
    ['not contains', 'and', [{ key: 'type', operator: 'is', value: 'document' }], false],
    ['contains', 'and', [{ key: 'extension', operator: 'is', value: '.md' }], true],
    ['contains', 'and', [{ key: 'extension', operator: 'is', value: 'md' }], true],
    ['contains', 'and', [{ key: 'size', operator: '>', value: '4000' }, { key: 'name', operator: 'start with', value: 'notes' }], true],
    ['contains', 'or', [{ key: 'size', operator: '>', value: '9000' }, { key: 'transfer_method', operator: 'is', value: 'remote_url' }], true],
    ['contains', 'and', [{ key: 'size', operator: '>', value: '9000' }, { key: 'transfer_method', operator: 'is', value: 'remote_url' }], false],
    // A "not" test holds only when it holds for every file.
    ['contains', 'and', [{ key: 'mime_type', operator: 'not contains', value: 'image' }], false],
    ['contains', 'and', [{ key: 'mime_type', operator: 'not contains', value: 'video' }], true],
    ['contains', 'and', [{ key: 'url', operator: 'contains', value: 'x.test' }], true],
  ] as const)('%s %s %j → %s', (op, logical, conds, result) => {
    expect(evaluateConditions(on(op, logical, [...conds]), 'and', reader)).toBe(result);
  });

  it('holds for no file of an empty list (and "not contains" then holds)', () => {
    expect(evaluateConditions(on('contains', 'and', [{ key: 'type', operator: 'in', value: 'image' }], ['sys', 'none']), 'and', reader)).toBe(false);
    expect(evaluateConditions(on('not contains', 'and', [{ key: 'type', operator: 'in', value: 'image' }], ['sys', 'none']), 'and', reader)).toBe(true);
  });

  it('reads the type from the extension when a file value has no MIME type', () => {
    values['sys.bare'] = [{ file_id: '1', name: 'notes.md' }, { file_id: '2', name: 'photo.JPG' }];
    expect(evaluateConditions(on('contains', 'and', [{ key: 'type', operator: 'in', value: 'image' }], ['sys', 'bare']), 'and', reader)).toBe(true);
    expect(evaluateConditions(on('contains', 'and', [{ key: 'type', operator: 'in', value: 'video' }], ['sys', 'bare']), 'and', reader)).toBe(false);
  });

  it('compares the list itself when it has no file test', () => {
    expect(evaluateConditions(on('contains', 'and', []), 'and', reader)).toBe(false);
  });
});
