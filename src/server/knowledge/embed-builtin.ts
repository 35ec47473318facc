/**
 * The built-in embedding, used when a knowledge base has no text-embedding model: signed feature
 * hashing (FNV-1a) of word unigrams and bigrams plus character 3-grams for Latin text, and of single
 * characters and bigrams for CJK text, with sublinear term frequency (1 + ln tf) and L2 normalisation.
 * It is lexical, not semantic, but deterministic, free and fast, so search works out of the box.
 */

export const BUILTIN_EMBEDDING_DIM = 256;

const CJK_RUN = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)|((?:(?![\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af])[\p{L}\p{N}])+)/gu;

/** 32-bit FNV-1a over UTF-16 code units, with a salt per feature kind so kinds do not collide alike. */
function fnv1a(s: string, salt: number): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function features(text: string, tf: Map<number, number>): void {
  const add = (f: string, salt: number, weight = 1) => {
    const h = fnv1a(f, salt);
    // Low bits choose the bucket, bit 31 the sign: collisions cancel out on average.
    const key = h & 0x8000_0000 ? -((h % BUILTIN_EMBEDDING_DIM) + 1) : (h % BUILTIN_EMBEDDING_DIM) + 1;
    tf.set(key, (tf.get(key) ?? 0) + weight);
  };
  let prevWord = '';
  for (const m of text.toLowerCase().matchAll(CJK_RUN)) {
    if (m[1]) {
      const s = m[1];
      for (let i = 0; i < s.length; i++) {
        add(s[i]!, 3);
        if (i + 1 < s.length) add(s.slice(i, i + 2), 4, 1.5);
      }
      prevWord = '';
    } else {
      const w = m[2]!;
      add(w, 1, 1.5);
      if (prevWord) add(prevWord + ' ' + w, 2);
      prevWord = w;
      if (w.length > 3) {
        const padded = ' ' + w + ' ';
        for (let i = 0; i + 3 <= padded.length; i++) add(padded.slice(i, i + 3), 5, 0.5);
      }
    }
  }
}

/** Embeds one text; an empty text gives the zero vector. */
export function embedOne(text: string): number[] {
  const tf = new Map<number, number>();
  features(text, tf);
  const v = new Float64Array(BUILTIN_EMBEDDING_DIM);
  for (const [key, count] of tf) {
    const idx = Math.abs(key) - 1;
    v[idx] = v[idx]! + Math.sign(key) * (1 + Math.log(count));
  }
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  const out = new Array<number>(BUILTIN_EMBEDDING_DIM);
  for (let i = 0; i < v.length; i++) out[i] = norm ? v[i]! / norm : 0;
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
