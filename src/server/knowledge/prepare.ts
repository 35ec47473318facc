/**
 * The CPU part of storing segments: tokens for full-text search, their tsvector in binary form and,
 * with the built-in embedding, the vectors, and then the embedded database's COPY input of the rows.
 * Pure functions of their input, so prepare-pool.ts can run them on a worker thread while the
 * database stores the batch before.
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
  /** The rows' COPY input (copyBinary), when rows were given (with built-in vectors). */
  copy: Uint8Array | null;
}

/** A segment row as the indexer's COPY writes it (created_at, updated_at and enabled take their defaults). */
export interface CopyRow {
  id: string;
  tenantId: string;
  datasetId: string;
  documentId: string;
  parentId?: string | null;
  kind?: string;
  position: number;
  content: string;
  metadata?: object;
}

/** The columns of copyBinary's rows, in order. */
export const COPY_COLUMNS = 'id, tenant_id, dataset_id, document_id, parent_id, kind, position, content, tokens, tsv, embedding_v, metadata';

/**
 * Prepares the rows' texts; given `rows` (the texts' rows, with built-in vectors), also their COPY
 * input, so the thread storing them only hands it to the database.
 */
export function prepareBatch(texts: string[], builtinVectors: boolean, rows?: readonly CopyRow[]): PreparedBatch {
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
  const batch: PreparedBatch = { tokens, tsv: Buffer.concat(parts, end), tsvEnds, vectors, dim, copy: null };
  if (rows && vectors) {
    batch.copy = copyBinary(
      rows,
      tokens,
      rows.map((_, k) => vectorOf(batch, k)),
      rows.map((_, k) => tsvOf(batch, k)),
    );
  }
  return batch;
}

/** Text k's tsvector binary form. */
export const tsvOf = (p: PreparedBatch, k: number) => p.tsv.subarray(k === 0 ? 0 : p.tsvEnds[k - 1]!, p.tsvEnds[k]!);
/** Text k's built-in vector (a view). */
export const vectorOf = (p: PreparedBatch, k: number) => p.vectors!.subarray(k * p.dim, (k + 1) * p.dim);

const COPY_FIELDS = 12;
const ENDIAN_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The `COPY ... FORMAT binary` input for segment rows, in the column order of COPY_COLUMNS. Strings are
 * written straight into the buffer (sized for 3 bytes per UTF-16 unit, the UTF-8 worst case), the
 * ids the rows share converted once, vectors copied as float32 bytes and byte-swapped in place.
 */
export function copyBinary(batch: readonly CopyRow[], tokens: readonly string[], vectors: readonly (ArrayLike<number> | null | undefined)[], tsvs: readonly Uint8Array[]): Buffer<ArrayBuffer> {
  const metaCache = new Map<object, string>();
  const metas: string[] = [];
  let size = 19 + 2;
  for (let k = 0; k < batch.length; k++) {
    const r = batch[k]!;
    size += 2 + COPY_FIELDS * 4 + 5 * 16 + 3 * (r.kind ?? 'chunk').length + 4 + 3 * r.content.length + 3 * tokens[k]!.length + tsvs[k]!.length + 4 * (vectors[k]?.length ?? 0);
    const meta = r.metadata ?? {};
    let m = metaCache.get(meta);
    if (m === undefined) metaCache.set(meta, (m = JSON.stringify(meta)));
    metas.push(m);
    size += 1 + 3 * m.length;
  }
  const buf = Buffer.allocUnsafe(size);
  let o = buf.write('PGCOPY\n\xff\r\n\0', 0, 'latin1');
  o = buf.writeInt32BE(0, o);
  o = buf.writeInt32BE(0, o);
  const uuid = (id: string | null | undefined) => {
    if (!id) return (o = buf.writeInt32BE(-1, o));
    o = buf.writeInt32BE(16, o);
    o += buf.write(id.replace(/-/g, ''), o, 'hex');
    return o;
  };
  // The rows of a batch share their tenant, base and unit (and children their parent).
  const shared = new Map<string, Buffer>();
  const sharedUuid = (id: string | null | undefined) => {
    if (!id) return (o = buf.writeInt32BE(-1, o));
    let b = shared.get(id);
    if (!b) shared.set(id, (b = Buffer.from(id.replace(/-/g, ''), 'hex')));
    o = buf.writeInt32BE(16, o);
    o += b.copy(buf, o);
    return o;
  };
  // A length-prefixed UTF-8 string (the length is known once written).
  const text = (s: string, prefix = '') => {
    const at = o;
    o += 4;
    if (prefix) o += buf.write(prefix, o, 'latin1');
    o += buf.write(s, o, 'utf8');
    buf.writeInt32BE(o - at - 4, at);
  };
  for (let k = 0; k < batch.length; k++) {
    const r = batch[k]!;
    o = buf.writeInt16BE(COPY_FIELDS, o);
    uuid(r.id);
    sharedUuid(r.tenantId);
    sharedUuid(r.datasetId);
    sharedUuid(r.documentId);
    sharedUuid(r.parentId);
    text(r.kind ?? 'chunk');
    o = buf.writeInt32BE(4, o);
    o = buf.writeInt32BE(r.position, o);
    text(r.content);
    text(tokens[k]!);
    const tsv = tsvs[k]!;
    o = buf.writeInt32BE(tsv.length, o);
    buf.set(tsv, o);
    o += tsv.length;
    const v = vectors[k];
    if (v) {
      // pgvector's binary form: int16 dimensions, int16 unused, then big-endian float32s.
      o = buf.writeInt32BE(4 + 4 * v.length, o);
      o = buf.writeInt16BE(v.length, o);
      o = buf.writeInt16BE(0, o);
      let finite = true;
      for (let j = 0; j < v.length; j++) if (!Number.isFinite(v[j]!)) finite = false;
      const f = v instanceof Float32Array && finite ? v : Float32Array.from(v, (x) => (Number.isFinite(x) ? x : 0));
      buf.set(new Uint8Array(f.buffer, f.byteOffset, f.byteLength), o);
      if (ENDIAN_LITTLE) buf.subarray(o, o + f.byteLength).swap32();
      o += f.byteLength;
    } else {
      o = buf.writeInt32BE(-1, o);
    }
    text(metas[k]!, '\x01'); // jsonb: version byte 1, then the JSON text
  }
  o = buf.writeInt16BE(-1, o);
  return buf.subarray(0, o);
}
