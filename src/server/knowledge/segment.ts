/**
 * Segmentation (spec 9): text is cut recursively at the largest separator that still occurs (two
 * newlines, then custom identifiers, then newline, then sentence ends), the small pieces are packed
 * back together up to `max_length` characters, and `overlap` characters of one segment's tail start
 * the next. No segment is longer than `max_length`; a piece without any separator is cut hard.
 * Parent-child mode first cuts parents of `parent_max_length`, then children of `max_length` inside
 * each parent. Tables give one segment per row ("header: value; ...").
 */
import type { ParsedSheet, ProcessRule, SegmentDraft } from './types';

/** Spec 9 separators: newline, two newlines, Chinese and English period, exclamation, question mark. */
export const SEPARATORS = ['\n', '\n\n', '。', '.', '！', '!', '？', '?'] as const;

export const SEGMENT_MAX_LENGTH_LIMIT = 4000;
export const SEGMENT_MIN_LENGTH = 50;
export const PARENT_MAX_LENGTH_LIMIT = SEGMENT_MAX_LENGTH_LIMIT * 4;
export const CUSTOM_SEPARATOR_MAX = 10;

/**
 * Words a custom identifier may not be (same list as the slice-method page in
 * src/app/workspace/knowledge/segmentation.ts): escape names of the system's own separators and the
 * placeholders it writes into segments.
 */
export const SYSTEM_KEYWORDS = ['\\n', '\\n\\n', '\\t', '\\r', 'newline', 'null', 'undefined', '{{', '}}'] as const;

export const DEFAULT_PROCESS_RULE: ProcessRule = {
  mode: 'general',
  max_length: 800,
  overlap: 0,
  parent_max_length: 2000,
  separators: ['\n\n', '\n'],
  remove_extra_spaces: true,
  remove_urls_emails: false,
};

/** Why a process rule cannot be used (an English message for the user), or null when it is fine. */
export function validateProcessRule(rule: ProcessRule): string | null {
  const intIn = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  if (rule.mode !== 'general' && rule.mode !== 'parent_child') return `Unknown segmentation mode '${String(rule.mode)}'`;
  if (rule.max_length == null) return 'Maximum segment length: This form field is required!';
  if (!intIn(rule.max_length, SEGMENT_MIN_LENGTH, SEGMENT_MAX_LENGTH_LIMIT))
    return `Maximum segment length must be an integer from ${SEGMENT_MIN_LENGTH} to ${SEGMENT_MAX_LENGTH_LIMIT}`;
  if (rule.overlap == null) return 'Overlap length: This form field is required!';
  if (!intIn(rule.overlap, 0, rule.max_length - 1)) return 'Overlap length must be an integer from 0 to less than the maximum segment length';
  if (rule.mode === 'parent_child') {
    const p = rule.parent_max_length;
    if (p == null) return 'Parent segment length: This form field is required!';
    if (!intIn(p, rule.max_length + 1, PARENT_MAX_LENGTH_LIMIT))
      return `Parent segment length must be an integer greater than the maximum segment length and at most ${PARENT_MAX_LENGTH_LIMIT}`;
  }
  if (!Array.isArray(rule.separators) || rule.separators.length === 0) return 'Choose at least one segment separator';
  const seen = new Set<string>();
  for (const sep of rule.separators) {
    if (typeof sep !== 'string' || sep.length === 0 || sep.trim() === '' && !/^[\n\t\r]+$/.test(sep)) return 'A segment identifier cannot be empty';
    if ((SYSTEM_KEYWORDS as readonly string[]).includes(sep.trim().toLowerCase())) return `A segment identifier cannot be a system keyword: '${sep}'`;
    if (!(SEPARATORS as readonly string[]).includes(sep) && sep.length > CUSTOM_SEPARATOR_MAX)
      return `A segment identifier can have at most ${CUSTOM_SEPARATOR_MAX} characters`;
    if (seen.has(sep)) return `Duplicate segment identifier '${sep}'`;
    seen.add(sep);
  }
  return null;
}

const URL_RE = /\b(?:https?:\/\/|ftp:\/\/|www\.)[^\s<>"'，。！？、）)】]+/gi;
const EMAIL_RE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** Applies the cleaning options; always normalises line ends and drops NUL/control characters. */
export function cleanText(text: string, rule: Pick<ProcessRule, 'remove_extra_spaces' | 'remove_urls_emails'>): string {
  // Each pattern matches only where it changes something: a replace that matches every space or
  // line break of a long text builds it anew for nothing.
  let t = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  t = t.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufeff]+/g, '');
  if (rule.remove_urls_emails) t = t.replace(EMAIL_RE, '').replace(URL_RE, '');
  if (rule.remove_extra_spaces) {
    t = t
      // Runs of blanks become one space: runs of two or more, and a lone blank other than a space.
      .replace(/[ \t\u00a0\u3000]{2,}|[\t\u00a0\u3000]/g, ' ')
      .replace(/ +\n *|\n +/g, '\n')
      .replace(/\n{3,}/g, '\n\n');
  }
  return t.trim();
}

/** Larger separators first: paragraph breaks, custom identifiers, line breaks, then sentence ends. */
function rankSeparators(seps: readonly string[]): string[] {
  const rank = (s: string) => (s === '\n\n' ? 0 : !(SEPARATORS as readonly string[]).includes(s) ? 1 : s === '\n' ? 2 : 3);
  return [...new Set(seps.filter((s) => s.length > 0))].sort((a, b) => rank(a) - rank(b));
}

/** Splits at `sep`, keeping the separator at the end of the piece before it. */
function splitKeep(text: string, sep: string): string[] {
  const parts = text.split(sep);
  return parts.map((p, i) => (i < parts.length - 1 ? p + sep : p)).filter((p) => p.length > 0);
}

/** Cuts text into pieces of at most `max` characters, preferring the earliest (largest) separators. */
function pieces(text: string, seps: string[], max: number): string[] {
  if (text.length <= max) return [text];
  const i = seps.findIndex((s) => text.includes(s));
  if (i < 0) {
    const out: string[] = [];
    for (let k = 0; k < text.length; k += max) out.push(text.slice(k, k + max));
    return out;
  }
  const rest = seps.slice(i + 1);
  return splitKeep(text, seps[i]!).flatMap((p) => pieces(p, rest, max));
}

/** The last `overlap` characters, without a leading partial Latin word (CJK text can start anywhere). */
function overlapTail(text: string, overlap: number): string {
  const start = Math.max(0, text.length - overlap);
  const tail = text.slice(start);
  if (start === 0 || !/[A-Za-z0-9]/.test(text[start - 1]!) || !/^[A-Za-z0-9]/.test(tail)) return tail;
  const space = tail.search(/\s/);
  return space < 0 ? tail : tail.slice(space + 1);
}

/** Packs pieces into segments of at most `max` characters, each starting with the last `overlap` of the one before. */
function pack(parts: string[], max: number, overlap: number): string[] {
  const out: string[] = [];
  let cur = '';
  let fresh = false; // cur holds new text beyond the carried overlap
  const flush = () => {
    const t = cur.trim();
    if (t && fresh) out.push(t);
    cur = overlap > 0 ? overlapTail(cur, overlap) : '';
    fresh = false;
  };
  for (const p of parts) {
    if (cur.length + p.length > max && fresh) flush();
    // The carried tail gives way when it and the next piece do not fit together.
    if (cur.length + p.length > max) cur = cur.slice(cur.length + p.length - max);
    cur += p;
    fresh = true;
  }
  flush();
  return out;
}

/** Holds a letter or a digit: what a segment needs to say anything (a hard cut can leave a lone '。'). */
const WORDY = /[\p{L}\p{N}]/u;

function split(text: string, separators: readonly string[], max: number, overlap: number): string[] {
  return pack(pieces(text, rankSeparators(separators), max), max, overlap).filter((t) => WORDY.test(t));
}

/** Segments running text by the rule (general or parent-child). */
export function segmentText(text: string, rule: ProcessRule): SegmentDraft[] {
  const clean = cleanText(text, rule);
  if (!clean) return [];
  if (rule.mode === 'parent_child') {
    const parentMax = Math.max(rule.parent_max_length ?? DEFAULT_PROCESS_RULE.parent_max_length!, rule.max_length);
    return split(clean, rule.separators, parentMax, 0).map((parent) => ({
      content: parent,
      children: split(parent, rule.separators, rule.max_length, rule.overlap),
    }));
  }
  return split(clean, rule.separators, rule.max_length, rule.overlap).map((content) => ({ content }));
}

/**
 * One segment per non-empty row: "header: value; header: value", with the row's cells by header in
 * `metadata.row` (and its 1-based number in `metadata.row_number`). A row is a record, so it is not cut
 * at `max_length`; the cleaning options apply to each cell.
 */
export function segmentTable(sheet: ParsedSheet, rule: ProcessRule): SegmentDraft[] {
  const out: SegmentDraft[] = [];
  sheet.rows.forEach((row, r) => {
    const cells: Record<string, string> = {};
    const parts: string[] = [];
    row.forEach((raw, c) => {
      const v = cleanText(raw ?? '', rule).replace(/\n+/g, ' ');
      if (!v) return;
      const header = sheet.headers[c]?.trim() || `column ${c + 1}`;
      cells[header] = v;
      parts.push(`${header}: ${v}`);
    });
    if (parts.length) out.push({ content: parts.join('; '), metadata: { sheet: sheet.name, row_number: r + 1, row: cells } });
  });
  return out;
}
