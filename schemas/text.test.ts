import { describe, expect, it } from 'vitest';
import { findTextProblem, TEXT_RULE_MESSAGES, textProblem } from './text';

describe('the text rule', () => {
  it('accepts any Unicode text, surrogate pairs (emoji, rare CJK) included', () => {
    expect(textProblem('Hello 你好 😀 𠀋 \t\n')).toBeUndefined();
    expect(findTextProblem({ a: ['x', { b: '😀' }], n: 1, t: true, z: null }, 'body')).toBeUndefined();
  });

  it('refuses NUL and lone surrogates of either half, naming the path', () => {
    expect(textProblem('a\u0000b')).toBe(TEXT_RULE_MESSAGES.nul);
    expect(textProblem('a\ud800')).toBe(TEXT_RULE_MESSAGES.surrogate);
    expect(textProblem('\udc00a')).toBe(TEXT_RULE_MESSAGES.surrogate);
    expect(textProblem('\ude00\ud83d')).toBe(TEXT_RULE_MESSAGES.surrogate);
    expect(findTextProblem({ a: [{}, { b: 'x\u0000' }] }, 'body')).toEqual({ path: 'body/a/1/b', message: TEXT_RULE_MESSAGES.nul });
    expect(findTextProblem({ ['k\ud800']: 1 }, 'body')).toEqual({ path: 'body/k\\ud800', message: `key ${TEXT_RULE_MESSAGES.surrogate}` });
    expect(findTextProblem('\u0000', 'querystring')).toEqual({ path: 'querystring', message: TEXT_RULE_MESSAGES.nul });
  });

  it('walks a very deep value without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findTextProblem(deep, 'body')?.message).toBe(TEXT_RULE_MESSAGES.nul);
  });
});
