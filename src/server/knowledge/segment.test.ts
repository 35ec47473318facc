// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cleanText, DEFAULT_PROCESS_RULE, segmentTable, segmentText, SEPARATORS, validateProcessRule } from './segment';
import type { ProcessRule } from './types';

const rule = (over: Partial<ProcessRule> = {}): ProcessRule => ({ ...DEFAULT_PROCESS_RULE, ...over });
const contents = (text: string, r: ProcessRule) => segmentText(text, r).map((s) => s.content);

/** Deterministic pseudo-random text mixing English, Chinese and all the separators. */
function randomText(seed: number, length: number): string {
  const words = ['alpha', 'beta', 'gamma', '知识库', '检索', '分段', 'Weft', 'segment', '数据', 'x'];
  const seps = ['\n', '\n\n', '。', '. ', '！', '! ', '？', '? ', ' ', ' ', ' ', ''];
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31);
  let out = '';
  while (out.length < length) out += words[next() % words.length]! + seps[next() % seps.length]!;
  return out;
}

describe('segmentText', () => {
  it('has the spec 9 defaults and separators', () => {
    expect(DEFAULT_PROCESS_RULE).toMatchObject({ mode: 'general', max_length: 800, overlap: 0 });
    expect([...SEPARATORS]).toEqual(['\n', '\n\n', '。', '.', '！', '!', '？', '?']);
  });

  it('keeps a short text as one segment and drops empty text', () => {
    expect(contents('  Hello world.  ', rule())).toEqual(['Hello world.']);
    expect(segmentText('   \n\n  ', rule())).toEqual([]);
  });

  it('prefers paragraph breaks over sentence ends', () => {
    const text = 'First sentence. Second sentence.\n\nThird paragraph here.';
    expect(contents(text, rule({ max_length: 40, separators: ['.', '\n\n'] }))).toEqual(['First sentence. Second sentence.', 'Third paragraph here.']);
  });

  it('splits Chinese text at 。！？ and packs sentences up to the maximum', () => {
    const text = '第一句话很短。第二句话也很短！第三句话是问题吗？第四句。';
    const out = contents(text, rule({ max_length: 16, separators: ['。', '！', '？'] }));
    expect(out).toEqual(['第一句话很短。第二句话也很短！', '第三句话是问题吗？第四句。']);
  });

  it('uses custom identifiers before newlines', () => {
    const text = 'part one\nstill one###part two\nstill two';
    expect(contents(text, rule({ max_length: 50, separators: ['\n', '###'] }))).toEqual(['part one\nstill one###part two\nstill two']);
    expect(contents(text, rule({ max_length: 22, separators: ['\n', '###'] }))).toEqual(['part one\nstill one###', 'part two\nstill two']);
  });

  it('cuts text without any separator hard at the maximum', () => {
    expect(contents('a'.repeat(120), rule({ max_length: 50 }))).toEqual(['a'.repeat(50), 'a'.repeat(50), 'a'.repeat(20)]);
  });

  it('never exceeds max_length and loses no words (no overlap)', () => {
    const words = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, '');
    for (let seed = 1; seed <= 30; seed++) {
      const text = randomText(seed, 3000);
      const r = rule({ max_length: 50 + seed * 7, separators: [...SEPARATORS] });
      const segs = contents(text, r);
      for (const s of segs) expect(s.length).toBeLessThanOrEqual(r.max_length);
      expect(words(segs.join(''))).toBe(words(cleanText(text, r)));
    }
  });

  it('leaves out what a cut leaves without a letter or digit (a lone 。 after a hard cut)', () => {
    const para = 'x'.repeat(50) + '。';
    expect(contents(`${para}\n\n${para}`, rule({ max_length: 50 }))).toEqual(['x'.repeat(50), 'x'.repeat(50)]);
    expect(contents('... !!! 。', rule({ max_length: 50 }))).toEqual([]);
  });

  it('carries the overlap from each segment into the next, within max_length', () => {
    const text = Array.from({ length: 20 }, (_, i) => `Sentence number ${i}.`).join(' ');
    const r = rule({ max_length: 60, overlap: 15, separators: ['.'] });
    const segs = contents(text, r);
    expect(segs.length).toBeGreaterThan(3);
    for (let i = 0; i < segs.length; i++) {
      expect(segs[i]!.length).toBeLessThanOrEqual(60);
      if (i > 0) {
        // The next segment starts with (trimmed) text from the end of the previous one.
        const head = segs[i]!.slice(0, 8);
        expect(segs[i - 1]!.slice(-20)).toContain(head);
      }
    }
    for (let seed = 1; seed <= 10; seed++) {
      for (const s of contents(randomText(seed, 2000), rule({ max_length: 80, overlap: 30, separators: [...SEPARATORS] }))) expect(s.length).toBeLessThanOrEqual(80);
    }
  });

  it('cleans extra spaces, URLs and emails when asked', () => {
    const raw = 'Mail  me at a.b@example.com   or see https://weft.dev/docs?x=1 now.\n\n\n\nNext';
    expect(cleanText(raw, { remove_extra_spaces: true, remove_urls_emails: true })).toBe('Mail me at or see now.\n\nNext');
    expect(cleanText(raw, { remove_extra_spaces: false, remove_urls_emails: false })).toBe(raw);
    expect(cleanText('访问 www.example.com，谢谢', { remove_extra_spaces: true, remove_urls_emails: true })).toBe('访问 ，谢谢');
  });

  it('makes parents of parent_max_length with children of max_length in parent-child mode', () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i}. ` + 'Some words here. '.repeat(8)).join('\n\n');
    const r = rule({ mode: 'parent_child', max_length: 60, parent_max_length: 300, separators: ['\n\n', '.'] });
    const segs = segmentText(paragraphs, r);
    expect(segs.length).toBeGreaterThan(1);
    for (const p of segs) {
      expect(p.content.length).toBeLessThanOrEqual(300);
      expect(p.children!.length).toBeGreaterThan(1);
      for (const c of p.children!) {
        expect(c.length).toBeLessThanOrEqual(60);
        expect(p.content).toContain(c);
      }
    }
  });
});

describe('segmentTable', () => {
  it('gives one "header: value" segment per row with the cells in metadata', () => {
    const segs = segmentTable(
      { name: 'S', headers: ['名称', 'Price', ''], rows: [['苹果', '3', 'extra'], ['', '', ''], ['香蕉', '', ' 黄色  水果 ']] },
      rule(),
    );
    expect(segs).toEqual([
      { content: '名称: 苹果; Price: 3; column 3: extra', metadata: { sheet: 'S', row_number: 1, row: { 名称: '苹果', Price: '3', 'column 3': 'extra' } } },
      { content: '名称: 香蕉; column 3: 黄色 水果', metadata: { sheet: 'S', row_number: 3, row: { 名称: '香蕉', 'column 3': '黄色 水果' } } },
    ]);
  });
});

describe('validateProcessRule', () => {
  it('accepts the defaults and spec separators', () => {
    expect(validateProcessRule(DEFAULT_PROCESS_RULE)).toBeNull();
    expect(validateProcessRule(rule({ separators: [...SEPARATORS, '###'] }))).toBeNull();
    expect(validateProcessRule(rule({ mode: 'parent_child', max_length: 500, parent_max_length: 2000 }))).toBeNull();
  });

  it('refuses bad lengths, overlaps and parent sizes', () => {
    expect(validateProcessRule(rule({ max_length: 10 }))).toMatch(/Maximum segment length/);
    expect(validateProcessRule(rule({ max_length: 5000 }))).toMatch(/from 50 to 4000/);
    expect(validateProcessRule(rule({ max_length: 100.5 }))).toMatch(/integer/);
    expect(validateProcessRule(rule({ max_length: undefined as unknown as number }))).toMatch(/required/);
    expect(validateProcessRule(rule({ overlap: 800 }))).toMatch(/Overlap/);
    expect(validateProcessRule(rule({ overlap: -1 }))).toMatch(/Overlap/);
    expect(validateProcessRule(rule({ mode: 'parent_child', parent_max_length: 500 }))).toMatch(/Parent segment length/);
    expect(validateProcessRule(rule({ mode: 'bogus' as 'general' }))).toMatch(/mode/);
  });

  it('refuses system keywords, empty, long and duplicate identifiers', () => {
    expect(validateProcessRule(rule({ separators: [] }))).toMatch(/at least one/);
    for (const kw of ['\\n', 'NULL', 'undefined', '{{', 'newline']) expect(validateProcessRule(rule({ separators: ['\n', kw] }))).toMatch(/system keyword/);
    expect(validateProcessRule(rule({ separators: [''] }))).toMatch(/empty/);
    expect(validateProcessRule(rule({ separators: ['   '] }))).toMatch(/empty/);
    expect(validateProcessRule(rule({ separators: ['x'.repeat(11)] }))).toMatch(/at most 10/);
    expect(validateProcessRule(rule({ separators: ['\n', '\n'] }))).toMatch(/Duplicate/);
  });
});
