import { describe, expect, it } from 'vitest';
import { COMPARISON_OPERATORS } from '../../../plugins/shared/conditions';
import { keepOrFirst, operatorsFor, takesValue } from './operators';

describe('operatorsFor', () => {
  it('offers text operators for strings', () => {
    const ops = operatorsFor(COMPARISON_OPERATORS, 'string');
    expect(ops).toEqual(expect.arrayContaining(['contains', 'start with', 'is', 'empty']));
    expect(ops).not.toContain('>');
    expect(ops).not.toContain('all of');
  });

  it('offers comparisons for numbers', () => {
    const ops = operatorsFor(COMPARISON_OPERATORS, 'number');
    expect(ops).toEqual(expect.arrayContaining(['=', '≠', '>', '<', '≥', '≤']));
    expect(ops).not.toContain('contains');
  });

  it('offers membership for arrays, existence for files and objects', () => {
    expect(operatorsFor(COMPARISON_OPERATORS, 'array[string]')).toEqual(['contains', 'not contains', 'empty', 'not empty', 'all of']);
    expect(operatorsFor(COMPARISON_OPERATORS, 'file')).toEqual(['exists', 'not exists']);
    expect(operatorsFor(COMPARISON_OPERATORS, 'object')).not.toContain('contains');
    expect(operatorsFor(COMPARISON_OPERATORS, 'boolean')).toEqual(['is', 'is not', 'null', 'not null']);
  });

  it('keeps the schema’s order and offers everything for an unknown type', () => {
    expect(operatorsFor(COMPARISON_OPERATORS, undefined)).toEqual([...COMPARISON_OPERATORS]);
    // A schema with other operators (metadata filters) falls back to its whole list.
    expect(operatorsFor(['before', 'after'], 'string')).toEqual(['before', 'after']);
  });
});

describe('keepOrFirst and takesValue', () => {
  it('keeps a fitting operator, otherwise takes the first that fits', () => {
    expect(keepOrFirst('contains', ['contains', 'is'])).toBe('contains');
    expect(keepOrFirst('>', ['contains', 'is'])).toBe('contains');
  });

  it('knows which operators take no value', () => {
    expect(takesValue('empty')).toBe(false);
    expect(takesValue('not exists')).toBe(false);
    expect(takesValue('=')).toBe(true);
  });
});
