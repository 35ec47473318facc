/**
 * The built-in embedding, used when a knowledge base has no text-embedding model: signed feature
 * hashing (FNV-1a) of word unigrams and bigrams plus character 3-grams for Latin text, and of single
 * characters and bigrams for CJK text, with sublinear term frequency (1 + ln tf) and L2 normalisation.
 * It is lexical, not semantic, but deterministic, free and fast, so search works out of the box.
 */

import { forEachRun } from './tokenize';

export const BUILTIN_EMBEDDING_DIM = 256;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Continues a 32-bit FNV-1a hash over the UTF-16 code units `s[from..to)`. */
function fnvRange(h: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

/**
 * Feature weights by signed bucket: index `bucket` for a positive sign, `DIM + bucket` for a
 * negative one (a feature hashes to one bucket and one sign). Reused between texts (one thread).
 */
const tf = new Float64Array(2 * BUILTIN_EMBEDDING_DIM);
const touched = new Uint8Array(2 * BUILTIN_EMBEDDING_DIM);

/** Adds a feature whose (unsigned 32-bit) FNV-1a hash is `h`. */
function add(h: number, weight: number): void {
  h >>>= 0;
  // Low bits choose the bucket, bit 31 the sign: collisions cancel out on average.
  const slot = (h % BUILTIN_EMBEDDING_DIM) + (h & 0x8000_0000 ? BUILTIN_EMBEDDING_DIM : 0);
  tf[slot] = tf[slot]! + weight;
  touched[slot] = 1;
}

/**
 * The features of a text, hashed with a salt per kind so kinds do not collide alike: for CJK runs
 * each UTF-16 unit (salt 3) and adjacent pair (salt 4, weight 1.5); for words the word (salt 1,
 * weight 1.5), the pair with the previous word (salt 2) and, for words longer than 3, the
 * character 3-grams of ' ' + word + ' ' (salt 5, weight 0.5). Hashes are computed in place, without
 * building the feature strings.
 */
function features(text: string): void {
  let prevStart = -1;
  let prevEnd = -1;
  const lower = text.toLowerCase();
  forEachRun(lower, (cjk, at, end) => {
    const n = end - at;
    if (cjk) {
      for (let i = 0; i < n; i++) {
        add(fnvRange(FNV_OFFSET ^ 3, lower, at + i, at + i + 1), 1);
        if (i + 1 < n) add(fnvRange(FNV_OFFSET ^ 4, lower, at + i, at + i + 2), 1.5);
      }
      prevStart = -1;
    } else {
      add(fnvRange(FNV_OFFSET ^ 1, lower, at, at + n), 1.5);
      if (prevStart >= 0) {
        let h = fnvRange(FNV_OFFSET ^ 2, lower, prevStart, prevEnd);
        h = Math.imul(h ^ 32, FNV_PRIME);
        add(fnvRange(h, lower, at, at + n), 1);
      }
      prevStart = at;
      prevEnd = at + n;
      if (n > 3) {
        // 3-grams of ' ' + word + ' ': the first and the last hold a space.
        let h = Math.imul((FNV_OFFSET ^ 5) ^ 32, FNV_PRIME);
        add(fnvRange(h, lower, at, at + 2), 0.5);
        for (let i = 0; i + 3 <= n; i++) add(fnvRange(FNV_OFFSET ^ 5, lower, at + i, at + i + 3), 0.5);
        h = fnvRange(FNV_OFFSET ^ 5, lower, at + n - 2, at + n);
        add(Math.imul(h ^ 32, FNV_PRIME), 0.5);
      }
    }
  });
}

/** Embeds one text; an empty text gives the zero vector. */
export function embedOne(text: string): number[] {
  features(text);
  const D = BUILTIN_EMBEDDING_DIM;
  const v = new Float64Array(D);
  let norm = 0;
  for (let i = 0; i < D; i++) {
    // Sublinear term frequency per signed bucket; a bucket's two signs add up.
    const pos = touched[i] ? 1 + Math.log(tf[i]!) : 0;
    const neg = touched[D + i] ? -(1 + Math.log(tf[D + i]!)) : 0;
    const x = touched[i] && touched[D + i] ? pos + neg : touched[i] ? pos : neg;
    v[i] = x;
    norm += x * x;
  }
  tf.fill(0);
  touched.fill(0);
  norm = Math.sqrt(norm);
  const out = new Array<number>(D);
  for (let i = 0; i < D; i++) out[i] = norm ? v[i]! / norm : 0;
  return out;
}

/** Embeds texts with the built-in hashed n-gram model (256 dimensions, L2-normalised). */
export function embedBuiltin(texts: string[]): number[][] {
  return texts.map(embedOne);
}

/** Cosine similarity of two vectors of one length (the built-in vectors are unit length already). */
export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
