// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { queryTokens, searchTokens, tokenList } from './tokenize';

describe('searchTokens', () => {
  it('lower-cases ASCII words, strips punctuation and keeps digits', () => {
    expect(searchTokens('Hello, WORLD! Version 2.5 (beta)')).toBe('hello world version 2 5 beta');
  });

  it('gives each CJK character and each adjacent bigram', () => {
    expect(searchTokens('知识库')).toBe('知 知识 识 识库 库');
    expect(searchTokens('用Weft搭建')).toBe('用 weft 搭 搭建 建');
  });

  it('does not join CJK characters across punctuation or Latin words', () => {
    expect(tokenList('中，文')).toEqual(['中', '文']);
    expect(tokenList('Café naïve')).toEqual(['café', 'naïve']);
    expect(tokenList('ｆｕｌｌ１２')).toEqual(['full12']);
  });

  it('gives nothing for punctuation only', () => {
    expect(searchTokens('!!! ... ？？')).toBe('');
  });
});

describe('queryTokens', () => {
  it('gives distinct tokens safe for to_tsquery', () => {
    expect(queryTokens("a & b | !c <-> d:* 'quote' (x)")).toEqual(['a', 'b', 'c', 'd', 'quote', 'x']);
    expect(queryTokens('知识 知识')).toEqual(['知', '知识', '识']);
    for (const t of queryTokens(`it's "odd" \\ \u0000 ::* 中-文`)) expect(t).toMatch(/^[\p{L}\p{N}]+$/u);
  });
});
