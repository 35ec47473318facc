/**
 * The in-process vector search: each searchable unit's segment vectors, kept in memory quantised to
 * int8 (one scale per row) and column-major, so a query reads only the dimensions where it is not
 * zero (the built-in embedding of a short query has a few dozen of 256) over contiguous memory.
 *
 * Why not the database: on the embedded database (WASM) pgvector's HNSW index cost 3-5 ms per stored
 * segment to keep up (ingestion ran at 0.03 MB/s at 131,000 segments), an exact scan in SQL ~1 s,
 * and the index's answers were approximate (recall@4 0.70 at ef_search 400). This scan reads
 * 131,000 vectors in single-digit milliseconds and keeps every candidate's order to within the int8
 * rounding; the caller scores the candidates exactly (retrieve.ts details).
 *
 * Freshness: a unit's vectors are kept with the unit's `segments_version`, which every statement
 * writing its segments raises (triggers of migration 0010_vector_cache); a search gives the versions
 * it read with the searchable units, and a unit whose version moved is loaded again. Kept rows are
 * the unit's enabled, matched (not parent) segments with a vector of the query's dimension; the unit's
 * own state (enabled, indexed) and metadata filters stay with the caller's SQL.
 *
 * Memory: at most the budget (settings.vectorCacheMb; dim + 20 bytes a row: 276 for the built-in
 * embedding, 36 MB for 131,000 segments); the least recently searched units go first. A search whose
 * own units do not fit answers null and the caller searches in SQL.
 */
import { sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { pgliteOf, vectorColumnExists } from './ingest';
import { rowsOf } from './queue';

type Db = ServerContext['db'];

/** A searchable unit as the caller read it: its id and `segments_version`. */
export interface UnitVersion {
  id: string;
  version: number;
}

export interface VectorHit {
  id: string;
  /** Cosine similarity to within the int8 rounding (about 1% of the row's largest component). */
  score: number;
}

interface UnitVectors {
  version: number;
  dim: number;
  n: number;
  /** Segment ids, 16 bytes each. */
  ids: Uint8Array;
  /** Per row: (largest |component| / 127) / norm, so cosine ≈ scale * Σ q_j * col_j[i] / |q|. */
  scale: Float32Array;
  /** cols[j * n + i]: row i's component j, quantised. */
  cols: Int8Array;
  bytes: number;
  used: number;
}

const ROW_OVERHEAD = 16 + 4;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
function uuidAt(ids: Uint8Array, i: number): string {
  let s = '';
  for (let k = 0; k < 16; k++) {
    if (k === 4 || k === 6 || k === 8 || k === 10) s += '-';
    s += hex[ids[i * 16 + k]!];
  }
  return s;
}
function writeUuid(ids: Uint8Array, i: number, id: string) {
  const h = id.replace(/-/g, '');
  for (let k = 0; k < 16; k++) ids[i * 16 + k] = parseInt(h.slice(2 * k, 2 * k + 2), 16);
}

/** Builds a unit's quantised columns from its rows' vectors (every vector of length `dim`). */
export function quantise(version: number, dim: number, ids: string[] | Uint8Array, vectors: ArrayLike<number>[] | Float32Array): UnitVectors {
  const n = ids instanceof Uint8Array ? ids.length / 16 : ids.length;
  const idBytes = ids instanceof Uint8Array ? ids : new Uint8Array(n * 16);
  if (!(ids instanceof Uint8Array)) ids.forEach((id, i) => writeUuid(idBytes, i, id));
  let flat: Float32Array;
  if (vectors instanceof Float32Array) flat = vectors;
  else {
    flat = new Float32Array(n * dim);
    vectors.forEach((v, i) => {
      for (let j = 0; j < dim; j++) flat[i * dim + j] = Number(v[j]) || 0;
    });
  }
  const scale = new Float32Array(n);
  const cols = new Int8Array(n * dim);
  for (let i = 0; i < n; i++) {
    const base = i * dim;
    let max = 0;
    let sq = 0;
    for (let j = 0; j < dim; j++) {
      const x = flat[base + j]!;
      sq += x * x;
      const a = x < 0 ? -x : x;
      if (a > max) max = a;
    }
    if (max === 0 || !Number.isFinite(sq)) continue; // scale 0: scores 0
    const inv = 127 / max;
    scale[i] = max / 127 / Math.sqrt(sq);
    for (let j = 0; j < dim; j++) {
      const x = flat[base + j]!;
      if (x !== 0) cols[j * n + i] = Math.round(x * inv);
    }
  }
  return { version, dim, n, ids: idBytes, scale, cols, bytes: n * (dim + ROW_OVERHEAD), used: 0 };
}

/** Keeps the best `k` (score, row) pairs: a min-heap on score. */
class TopK {
  readonly scores: Float64Array;
  readonly refs: { unit: UnitVectors; row: number }[] = [];
  size = 0;
  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
  }
  get floor() {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }
  push(score: number, unit: UnitVectors, row: number) {
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.refs[i] = { unit, row };
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (this.scores[p]! <= this.scores[i]!) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (score <= this.scores[0]!) return;
    this.scores[0] = score;
    this.refs[0] = { unit, row };
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.scores[l]! < this.scores[m]!) m = l;
      if (r < this.size && this.scores[r]! < this.scores[m]!) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  private swap(a: number, b: number) {
    const s = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = s;
    const r = this.refs[a]!;
    this.refs[a] = this.refs[b]!;
    this.refs[b] = r;
  }
}

let scratch = new Float32Array(0);

/** The `k` rows of the units nearest to `qvec` by (quantised) cosine, best first. */
export function scanNearest(units: UnitVectors[], qvec: number[], k: number): VectorHit[] {
  const dim = qvec.length;
  let qn = 0;
  for (const x of qvec) qn += x * x;
  qn = Math.sqrt(qn);
  const top = new TopK(Math.max(1, k));
  if (qn === 0) return [];
  const nonZero: number[] = [];
  for (let j = 0; j < dim; j++) if (qvec[j]) nonZero.push(j);
  for (const u of units) {
    if (u.dim !== dim || !u.n) continue;
    const n = u.n;
    if (scratch.length < n) scratch = new Float32Array(Math.max(n, scratch.length * 2));
    const acc = scratch;
    acc.fill(0, 0, n);
    const cols = u.cols;
    for (const j of nonZero) {
      const w = qvec[j]!;
      const base = j * n;
      for (let i = 0; i < n; i++) acc[i] += w * cols[base + i]!;
    }
    const scale = u.scale;
    for (let i = 0; i < n; i++) {
      const s = acc[i]! * scale[i]!;
      if (s > top.floor) top.push(s / qn, u, i);
    }
  }
  const out: VectorHit[] = [];
  for (let i = 0; i < top.size; i++) out.push({ id: uuidAt(top.refs[i]!.unit.ids, top.refs[i]!.row), score: top.scores[i]! });
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** Parses pgvector's or real[]'s text form ('[1,2]' or '{1,2}') into `out` at `at`; answers the length. */
function parseVectorText(text: string, out: Float32Array | null, at: number): number {
  let n = 0;
  let start = 1;
  const end = text.length - 1;
  for (let i = 1; i <= end; i++) {
    if (i === end || text.charCodeAt(i) === 44 /* , */) {
      if (out) out[at + n] = Number(text.slice(start, i));
      n++;
      start = i + 1;
    }
  }
  return end > 1 ? n : 0;
}

/**
 * Reads a unit's searchable vectors of dimension `dim`, and the unit's version in the same snapshot.
 * PGlite: one binary COPY of the pgvector column (float text output is slow in WASM); a server: the
 * text form of `embedding_v` where pgvector exists, else of `embedding` real[].
 */
async function loadUnit(db: Db, unitId: string, dim: number, withVector: boolean): Promise<UnitVectors | null> {
  const pg = pgliteOf(db);
  if (!UUID_RE.test(unitId)) throw new Error(`vector cache: not a unit id: ${unitId}`);
  if (pg && withVector) {
    return pg.transaction(async (tx) => {
      const doc = await tx.query<{ v: number | string }>('select segments_version as v from dataset_documents where id = $1', [unitId]);
      if (!doc.rows.length) return null;
      const res = await tx.query(`copy (select id, embedding_v from dataset_segments where document_id = '${unitId}'::uuid and enabled and kind <> 'parent' and vector_dims(embedding_v) = ${dim}) to '/dev/blob' with (format binary)`);
      const buf = new Uint8Array(await res.blob!.arrayBuffer());
      const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      // Rows are (int16 field count, int32 length + 16-byte uuid, int32 length + int16 dim + int16 + dim floats).
      let cap = Math.max(1, Math.ceil(buf.length / (2 + 4 + 16 + 4 + 4 + 4 * dim)));
      let ids = new Uint8Array(cap * 16);
      let flat = new Float32Array(cap * dim);
      let n = 0;
      // Header: signature (11), flags (4), extension length (4) + extension.
      let o = 11 + 4;
      o += 4 + view.getInt32(o);
      for (;;) {
        const fields = view.getInt16(o);
        o += 2;
        if (fields === -1) break;
        if (n === cap) {
          cap *= 2;
          const grownIds = new Uint8Array(cap * 16);
          grownIds.set(ids);
          ids = grownIds;
          const grown = new Float32Array(cap * dim);
          grown.set(flat);
          flat = grown;
        }
        const idLen = view.getInt32(o);
        o += 4;
        ids.set(buf.subarray(o, o + 16), n * 16);
        o += idLen;
        const vLen = view.getInt32(o);
        const d = view.getInt16(o + 4);
        const at = n * dim;
        for (let j = 0; j < d && j < dim; j++) flat[at + j] = view.getFloat32(o + 8 + 4 * j);
        o += 4 + vLen;
        n++;
      }
      return quantise(Number(doc.rows[0]!.v), dim, ids.subarray(0, n * 16), flat.subarray(0, n * dim));
    });
  }
  const column = withVector ? 'embedding_v' : 'embedding';
  const dims = withVector ? `vector_dims(embedding_v) = ${dim}` : `array_length(embedding, 1) = ${dim}`;
  return db.transaction(
    async (tx) => {
      const doc = rowsOf<{ v: number | string }>(await tx.execute(sql`select segments_version as v from dataset_documents where id = ${unitId}::uuid`));
      if (!doc.length) return null;
      const rows = rowsOf<{ id: string; v: string }>(
        await tx.execute(sql`select id, ${sql.raw(column)}::text as v from dataset_segments where document_id = ${unitId}::uuid and enabled and kind <> 'parent' and ${sql.raw(dims)}`),
      );
      const flat = new Float32Array(rows.length * dim);
      rows.forEach((r, i) => parseVectorText(r.v, flat, i * dim));
      return quantise(
        Number(doc[0]!.v),
        dim,
        rows.map((r) => r.id),
        flat,
      );
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export class VectorCache {
  private units = new Map<string, UnitVectors>();
  private loading = new Map<string, Promise<UnitVectors | null>>();
  /** What each unit's vectors took at a version, kept or not. */
  private measured = new Map<string, { version: number; bytes: number }>();
  private bytes = 0;
  private clock = 0;
  private warming: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Loads done (for tests and the bench). */
  loads = 0;

  constructor(
    readonly db: Db,
    /** Bytes at most; 0 turns the cache off. */
    public budget: number,
  ) {}

  /** Whether a unit's vectors are kept (at any version). */
  has(unitId: string): boolean {
    for (const key of this.units.keys()) if (key.startsWith(unitId + '/')) return true;
    return false;
  }

  get size() {
    return { units: this.units.size, bytes: this.bytes };
  }

  /**
   * The `k` nearest searchable segments of `units` (their versions as just read), or null when the
   * cache is off or the units' vectors do not fit its budget (the caller searches in SQL).
   */
  async nearest(units: UnitVersion[], qvec: number[], k: number, withVector: boolean): Promise<VectorHit[] | null> {
    if (this.budget <= 0) return null;
    const dim = qvec.length;
    // Units measured before (kept or not): when they alone outgrow the budget, do not load them again.
    let known = 0;
    for (const u of units) {
      const seen = this.measured.get(this.key(u.id, dim));
      if (seen && seen.version === Number(u.version)) known += seen.bytes;
    }
    if (known > this.budget) return null;
    const now = ++this.clock;
    const ready: UnitVectors[] = [];
    for (const u of units) {
      const entry = await this.entry(u, dim, withVector);
      if (!entry) continue; // the unit went away meanwhile
      entry.used = now;
      ready.push(entry);
      if (this.bytes > this.budget) {
        this.evict(now);
        if (this.bytes > this.budget) {
          // This search's own units do not fit: give their memory back and let SQL answer.
          for (const [key, e] of this.units) if (e.used === now) this.drop(key, e);
          return null;
        }
      }
    }
    return scanNearest(ready, qvec, k);
  }

  /**
   * Loads the vectors of searchable units ahead of their first search, newest first, while the
   * budget lasts: all of them at start, a unit after it is indexed. One unit at a time with a turn
   * of the event loop between, so requests go on meanwhile. Answers the units loaded.
   */
  warm(unitIds?: string[]): Promise<number> {
    const run = this.warming.then(async () => {
      if (this.closed || this.budget <= 0) return 0;
      const only = unitIds ? sql`and d.id in (${sql.join(
        unitIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})` : sql``;
      const units = rowsOf<{ id: string; version: number; dim: number }>(
        await this.db.execute(sql`select d.id, d.segments_version as version, ds.embedding_dim as dim
          from dataset_documents d join datasets ds on ds.id = d.dataset_id
          where d.enabled and d.status = 'completed' and ds.embedding_dim is not null ${only}
          order by d.updated_at desc`),
      );
      const vectorColumn = await vectorColumnExists({ db: this.db });
      let loaded = 0;
      for (const u of units) {
        if (this.closed) break;
        await new Promise<void>((resolve) => setImmediate(resolve));
        const before = this.loads;
        const entry = await this.entry(u, Number(u.dim), vectorColumn);
        if (!entry) continue;
        if (this.bytes > this.budget) {
          // Full: what was searched lately stays, this one goes, and so do the rest.
          this.drop(this.key(u.id, Number(u.dim)), entry);
          break;
        }
        if (this.loads > before) loaded++;
      }
      return loaded;
    });
    this.warming = run.catch(() => 0);
    return run;
  }

  /** Stops warming (the database is about to close). */
  async close() {
    this.closed = true;
    await this.warming;
  }

  /** Drops everything kept (for tests and after restoring a database). */
  clear() {
    this.units.clear();
    this.measured.clear();
    this.bytes = 0;
  }

  private key(unitId: string, dim: number) {
    return `${unitId}/${dim}`;
  }

  private async entry(u: UnitVersion, dim: number, withVector: boolean): Promise<UnitVectors | null> {
    const key = this.key(u.id, dim);
    const have = this.units.get(key);
    if (have && have.version === Number(u.version)) return have;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = loadUnit(this.db, u.id, dim, withVector).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    const loaded = await pending;
    const current = this.units.get(key);
    if (!loaded) {
      if (current) this.drop(key, current);
      return null;
    }
    // Another search may have stored this load (or a newer one) already.
    if (current && current.version >= loaded.version) return current;
    if (current) this.drop(key, current);
    this.loads++;
    this.units.set(key, loaded);
    this.measured.set(key, { version: loaded.version, bytes: loaded.bytes });
    this.bytes += loaded.bytes;
    return loaded;
  }

  private drop(key: string, e: UnitVectors) {
    if (this.units.get(key) !== e) return;
    this.units.delete(key);
    this.bytes -= e.bytes;
  }

  /** Drops the least recently searched units not used by the search at `now` until within budget. */
  private evict(now: number) {
    const old = [...this.units.entries()].filter(([, e]) => e.used !== now).sort((a, b) => a[1].used - b[1].used);
    for (const [key, e] of old) {
      if (this.bytes <= this.budget) break;
      this.drop(key, e);
    }
  }
}

const caches = new WeakMap<object, VectorCache>();
/** The default budget when the studio did not set one (settings.vectorCacheMb). */
export const DEFAULT_VECTOR_CACHE_MB = 256;

/** The cache of a database (made with the default budget on first use). */
export function vectorCacheOf(db: Db): VectorCache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new VectorCache(db, DEFAULT_VECTOR_CACHE_MB * 1024 * 1024)));
  return c;
}

/** Sets a database's cache budget in MB (0 turns in-process search off). */
export function configureVectorCache(db: Db, mb: number): VectorCache {
  const c = vectorCacheOf(db);
  c.budget = Math.max(0, mb) * 1024 * 1024;
  if (c.budget === 0) c.clear();
  return c;
}
