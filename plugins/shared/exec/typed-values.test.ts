import { describe, expect, it } from 'vitest';
import { parseJsonLoose } from './model-call';
import { coerceValue, paramsJsonSchema } from './typed-values';

describe('typed values from models', () => {
  it.each([
    ['3', 'number', { ok: true, value: 3 }],
    ['x', 'number', { ok: false }],
    ['true', 'boolean', { ok: true, value: true }],
    [5, 'string', { ok: true, value: '5' }],
    [['1', 2], 'array[number]', { ok: true, value: [1, 2] }],
    [[{}], 'array[string]', { ok: false }],
    ['a', 'array[string]', { ok: false }],
    [{ a: 1 }, 'object', { ok: true, value: { a: 1 } }],
  ] as const)('%j as %s', (value, type, result) => expect(coerceValue(value, type)).toEqual(result));

  it('builds a JSON Schema with options and required names', () => {
    expect(
      paramsJsonSchema([
        { name: 'size', type: 'string', description: 'Size', required: true, options: ['s', 'm'] },
        { name: 'tags', type: 'array[string]', description: '', required: false, options: [] },
      ]),
    ).toEqual({
      type: 'object',
      properties: { size: { type: 'string', description: 'Size', enum: ['s', 'm'] }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['size'],
    });
  });

  it('reads JSON from plain text, a fenced block or prose around it', () => {
    expect(parseJsonLoose('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonLoose('Sure!\n```json\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(parseJsonLoose('The answer is {"a":3}. Done')).toEqual({ a: 3 });
    expect(parseJsonLoose('no json')).toBeUndefined();
  });
});
