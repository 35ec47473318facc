/**
 * Subtitles of a broadcast: the script cut into sentences (long ones at commas), each spoken on its
 * own so that its cue lasts exactly its audio (render.ts). Written as SRT (muxed into the MP4 as soft
 * mov_text) and WebVTT (the page's <track>, since browsers do not show mov_text). Pure.
 */
import { countWords } from '../../../schemas/digital-human';

export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** Sentences: split after 。！？；.!?; and at line breaks; long sentences cut at commas to stay readable. */
export function sentences(script: string): string[] {
  const parts = script
    .split(/(?<=[。！？；!?;]|\.(?=\s|$))|\n+/u)
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const p of parts) {
    if (countWords(p) <= 40) {
      out.push(p);
      continue;
    }
    let cur = '';
    for (const piece of p.split(/(?<=[，,、：:])/u)) {
      if (cur && countWords(cur + piece) > 40) {
        out.push(cur.trim());
        cur = '';
      }
      cur += piece;
    }
    if (cur.trim()) out.push(cur.trim());
  }
  // A piece still too long (no punctuation at all) is cut every 40 words, so each is spoken at once
  // within the speech layer's limits and shows as a readable subtitle.
  return out.flatMap((p) => (countWords(p) <= 60 ? [p] : cutEvery(p, 40)));
}

function cutEvery(text: string, words: number): string[] {
  const tokens = text.match(/[\u3400-\u9fff]|[^\s\u3400-\u9fff]+\s*|\s+/gu) ?? [];
  const out: string[] = [];
  let cur = '';
  for (const tok of tokens) {
    if (cur && countWords(cur + tok) > words) {
      out.push(cur.trim());
      cur = '';
    }
    cur += tok;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const stamp = (t: number, sep: string) => {
  const ms = Math.max(0, Math.round(t * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, l = 2) => String(n).padStart(l, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
};

// A cue's text on one line with no blank lines (which would end the cue early in both formats).
const oneLine = (t: string) => t.replace(/\s+/g, ' ').replace(/-->/g, '→');

export const toSrt = (cues: readonly Cue[]) => cues.map((c, i) => `${i + 1}\n${stamp(c.start, ',')} --> ${stamp(c.end, ',')}\n${oneLine(c.text)}\n`).join('\n');

export const toVtt = (cues: readonly Cue[]) => `WEBVTT\n\n${cues.map((c) => `${stamp(c.start, '.')} --> ${stamp(c.end, '.')}\n${oneLine(c.text)}\n`).join('\n')}`;
