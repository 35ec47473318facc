// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { forEachRun, queryTokens, requiredTokens, searchTokens, tokenHolder, tokenList, tsqueryTerm } from './tokenize';

describe('searchTokens', () => {
  it('lower-cases ASCII words, strips punctuation and keeps digits', () => {
    expect(searchTokens('Hello, WORLD! Version 2.5 (beta)')).toBe('hello world version 2 5 beta');
  });

  it("gives a CJK run's adjacent bigrams and its last character, so every character begins a token", () => {
    expect(searchTokens('知识库')).toBe('知识 识库 库');
    expect(searchTokens('用Weft搭建')).toBe('用 weft 搭建 建');
    expect(searchTokens('한국어 문장')).toBe('한국 국어 어 문장 장');
    // Punctuation inside the CJK ranges (the katakana middle dot) is left out, as PostgreSQL's parser leaves it out.
    expect(searchTokens('コーヒー・ショップ')).toBe('コー ーヒ ヒー ー ショ ョッ ップ プ');
  });

  it('does not join CJK characters across punctuation or Latin words', () => {
    expect(tokenList('中，文')).toEqual(['中', '文']);
    expect(tokenList('x² ½ 2024年3月')).toEqual(['x2', '1', '2', '2024', '年', '3', '月']);
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
    // Punctuation inside the CJK ranges (the katakana middle dot) is stripped.
    expect(queryTokens('カ・ナ')).toEqual(['カ', 'ナ']);
    for (const t of queryTokens(`it's "odd" \\ \u0000 ::* 中-文`)) expect(t).toMatch(/^[\p{L}\p{N}]+$/u);
  });
});

describe('forEachRun', () => {
  // The regular expression the scanner replaces: CJK runs, then runs of other letters and digits.
  const RUN = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)|((?:(?![\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af])[\p{L}\p{N}])+)/gu;
  const runs = (s: string) => {
    const out: string[] = [];
    forEachRun(s, (cjk, a, b) => out.push(`${cjk ? 'c' : 'w'}:${s.slice(a, b)}`));
    return out;
  };
  it('finds the runs the regular expression finds, surrogate pairs and lone surrogates included', () => {
    const pool = ['a', 'Z', '9', ' ', '.', '知', '识', 'ひ', 'カ', '한', 'ß', 'é', '\u0301', '𐐀', '𠀀', '\ud800', '\udc00', 'ﹳ', '½', 'Ω', 'я', '-', '。', '🎉', 'ا', '\u200d', '\u30fb'];
    let seed = 1;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 0x1_0000_0000;
    for (let k = 0; k < 3000; k++) {
      let s = '';
      for (let i = Math.floor(rnd() * 30); i > 0; i--) s += pool[Math.floor(rnd() * pool.length)];
      const want = [...s.matchAll(RUN)].map((m) => (m[1] ? `c:${m[1]}` : `w:${m[2]}`));
      expect(runs(s), JSON.stringify(s)).toEqual(want);
    }
  });
});

describe('query terms', () => {
  it('matches a CJK character as a prefix, anything else as itself', () => {
    expect(queryTokens('知识 Weft').map(tsqueryTerm)).toEqual(['知:*', '知识', '识:*', 'weft']);
  });

  it('requires the bigrams of a query, not the characters they hold', () => {
    expect(requiredTokens(queryTokens('知识 库 weft'))).toEqual(['知识', '库', 'weft']);
  });

  it("holds a CJK character that a stored bigram begins or the run ends with, in either token scheme", () => {
    const now = tokenHolder(searchTokens('知识库 weft'));
    const before = tokenHolder('知 知识 识 识库 库 weft');
    for (const holds of [now, before]) {
      expect(['知', '识', '库', '知识', '识库', 'weft'].every(holds)).toBe(true);
      expect(['知库', '文', 'wef'].some(holds)).toBe(false);
    }
  });
});
