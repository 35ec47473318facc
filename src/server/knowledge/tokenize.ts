/**
 * Tokens for PostgreSQL full-text search with the 'simple' configuration, which splits on
 * non-word characters and so cannot cut Chinese text into words. A run of CJK characters is given
 * as its adjacent-character bigrams and its last character (知识库: 知识 识库 库; one character
 * alone: itself), so every character of the run begins a token; lower-cased words of other scripts
 * are given whole, punctuation stripped.
 *
 * A query matches as the characters-and-bigrams scheme did (queryTokens gives the query's characters
 * and bigrams): a query bigram matches the same bigram, and a query character matches as a prefix
 * (`知:*`: the bigrams it begins, or itself at the end of a run), which also matches segments stored
 * with every character as a token of its own, as earlier versions stored them. Half the CJK
 * lexemes of that scheme means half the full-text index entries for Chinese text, the largest part
 * of storing a segment on the embedded database.
 */

// Han, Hiragana, Katakana, Hangul: scripts written without spaces between words.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * Classes of UTF-16 code units (surrogates aside), found on first use: 0 unknown, 1 neither, 2 a
 * word's (letter or digit), 3 CJK; plus LETTER for a CJK one that is a letter or digit (the CJK
 * ranges also hold a few marks and punctuation: ・ ゠ ゛).
 */
const UNIT_CLASS = new Uint8Array(0x10000);
const NONE = 1;
const WORD = 2;
const HAN = 3;
const LETTER = 4;
function unitInfo(code: number): number {
  let c = UNIT_CLASS[code]!;
  if (c === 0) {
    const ch = String.fromCharCode(code);
    UNIT_CLASS[code] = c = CJK.test(ch) ? HAN | (WORD_CHAR.test(ch) ? LETTER : 0) : WORD_CHAR.test(ch) ? WORD : NONE;
  }
  return c;
}
/** A CJK character that is a letter or digit (not one of the marks and punctuation of those ranges). */
const cjkLetterAt = (s: string, i: number) => (unitInfo(s.charCodeAt(i)) & LETTER) !== 0;
/** Letters and digits outside the BMP (never CJK here), by code point. */
const astralWord = new Map<number, boolean>();
function astralClass(cp: number): number {
  let w = astralWord.get(cp);
  if (w === undefined) astralWord.set(cp, (w = WORD_CHAR.test(String.fromCodePoint(cp))));
  return w ? WORD : NONE;
}

/**
 * Calls `run(cjk, start, end)` for each run of `s` in order: a maximal run of CJK characters, or of
 * other letters and digits (by code point: a letter outside the BMP is one character). What
 * `/([CJK]+)|((?:(?![CJK])[\p{L}\p{N}])+)/gu` matches, without a regular expression's cost per
 * character.
 */
export function forEachRun(s: string, run: (cjk: boolean, start: number, end: number) => void): void {
  const n = s.length;
  let kind = NONE;
  let start = 0;
  for (let i = 0; i < n; ) {
    const code = s.charCodeAt(i);
    let k: number;
    let w = 1;
    if (code < 0xd800 || code > 0xdfff) k = unitInfo(code) & 3;
    else if (code <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      k = astralClass(0x10000 + ((code - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00));
      w = 2;
    } else k = NONE; // a lone surrogate
    if (k !== kind) {
      if (kind !== NONE) run(kind === HAN, start, i);
      kind = k;
      start = i;
    }
    i += w;
  }
  if (kind !== NONE) run(kind === HAN, start, n);
}

/** The text as tokens are taken from it: NFKC, lower case. */
const folded = (text: string) => text.normalize('NFKC').toLowerCase();

/** Splits text into the tokens stored for it (see above: words, CJK bigrams and a run's last character), in text order. */
export function tokenList(text: string): string[] {
  const s = folded(text);
  const out: string[] = [];
  forEachRun(s, (cjk, a, b) => {
    if (!cjk) out.push(s.slice(a, b));
    else {
      // CJK characters are all in the BMP: one UTF-16 unit each. Marks and punctuation are left
      // out of the tokens, as PostgreSQL's parser leaves them out of a word.
      for (let i = a; i + 1 < b; i++) {
        const first = cjkLetterAt(s, i);
        const second = cjkLetterAt(s, i + 1);
        if (first && second) out.push(s.slice(i, i + 2));
        else if (first) out.push(s[i]!);
      }
      if (cjkLetterAt(s, b - 1)) out.push(s[b - 1]!);
    }
  });
  return out;
}

/** Space-joined tokens for the `tokens` column (the `tsv` column is to_tsvector('simple', tokens)). */
export function searchTokens(text: string): string {
  return tokenList(text).join(' ');
}

/**
 * Distinct tokens of a query: its words, and each CJK character and adjacent bigram (a character
 * then matches as a prefix: {@link tsqueryTerm}). Each is letters and digits only, so operators
 * (& | ! ( ) : * <->) and quotes never reach to_tsquery.
 */
export function queryTokens(text: string): string[] {
  const s = folded(text);
  const seen = new Set<string>();
  forEachRun(s, (cjk, a, b) => {
    if (!cjk) seen.add(s.slice(a, b));
    else
      for (let i = a; i < b; i++) {
        // Marks and punctuation of the CJK ranges (・ ゛) are stripped, as to_tsquery's parser would.
        const first = cjkLetterAt(s, i);
        if (first) seen.add(s[i]!);
        if (i + 1 < b) {
          const second = cjkLetterAt(s, i + 1);
          if (first && second) seen.add(s.slice(i, i + 2));
          else if (second) seen.add(s[i + 1]!);
        }
      }
  });
  return [...seen];
}

/** True when the character is from a script written without spaces (used by the embedder too). */
export const isCjk = (ch: string): boolean => CJK.test(ch);

/** A single CJK character: matched as the prefix of the stored tokens. */
export const isCjkChar = (t: string): boolean => t.length === 1 && isCjk(t);

/** A query token as a tsquery term: a CJK character as a prefix (`知:*`), anything else as itself. */
export const tsqueryTerm = (t: string): string => (isCjkChar(t) ? `${t}:*` : t);

/**
 * The query tokens a segment holding the whole query must hold: a CJK character that is part of a
 * query bigram is left out (the bigram implies it, and a prefix term costs the index a scan of every
 * bigram that character begins).
 */
export function requiredTokens(toks: string[]): string[] {
  const inBigram = new Set<string>();
  for (const t of toks) if (t.length === 2 && isCjk(t[0]!)) inBigram.add(t[0]!).add(t[1]!);
  return toks.filter((t) => !(isCjkChar(t) && inBigram.has(t)));
}

/**
 * Whether a segment's stored tokens (space-joined) hold each query token: a CJK character also when
 * a stored bigram begins with it.
 */
export function tokenHolder(rowTokens: string): (queryToken: string) => boolean {
  const have = new Set(rowTokens.split(' '));
  const starts = new Set<string>();
  for (const t of have) if (t.length === 2 && isCjk(t[0]!)) starts.add(t[0]!);
  return (t) => have.has(t) || (isCjkChar(t) && starts.has(t));
}

/** PostgreSQL's tsvector limits: lexeme bytes (MAXSTRLEN), positions per lexeme kept by to_tsvector, largest position, total lexeme bytes. */
const TS_MAX_LEXEME_BYTES = 2047;
const TS_MAX_POSITIONS = 255;
const TS_MAX_POSITION = 16383;
const TS_MAX_BYTES = (1 << 20) - 1;

/** Scratch arrays of tsvectorBinary, grown as needed (one thread runs it at a time). */
let occLexeme = new Int32Array(256);
let occPos = new Uint16Array(256);
let byteLen = new Int32Array(64);
let npos = new Int32Array(64);
let lastPos = new Int32Array(64);
let posStart = new Int32Array(65);
let positions = new Uint16Array(256);

/**
 * UTF-8 length of a string, as Buffer.write encodes it (a lone surrogate as U+FFFD, 3 bytes), or
 * -1 - that length when it holds a surrogate (then UTF-16 order is not UTF-8 byte order).
 */
function utf8Length(t: string): number {
  let len = 0;
  let surrogate = false;
  for (let j = 0; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if ((c & 0xf800) !== 0xd800) len += 3;
    else {
      surrogate = true;
      if ((c & 0xfc00) === 0xd800 && j + 1 < t.length && (t.charCodeAt(j + 1) & 0xfc00) === 0xdc00) {
        len += 4;
        j++;
      } else len += 3;
    }
  }
  return surrogate ? -1 - len : len;
}

/** Writes `t` as UTF-8 at `o` (as Buffer.write does); answers the offset after it. */
function writeUtf8(out: Buffer, t: string, o: number): number {
  for (let j = 0; j < t.length; j++) {
    let c = t.charCodeAt(j);
    if (c < 0x80) out[o++] = c;
    else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else if ((c & 0xfc00) === 0xd800 && j + 1 < t.length && (t.charCodeAt(j + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c - 0xd800) << 10) + (t.charCodeAt(++j) - 0xdc00);
      out[o++] = 0xf0 | (c >> 18);
      out[o++] = 0x80 | ((c >> 12) & 0x3f);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    } else {
      if ((c & 0xf800) === 0xd800) c = 0xfffd; // a lone surrogate
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    }
  }
  return o;
}

/**
 * The binary form (tsvector_recv's input) of `to_tsvector('simple', tokens.join(' '))`, built in the
 * process: each token is letters and digits only (or CJK characters), which the default parser
 * keeps as one word and the simple dictionary as one lexeme, so the lexemes are the distinct
 * tokens, with their 1-based positions (weight D), sorted by bytes as PostgreSQL sorts them. On the
 * embedded database (WASM) to_tsvector took about 30% of the indexer's COPY (700 -> 480 ms per 5,000 segments).
 */
export function tsvectorBinary(tokens: string[]): Buffer {
  if (occLexeme.length < tokens.length) {
    occLexeme = new Int32Array(tokens.length);
    occPos = new Uint16Array(tokens.length);
  }
  // Lexemes in order of first occurrence; each kept occurrence as (lexeme, position).
  const index = new Map<string, number>();
  const lexemes: string[] = [];
  let occ = 0;
  // A word too long for a lexeme is left out and takes no position, as in to_tsvector.
  let n = 0;
  for (const t of tokens) {
    if (!t || (t.length > TS_MAX_LEXEME_BYTES / 3 && Buffer.byteLength(t, 'utf8') > TS_MAX_LEXEME_BYTES)) continue;
    let id = index.get(t);
    if (id === undefined) index.set(t, (id = lexemes.push(t) - 1));
    occLexeme[occ] = id;
    occPos[occ++] = Math.min(++n, TS_MAX_POSITION);
  }
  // Per lexeme: its UTF-8 length, and the positions kept (at most 255, increasing: repeats of the
  // largest position are dropped). Lexemes past the total byte limit are left out (length -1).
  const count = lexemes.length;
  if (byteLen.length < count) {
    byteLen = new Int32Array(count);
    npos = new Int32Array(count);
    lastPos = new Int32Array(count);
    posStart = new Int32Array(count + 1);
  }
  let total = 0;
  let surrogates = false;
  for (let i = 0; i < count; i++) {
    let len = utf8Length(lexemes[i]!);
    if (len < 0) {
      len = -1 - len;
      surrogates = true;
    }
    if (total + len > TS_MAX_BYTES) byteLen[i] = -1;
    else {
      total += len;
      byteLen[i] = len;
    }
    npos[i] = 0;
    lastPos[i] = 0;
  }
  for (let k = 0; k < occ; k++) {
    const id = occLexeme[k]!;
    if (npos[id]! < TS_MAX_POSITIONS && lastPos[id]! < occPos[k]!) {
      npos[id]!++;
      lastPos[id] = occPos[k]!;
    }
  }
  posStart[0] = 0;
  for (let i = 0; i < count; i++) posStart[i + 1] = posStart[i]! + npos[i]!;
  if (positions.length < posStart[count]!) positions = new Uint16Array(posStart[count]!);
  for (let i = 0; i < count; i++) {
    npos[i] = 0;
    lastPos[i] = 0;
  }
  for (let k = 0; k < occ; k++) {
    const id = occLexeme[k]!;
    if (npos[id]! < TS_MAX_POSITIONS && lastPos[id]! < occPos[k]!) {
      positions[posStart[id]! + npos[id]!++] = occPos[k]!;
      lastPos[id] = occPos[k]!;
    }
  }
  // Sorted by bytes, as PostgreSQL sorts lexemes (memcmp, then the shorter first): for strings
  // without surrogates, UTF-16 order is code point order, which is UTF-8 byte order.
  const order: number[] = [];
  for (let i = 0; i < count; i++) if (byteLen[i]! >= 0) order.push(i);
  if (!surrogates) order.sort((a, b) => (lexemes[a]! < lexemes[b]! ? -1 : 1));
  else {
    const bytes = lexemes.map((t) => Buffer.from(t, 'utf8'));
    order.sort((a, b) => Buffer.compare(bytes[a]!, bytes[b]!));
  }
  let size = 4;
  for (const i of order) size += byteLen[i]! + 1 + 2 + 2 * npos[i]!;
  const out = Buffer.allocUnsafe(size);
  let o = out.writeInt32BE(order.length, 0);
  for (const i of order) {
    o = writeUtf8(out, lexemes[i]!, o);
    out[o++] = 0;
    const m = npos[i]!;
    out[o++] = m >> 8;
    out[o++] = m & 0xff;
    for (let j = posStart[i]!, e = j + m; j < e; j++) {
      const p = positions[j]!;
      out[o++] = p >> 8;
      out[o++] = p & 0xff;
    }
  }
  return out;
}
