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
  const positions = new Map<string, number[]>();
  // A word too long for a lexeme is left out and takes no position, as in to_tsvector.
  let n = 0;
  tokens.forEach((t) => {
    if (!t || (t.length > TS_MAX_LEXEME_BYTES / 3 && Buffer.byteLength(t, 'utf8') > TS_MAX_LEXEME_BYTES)) return;
    const pos = Math.min(++n, TS_MAX_POSITION);
    const list = positions.get(t);
    if (!list) positions.set(t, [pos]);
    else if (list.length < TS_MAX_POSITIONS && list[list.length - 1]! < pos) list.push(pos);
  });
  const lexemes: { bytes: Buffer; pos: number[] }[] = [];
  let total = 0;
  for (const [t, pos] of positions) {
    const bytes = Buffer.from(t, 'utf8');
    if (total + bytes.length > TS_MAX_BYTES) continue;
    total += bytes.length;
    lexemes.push({ bytes, pos });
  }
  lexemes.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  let size = 4;
  for (const l of lexemes) size += l.bytes.length + 1 + 2 + 2 * l.pos.length;
  const out = Buffer.allocUnsafe(size);
  let o = out.writeInt32BE(lexemes.length, 0);
  for (const l of lexemes) {
    o += l.bytes.copy(out, o);
    o = out.writeUInt8(0, o);
    o = out.writeUInt16BE(l.pos.length, o);
    for (const p of l.pos) o = out.writeUInt16BE(p, o);
  }
  return out;
}
