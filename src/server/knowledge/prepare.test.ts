import { describe, expect, it } from 'vitest';
import { embedBuiltin } from './embed-builtin';
import { prepareBatch, tsvOf, vectorOf } from './prepare';
import { prepareOffThread } from './prepare-pool';
import { searchTokens } from './tokenize';

const TEXTS = ['Weft keeps knowledge in bases.', '知识库把文档切成分段，再向量化以便检索。', 'repeat repeat repeat 42', ''];

describe('prepare', () => {
  it('gives the tokens, a tsvector per text and the built-in vectors', () => {
    const p = prepareBatch(TEXTS, true);
    expect(p.tokens).toEqual(TEXTS.map(searchTokens));
    const want = embedBuiltin(TEXTS);
    TEXTS.forEach((_, k) => expect(Array.from(vectorOf(p, k))).toEqual(want[k]!.map((x) => Math.fround(x))));
    // 'repeat' three times: one lexeme with positions 1, 2, 3; then '42' at 4.
    const tsv = Buffer.from(tsvOf(p, 2));
    expect(tsv.readInt32BE(0)).toBe(2);
    expect(tsv.subarray(4, 7).toString()).toBe('42\0'.slice(0, 3));
    expect(Buffer.from(tsvOf(p, 3)).readInt32BE(0)).toBe(0);
    expect(prepareBatch(TEXTS, false).vectors).toBeNull();
  });

  it('answers the same on the worker thread, batches in flight together', async () => {
    const local = prepareBatch(TEXTS, true);
    const [a, b] = await Promise.all([prepareOffThread(TEXTS, true), prepareOffThread(TEXTS.slice(0, 2), false)]);
    expect(a.tokens).toEqual(local.tokens);
    expect(Buffer.from(a.tsv).equals(Buffer.from(local.tsv))).toBe(true);
    expect(Array.from(a.tsvEnds)).toEqual(Array.from(local.tsvEnds));
    expect(Array.from(a.vectors!)).toEqual(Array.from(local.vectors!));
    expect(b.vectors).toBeNull();
    expect(b.tokens).toEqual(local.tokens.slice(0, 2));
  });
});
