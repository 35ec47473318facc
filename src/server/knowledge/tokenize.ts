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
