import { describe, expect, it } from 'vitest';
import { SentenceSplitter } from './sentences';

const all = (chunks: string[]) => {
  const s = new SentenceSplitter();
  return [...chunks.flatMap((c) => s.push(c)), ...s.flush()];
};

describe('SentenceSplitter', () => {
  it('gives each sentence as soon as it ends, zh and en, across chunks', () => {
    const s = new SentenceSplitter();
    expect(s.push('巴黎是法国的')).toEqual([]);
    expect(s.push('首都。它很美！你去过')).toEqual(['巴黎是法国的首都。', '它很美！']);
    expect(s.push('吗？Yes. It')).toEqual(['你去过吗？', 'Yes.']);
    expect(s.push(' is\nlovely')).toEqual(['It is']);
    expect(s.flush()).toEqual(['lovely']);
  });

  it('keeps decimals and dotted names whole; drops pieces with nothing to say', () => {
    expect(all(['Pi is 3', '.14 and example.com is a site.', ' **', '\n'])).toEqual(['Pi is 3.14 and example.com is a site.']);
    expect(all(['Done.'])).toEqual(['Done.']);
  });
});
