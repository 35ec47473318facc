import { describe, expect, it } from 'vitest';
import { drawFrame, frameLevels } from './mouth';
import { sentences, toSrt, toVtt } from './subtitles';

describe('subtitles', () => {
  it('cuts a script into sentences (zh and en), long ones at commas, and writes SRT and WebVTT', () => {
    expect(sentences('大家好。今天天气很好！\nGood evening. Here is the news? Yes')).toEqual(['大家好。', '今天天气很好！', 'Good evening.', 'Here is the news?', 'Yes']);
    const long = `${'一二三四五六七八九十'.repeat(3)}，${'一二三四五六七八九十'.repeat(3)}。`;
    expect(sentences(long)).toEqual([`${'一二三四五六七八九十'.repeat(3)}，`, `${'一二三四五六七八九十'.repeat(3)}。`]);
    // No punctuation at all: still cut, so no single piece is too long to speak at once.
    expect(sentences('字'.repeat(1000)).every((p) => p.length <= 60)).toBe(true);
    const cues = [
      { start: 0, end: 1.25, text: 'Good evening.' },
      { start: 1.25, end: 62.5, text: 'Here --> is\nthe news.' },
    ];
    expect(toSrt(cues)).toBe('1\n00:00:00,000 --> 00:00:01,250\nGood evening.\n\n2\n00:00:01,250 --> 00:01:02,500\nHere → is the news.\n');
    expect(toVtt(cues)).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.250\nGood evening.\n\n00:00:01.250 --> 00:01:02.500\nHere → is the news.\n');
  });
});

describe('the mouth', () => {
  it('follows the loudness per frame (silence closed, speech open) and opens the jaw only below the mouth line', () => {
    const rate = 1000;
    const pcm = new Int16Array(rate * 2);
    for (let i = rate; i < 2 * rate; i++) pcm[i] = Math.round(Math.sin(i / 3) * 12000);
    const levels = frameLevels(pcm, rate, 10, 20);
    expect(Math.max(...levels.slice(0, 10))).toBe(0);
    expect(Math.min(...levels.slice(12, 20))).toBeGreaterThan(0.8);

    const w = 100;
    const h = 100;
    const base = Buffer.alloc(w * h * 3, 200);
    const out = Buffer.alloc(base.length);
    drawFrame(base, out, w, h, 0);
    expect(out.equals(base)).toBe(true);
    drawFrame(base, out, w, h, 1);
    const rowsChanged = new Set<number>();
    for (let i = 0; i < out.length; i += 3) if (out[i] !== 200) rowsChanged.add(Math.floor(i / 3 / w));
    expect(Math.min(...rowsChanged)).toBeGreaterThanOrEqual(66);
    expect(rowsChanged.size).toBeGreaterThan(2);
  });
});
