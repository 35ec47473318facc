import { describe, expect, it } from 'vitest';
import type { Assignment } from './manifest';
import { applyOperation } from './executor';

const op = (operation: Assignment['operation']): Assignment => ({ target: ['conversation', 'v'], operation, source: 'constant', selector: [] });

describe('variable assigner operations', () => {
  it.each([
    ['over-write', 1, 2, 2],
    ['set', 'a', 'b', 'b'],
    ['clear', [1], undefined, []],
    ['clear', 'text', undefined, ''],
    ['clear', 7, undefined, 0],
    ['clear', { a: 1 }, undefined, {}],
    ['append', [1], 2, [1, 2]],
    ['append', undefined, 'x', ['x']],
    ['extend', ['a'], ['b', 'c'], ['a', 'b', 'c']],
    ['remove-first', [1, 2, 3], undefined, [2, 3]],
    ['remove-last', [1, 2, 3], undefined, [1, 2]],
    ['+=', 1, 2, 3],
    ['-=', 5, '2', 3],
    ['*=', 3, 4, 12],
    ['/=', 9, 3, 3],
  ] as const)('%s on %j with %j gives %j', (operation, current, value, expected) => {
    expect(applyOperation(op(operation), current, value)).toEqual(expected);
  });

  it('never changes an array in place', () => {
    const list = [1];
    applyOperation(op('append'), list, 2);
    expect(list).toEqual([1]);
  });

  it.each([
    ['append', 'text', 1, 'not an array'],
    ['extend', [], 'x', 'not an array'],
    ['+=', 'text', 1, 'not a number'],
    ['*=', 1, 'many', 'not a number'],
    ['/=', 1, 0, 'division by zero'],
  ] as const)('%s on %j with %j fails: %s', (operation, current, value, message) => {
    expect(() => applyOperation(op(operation), current, value)).toThrow(message);
  });
});
