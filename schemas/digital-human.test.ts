import { describe, expect, it } from 'vitest';
import { BroadcastCreateBody, countWords } from './digital-human';

describe('countWords (spec 5: broadcast content at most 1000 words)', () => {
  it('counts each Chinese character and each other word; punctuation and spaces count nothing', () => {
    expect(countWords('你好，世界！')).toBe(4);
    expect(countWords("Hello, world! It's 2026.")).toBe(4);
    expect(countWords('你好 world 2 次')).toBe(5);
    expect(countWords('  ，。!? ')).toBe(0);
    expect(countWords('state-of-the-art')).toBe(1);
  });

  it('the body refuses an empty script and one over 1000 words with DH-1000', () => {
    const issue = (script: string) => BroadcastCreateBody.safeParse({ title: 't', script }).error?.issues[0];
    expect(issue('  ')).toMatchObject({ params: { code: 'DH-1000' } });
    expect(issue('字'.repeat(1001))).toMatchObject({ params: { code: 'DH-1000' } });
    expect(issue('word '.repeat(1001))).toMatchObject({ params: { code: 'DH-1000' } });
    expect(issue('字'.repeat(1000))).toBeUndefined();
    expect(issue('word '.repeat(1000))).toBeUndefined();
  });
});
