/**
 * Tokens for PostgreSQL full-text search with the 'simple' configuration, which splits on
 * non-word characters and so cannot cut Chinese text into words. We give it CJK single characters
 * and adjacent-character bigrams instead (a query bigram then matches the same bigram in a segment),
 * and lower-cased ASCII/Latin words with punctuation stripped.
 */

// Han, Hiragana, Katakana, Hangul: scripts written without spaces between words.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const RUN = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)|((?:(?![\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af])[\p{L}\p{N}])+)/gu;

/** Splits text into word tokens, CJK characters and CJK bigrams, in text order. */
export function tokenList(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(RUN)) {
    if (m[1]) {
      const chars = Array.from(m[1]);
      for (let i = 0; i < chars.length; i++) {
        out.push(chars[i]!);
        if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
      }
    } else if (m[2]) {
      out.push(m[2]);
    }
  }
  return out;
}

/** Space-joined tokens for the `tokens` column (the generated `tsv` column is to_tsvector('simple', tokens)). */
export function searchTokens(text: string): string {
  return tokenList(text).join(' ');
}

/**
 * Distinct tokens of a query, each safe as a tsquery lexeme: only letters and digits remain, so
 * operators (& | ! ( ) : * <->) and quotes never reach to_tsquery. Join them with ' | '.
 */
export function queryTokens(text: string): string[] {
  const seen = new Set<string>();
  for (const t of tokenList(text)) {
    const clean = t.replace(/[^\p{L}\p{N}]/gu, '');
    if (clean) seen.add(clean);
  }
  return [...seen];
}

/** True when the character is from a script written without spaces (used by the embedder too). */
export const isCjk = (ch: string): boolean => CJK.test(ch);

/** PostgreSQL's tsvector limits: lexeme bytes (MAXSTRLEN), positions per lexeme kept by to_tsvector, largest position, total lexeme bytes. */
const TS_MAX_LEXEME_BYTES = 2047;
const TS_MAX_POSITIONS = 255;
const TS_MAX_POSITION = 16383;
const TS_MAX_BYTES = (1 << 20) - 1;

/**
 * The binary form (tsvector_recv's input) of `to_tsvector('simple', tokens.join(' '))`, built in the
 * process: each token is letters and digits only (or CJK characters), which the default parser
 * keeps as one word and the simple dictionary as one lexeme, so the lexemes are the distinct
 * tokens, with their 1-based positions (weight D), sorted by bytes as PostgreSQL sorts them. On the
 * embedded database (WASM) to_tsvector took about 30% of the indexer's COPY (700 -> 480 ms per 5,000 segments).
 */
export function tsvectorBinary(tokens: string[]): Buffer {
  // Lexemes in order of first occurrence; each kept occurrence as (lexeme, position).
  const index = new Map<string, number>();
  const lexemes: string[] = [];
  const occLexeme = new Int32Array(tokens.length);
  const occPos = new Uint16Array(tokens.length);
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
  // largest position are dropped). Lexemes past the total byte limit are left out.
  const count = lexemes.length;
  const byteLen = new Int32Array(count);
  const kept = new Uint8Array(count);
  let total = 0;
  let surrogates = false;
  for (let i = 0; i < count; i++) {
    const t = lexemes[i]!;
    let len = t.length;
    for (let j = 0; j < t.length; j++) {
      if (t.charCodeAt(j) > 0x7f) {
        len = Buffer.byteLength(t, 'utf8');
        if (/[\ud800-\udfff]/.test(t)) surrogates = true;
        break;
      }
    }
    if (total + len > TS_MAX_BYTES) continue;
    total += len;
    byteLen[i] = len;
    kept[i] = 1;
  }
  const npos = new Int32Array(count);
  const lastPos = new Int32Array(count);
  for (let k = 0; k < occ; k++) {
    const id = occLexeme[k]!;
    if (npos[id]! < TS_MAX_POSITIONS && lastPos[id]! < occPos[k]!) {
      npos[id]!++;
      lastPos[id] = occPos[k]!;
    }
  }
  const posStart = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) posStart[i + 1] = posStart[i]! + npos[i]!;
  const positions = new Uint16Array(posStart[count]!);
  npos.fill(0);
  lastPos.fill(0);
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
  for (let i = 0; i < count; i++) if (kept[i]) order.push(i);
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
    const t = lexemes[i]!;
    if (byteLen[i] === t.length) for (let j = 0; j < t.length; j++) out[o++] = t.charCodeAt(j);
    else o += out.write(t, o, 'utf8');
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
