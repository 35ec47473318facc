/**
 * The CPU part of storing segments: tokens for full-text search, their tsvector in binary form and,
 * with the built-in embedding, the vectors. Pure functions of the texts, so prepare-pool.ts can run
 * them on a worker thread while the database stores the batch before.
 */
import { BUILTIN_EMBEDDING_DIM, embedOne } from './embed-builtin';
import { tokenList, tsvectorBinary } from './tokenize';

export interface PreparedBatch {
  /** Space-joined tokens per text (the `tokens` column). */
  tokens: string[];
  /** tsvector binary forms, one after another; text k's is tsv[tsvEnds[k-1] (0 for k = 0) .. tsvEnds[k]]. */
  tsv: Uint8Array;
  tsvEnds: Uint32Array;
  /** Built-in vectors, row after row (texts.length * dim), when asked for. */
  vectors: Float32Array | null;
  dim: number;
}

export function prepareBatch(texts: string[], builtinVectors: boolean): PreparedBatch {
  const tokens: string[] = [];
  const parts: Buffer[] = [];
  const tsvEnds = new Uint32Array(texts.length);
  let end = 0;
  const dim = BUILTIN_EMBEDDING_DIM;
  const vectors = builtinVectors ? new Float32Array(texts.length * dim) : null;
  texts.forEach((text, k) => {
    const list = tokenList(text);
    tokens.push(list.join(' '));
    const b = tsvectorBinary(list);
    parts.push(b);
    tsvEnds[k] = end += b.length;
    if (vectors) vectors.set(embedOne(text), k * dim);
  });
  return { tokens, tsv: Buffer.concat(parts, end), tsvEnds, vectors, dim };
}

/** Text k's tsvector binary form. */
export const tsvOf = (p: PreparedBatch, k: number) => p.tsv.subarray(k === 0 ? 0 : p.tsvEnds[k - 1]!, p.tsvEnds[k]!);
/** Text k's built-in vector (a view). */
export const vectorOf = (p: PreparedBatch, k: number) => p.vectors!.subarray(k * p.dim, (k + 1) * p.dim);
