/**
 * The `normal` task: a unit's file (or URL page) is parsed, segmented by its rule, tokenised for
 * full-text search and embedded with its knowledge base's embedder, then stored as segments. The
 * task starts by removing whatever an earlier attempt stored, so running it again (a restart, a
 * refresh) never duplicates segments; a failure or a stop removes what it had written.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { datasetDocuments, datasetQaPairs, datasets, datasetSegments, files } from '../db/schema';
import { createGuardedHttpClient, createWebPageReader } from '../http';
import { createEmbedder, EMBED_BATCH_SIZE, embedderForTenant } from './embedder';
import { parseFile } from './parse';
import { DEFAULT_PROCESS_RULE, segmentTable, segmentText } from './segment';
import { rerunGraphAfterReindex } from './graph';
import { holdIndexes, restoreIndexes } from './keep-indexes';
import { fileStorage } from './storage';
import { prepareOffThread, warmPrepareWorker } from './prepare-pool';
import { copyBinary, COPY_COLUMNS, tsvOf, vectorOf, type CopyRow } from './prepare';
import { searchTokens } from './tokenize';
import type { Embedder, ParsedDoc, ProcessRule, SegmentDraft, TaskHandler } from './types';

type Ctx = Pick<ServerContext, 'db' | 'secretKey' | 'settings' | 'outbound'>;
type Tx = Parameters<Parameters<ServerContext['db']['transaction']>[0]>[0];
type DocumentRow = typeof datasetDocuments.$inferSelect;
type DatasetRow = typeof datasets.$inferSelect;

const hasVectorColumn = new WeakMap<object, Promise<boolean>>();

/**
 * Whether dataset_segments has the pgvector column `embedding_v` (checked once per database). Asked
 * of pg_attribute directly: information_schema.columns is a view over every column of every table
 * with privilege checks, the slowest statement of a start on the embedded database (it runs in the
 * background, but on the database's one thread, ahead of the first requests).
 */
export function vectorColumnExists(ctx: Pick<ServerContext, 'db'>): Promise<boolean> {
  let p = hasVectorColumn.get(ctx.db);
  if (!p) {
    p = ctx.db
      .execute(sql`select 1 as one from pg_attribute where attrelid = to_regclass('dataset_segments') and attname = 'embedding_v' and not attisdropped`)
      .then((r) => ((r as { rows?: unknown[] }).rows ?? (r as unknown as unknown[])).length > 0);
    hasVectorColumn.set(ctx.db, p);
  }
  return p;
}

/**
 * The embedder of a knowledge base. The first ingestion of a base picks the tenant's default
 * text-embedding model (or the built-in one) and records it; later units use the recorded one.
 */
export async function embedderOfDataset(ctx: Ctx, ds: Pick<DatasetRow, 'id' | 'tenantId' | 'embedding' | 'embeddingDim'>): Promise<Embedder> {
  if (ds.embeddingDim !== null || ds.embedding !== null) return createEmbedder(ctx, ds.tenantId, { embedding: ds.embedding });
  const e = await embedderForTenant(ctx, ds.tenantId);
  let recorded = false;
  return {
    id: e.id,
    get dim() {
      return e.dim;
    },
    async embed(texts, signal) {
      const out = await e.embed(texts, signal);
      if (!recorded && out[0]) {
        recorded = true;
        await ctx.db
          .update(datasets)
          .set({ embedding: e.embedding, embeddingDim: out[0].length })
          .where(and(eq(datasets.id, ds.id), sql`${datasets.embeddingDim} is null`));
      }
      return out;
    },
  };
}

/** Records the base's embedding dimension after vectors of `dim` were made (first ingestion). */
async function recordDim(ctx: Ctx, datasetId: string, embedder: Embedder, dim: number) {
  await ctx.db
    .update(datasets)
    .set({ embeddingDim: dim, ...(embedder.id === 'builtin' ? { embedding: null } : {}) })
    .where(and(eq(datasets.id, datasetId), sql`${datasets.embeddingDim} is null`));
}

export interface WriteOptions {
  signal?: AbortSignal;
  /** Called with 0..1 as batches are stored. */
  onProgress?: (fraction: number) => Promise<void> | void;
}

/** Matched rows embedded and stored per statement, at most; a unit's first batch has FIRST_BATCH_SIZE. */
const WRITE_BATCH_SIZE = 512;
const FIRST_BATCH_SIZE = 32;
/** Batches prepared ahead of the one being stored. */
const PREPARE_AHEAD = 2;

/**
 * Stores segment drafts of a unit: general drafts as `chunk` rows; parent-child drafts as a `parent`
 * row (context, not matched: no tokens, no vector) with its `child` rows. Matched rows get
 * `tokens = searchTokens(content)`, their vector and `metadata` { document_name, ...draft metadata }.
 * The vector goes to `embedding_v` alone where pgvector exists (`embedding` real[] stays null there;
 * retrieval reads `embedding_v`), else to `embedding`. On PGlite the rows go in through one binary
 * COPY per batch (pgvector's text input parses floats slowly in WASM; its binary input does not).
 * Appends after the unit's existing positions. Answers the number of rows written.
 */
export async function writeSegments(
  ctx: Ctx,
  doc: Pick<DocumentRow, 'id' | 'datasetId' | 'tenantId' | 'name'>,
  drafts: SegmentDraft[],
  embedder: Embedder,
  opts: WriteOptions = {},
): Promise<number> {
  const withVector = await vectorColumnExists(ctx);
  // The binary COPY writes embedding_v: PGlite always has it.
  const pglite = withVector ? pgliteOf(ctx.db) : null;
  const [{ maxPos }] = await ctx.db
    .select({ maxPos: sql<number>`coalesce(max(${datasetSegments.position}), 0)::int` })
    .from(datasetSegments)
    .where(eq(datasetSegments.documentId, doc.id));
  let position = Number(maxPos);
  type Row = typeof datasetSegments.$inferInsert;
  const rows: Row[] = [];
  const now = new Date();
  const docMeta = { document_name: doc.name };
  // Each row one whole object literal: `{ ...base, id, ... }` made every row a dictionary-mode
  // object, about 5 µs apiece to build and slower to read afterwards.
  const row = (id: string, kind: 'parent' | 'child' | 'chunk', parentId: string | null, pos: number, content: string, metadata: Record<string, unknown>): Row => ({
    id,
    tenantId: doc.tenantId,
    datasetId: doc.datasetId,
    documentId: doc.id,
    parentId,
    kind,
    position: pos,
    content,
    tokens: '',
    metadata,
    createdAt: now,
    updatedAt: now,
  });
  for (const d of drafts) {
    const metadata = d.metadata ? { ...docMeta, ...d.metadata } : docMeta;
    if (d.children) {
      const parentId = randomUUID();
      rows.push(row(parentId, 'parent', null, ++position, d.content, metadata));
      let childPos = 0;
      for (const c of d.children) rows.push(row(randomUUID(), 'child', parentId, ++childPos, c, metadata));
    } else {
      rows.push(row(randomUUID(), 'chunk', null, ++position, d.content, metadata));
    }
  }
  const matched = rows.filter((r) => r.kind !== 'parent');
  let done = 0;
  let dimRecorded = false;
  // Parents first (children refer to them), then the matched rows in embedded batches.
  const parents = rows.filter((r) => r.kind === 'parent');
  for (let i = 0; i < parents.length; i += 500) {
    opts.signal?.throwIfAborted();
    await ctx.db.insert(datasetSegments).values(parents.slice(i, i + 500));
  }
  // The CPU part of a batch (tokens, tsvector, built-in vectors) runs on a worker thread, and that
  // of the next PREPARE_AHEAD batches (and their vectors from a model) while this one is stored.
  const builtin = embedder.id === 'builtin';
  const prepare = async (from: number, to: number) => {
    const rows = matched.slice(from, to);
    const texts = rows.map((r) => r.content);
    // With built-in vectors the worker also writes the rows' COPY input (sent without their timestamps).
    const copyRows: CopyRow[] | undefined =
      pglite && builtin ? rows.map((r) => ({ id: r.id!, tenantId: r.tenantId, datasetId: r.datasetId, documentId: r.documentId, parentId: r.parentId, kind: r.kind, position: r.position, content: r.content, metadata: r.metadata ?? undefined })) : undefined;
    const [prepared, fromModel] = await Promise.all([prepareOffThread(texts, builtin, copyRows), builtin ? null : embedder.embed(texts, opts.signal)]);
    const vectors: ArrayLike<number>[] = builtin ? texts.map((_, k) => vectorOf(prepared, k)) : fromModel!;
    return { prepared, vectors };
  };
  // Batches grow from FIRST_BATCH_SIZE to WRITE_BATCH_SIZE rows: the database waits only for a small
  // first batch, and each next one, at most twice as large, is prepared while the one before is stored.
  const ends: number[] = [];
  for (let at = 0, size = FIRST_BATCH_SIZE; at < matched.length; at += size, size = Math.min(2 * size, WRITE_BATCH_SIZE)) ends.push(Math.min(at + size, matched.length));
  const ahead: ReturnType<typeof prepare>[] = [];
  const prepareNext = (b: number) => {
    if (b >= ends.length) return;
    const p = prepare(b === 0 ? 0 : ends[b - 1]!, ends[b]!);
    p.catch(() => {}); // (awaited, and so reported, in its turn; not unhandled if one before fails)
    ahead.push(p);
  };
  for (let b = 0; b < PREPARE_AHEAD; b++) prepareNext(b);
  for (let b = 0, i = 0; b < ends.length; i = ends[b++]!) {
    opts.signal?.throwIfAborted();
    const batch = matched.slice(i, ends[b]);
    const { prepared, vectors } = await ahead.shift()!;
    prepareNext(b + PREPARE_AHEAD);
    if (!dimRecorded && vectors[0]) {
      dimRecorded = true;
      await recordDim(ctx, doc.datasetId, embedder, vectors[0].length);
    }
    batch.forEach((r, k) => (r.tokens = prepared.tokens[k]!));
    opts.signal?.throwIfAborted();
    if (pglite) {
      const data = prepared.copy ?? copyBinary(batch as CopyRow[], prepared.tokens, vectors, batch.map((_, k) => tsvOf(prepared, k)));
      await copySegments(pglite, batch[0]!, data);
    } else {
      const plain = vectors.map((v) => Array.from(v));
      if (withVector) await insertWithVector(ctx, batch, plain);
      else await ctx.db.insert(datasetSegments).values(batch.map((r, k) => ({ ...r, embedding: plain[k] ?? null })));
    }
    done += batch.length;
    await opts.onProgress?.(done / matched.length);
    // PGlite answers in microtasks: without a macrotask turn, HTTP requests and timers would wait for the whole unit.
    await yieldToEventLoop();
  }
  // PGlite has no autovacuum: the full-text index's pending list (fastupdate) would only be merged
  // when it reaches 4 MB, and every search reads it row by row until then. Merge it now.
  if (pglite && matched.length) await pglite.query(`select gin_clean_pending_list('dataset_segments_tsv'::regclass)`);
  return rows.length;
}

/** The pgvector text form of a vector (float32 holds 7 significant digits: say no more). */
export const vectorText = (v: number[]) => `[${v.map((x) => (x === 0 ? '0' : Number.isFinite(x) ? x.toPrecision(7) : '0')).join(',')}]`;

/** A PostgreSQL server with pgvector: the vector is sent once as pgvector text, `embedding` stays null. */
async function insertWithVector(ctx: Pick<ServerContext, 'db'>, batch: (typeof datasetSegments.$inferInsert)[], vectors: number[][]) {
  const values = batch.map((r, k) => {
    const v = vectors[k] ? vectorText(vectors[k]) : null;
    return sql`(${r.id}::uuid, ${r.tenantId}::uuid, ${r.datasetId}::uuid, ${r.documentId}::uuid, ${r.parentId ?? null}::uuid, ${r.kind}, ${r.position}, ${r.content}, ${r.tokens ?? ''},
      ${v}::vector, ${JSON.stringify(r.metadata ?? {})}::jsonb, ${r.enabled ?? true})`;
  });
  await ctx.db.execute(sql`insert into dataset_segments (id, tenant_id, dataset_id, document_id, parent_id, kind, position, content, tokens, embedding_v, metadata, enabled)
    values ${sql.join(values, sql`, `)}`);
}

/** The PGlite client under a drizzle database (null on a PostgreSQL server): db/pglite-remote.ts. */
interface PgliteTx {
  /**
   * `blob` in: what COPY ... FROM '/dev/blob' reads; `blob` out: what COPY ... TO '/dev/blob' wrote;
   * `copyInput`: what COPY ... FROM `copyDevice` reads.
   */
  query<T = unknown>(q: string, params?: unknown[], opts?: { blob?: Blob; copyInput?: Uint8Array }): Promise<{ rows: T[]; blob?: Blob }>;
}
export interface PgliteLike extends PgliteTx {
  transaction<T>(fn: (tx: PgliteTx) => Promise<T>): Promise<T>;
  readonly copyDevice: string | null;
}
export function pgliteOf(db: object): PgliteLike | null {
  const client = (db as { $client?: { query?: unknown; dumpDataDir?: unknown } }).$client;
  return client && typeof client.query === 'function' && typeof client.dumpDataDir === 'function' ? (client as unknown as PgliteLike) : null;
}

/** The unit was deleted while it was being indexed. */
export class UnitGoneError extends Error {
  constructor() {
    super('The knowledge unit no longer exists');
  }
}

/**
 * Stores matched segment rows with one `COPY ... FORMAT binary` (PGlite) of `data`, prepare.ts
 * copyBinary's input: uuid, text, int4, jsonb and pgvector's binary forms, and `tsv` as tsvector's
 * binary form built from the tokens (tsvectorBinary: what to_tsvector('simple', tokens) gives,
 * without its cost in WASM). created_at/updated_at/enabled take their column defaults.
 *
 * The rows of a batch share one unit, `first`'s (hence one base and tenant): instead of the three foreign-key
 * checks per row (an SPI query each, the largest cost per row in WASM), the transaction takes the
 * unit's row FOR KEY SHARE, as those checks do — so the unit (and its base and tenant, which it
 * references) cannot go away before the commit, and a unit deleted before fails the batch — and
 * copies with `session_replication_role = replica` (no per-row triggers: the foreign keys' and the
 * tsv trigger of migration 0011, whose work the COPY brings; the segments_version triggers of 0010
 * fire always).
 */
async function copySegments(pg: PgliteLike, first: Pick<CopyRow, 'documentId' | 'datasetId' | 'tenantId'>, data: Uint8Array) {
  await pg.transaction(async (tx) => {
    const unit = await tx.query<{ one: number }>(
      'select 1 as one from dataset_documents where id = $1 and dataset_id = $2 and tenant_id = $3 for key share',
      [first.documentId, first.datasetId, first.tenantId],
    );
    if (!unit.rows.length) throw new UnitGoneError();
    await tx.query('set local session_replication_role = replica');
    // The database's own device (made in its worker thread) reads the bytes where they are;
    // /dev/blob copies them twice and feeds them a byte at a time.
    if (pg.copyDevice) await tx.query(`copy dataset_segments (${COPY_COLUMNS}) from '${pg.copyDevice}' with (format binary)`, [], { copyInput: data });
    else await tx.query(`copy dataset_segments (${COPY_COLUMNS}) from '/dev/blob' with (format binary)`, [], { blob: new Blob([data as Uint8Array<ArrayBuffer>]) });
  });
}

/** Lets I/O and timers run between batches. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Re-tokenises and re-embeds one stored segment after its content changed (one transaction). */
export async function reindexSegment(ctx: Ctx, ds: DatasetRow, segmentId: string, content: string) {
  const write = await prepareSegmentContent(ctx, ds, content);
  await ctx.db.transaction((tx) => write(tx, segmentId));
}

/**
 * A stored segment's new content: re-embedded now (a model call that may fail), written by the
 * returned function inside the caller's transaction, so a failed embedding changes nothing.
 */
export async function prepareSegmentContent(ctx: Ctx, ds: DatasetRow, content: string): Promise<(tx: Tx, segmentId: string) => Promise<void>> {
  const embedder = await embedderOfDataset(ctx, ds);
  const [vector] = await embedder.embed([content]);
  const withVector = await vectorColumnExists(ctx);
  return async (tx, segmentId) => {
    await tx
      .update(datasetSegments)
      .set({ content, tokens: searchTokens(content), embedding: withVector ? null : (vector ?? null), updatedAt: new Date() })
      .where(eq(datasetSegments.id, segmentId));
    if (withVector) {
      await tx.execute(sql`update dataset_segments set embedding_v = ${vector ? vectorText(vector) : null}::vector where id = ${segmentId}::uuid`);
    }
  };
}

/**
 * Stores (or, with `id`, updates) a Q&A pair: tokens of question and answer, the question's vector
 * (`embedding_v` where pgvector exists, else `embedding` real[]). Answers the row.
 */
export async function embedAndStoreQa(
  ctx: Ctx,
  ds: DatasetRow,
  doc: Pick<DocumentRow, 'id' | 'datasetId' | 'tenantId'>,
  qa: { id?: string; question: string; answer: string },
  embedder?: Embedder,
) {
  const e = embedder ?? (await embedderOfDataset(ctx, ds));
  const [vector] = await e.embed([qa.question]);
  if (vector) await recordDim(ctx, ds.id, e, vector.length);
  const withVector = await vectorColumnExists(ctx);
  const values = { question: qa.question, answer: qa.answer, tokens: searchTokens(`${qa.question} ${qa.answer}`), embedding: withVector ? null : (vector ?? null) };
  const [row] = qa.id
    ? await ctx.db
        .update(datasetQaPairs)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(datasetQaPairs.id, qa.id))
        .returning()
    : await ctx.db
        .insert(datasetQaPairs)
        .values({ id: randomUUID(), tenantId: doc.tenantId, datasetId: doc.datasetId, documentId: doc.id, ...values })
        .returning();
  // Where pgvector exists the vector lives in embedding_v only (as for segments).
  if (withVector) {
    await ctx.db.execute(sql`update dataset_qa_pairs set embedding_v = ${vector ? vectorText(vector) : null}::vector where id = ${row!.id}::uuid`);
  }
  return row!;
}

/** The process rule stored on a unit, completed with the defaults. */
export function ruleOf(doc: Pick<DocumentRow, 'processRule'>): ProcessRule {
  return { ...DEFAULT_PROCESS_RULE, ...(doc.processRule as Partial<ProcessRule>) };
}

/** Cuts a parsed document by the rule (tables: one segment per row, every sheet). */
export function segmentParsed(parsed: ParsedDoc, rule: ProcessRule): SegmentDraft[] {
  if (parsed.kind === 'table') return parsed.sheets.flatMap((s) => segmentTable(s, rule));
  return segmentText(parsed.text, rule);
}

/** Fetches a web page through the guarded client (admitted by the outbound policy) as text. */
export async function fetchUrlText(ctx: Ctx, url: string, signal?: AbortSignal): Promise<{ text: string; title: string }> {
  const http = createGuardedHttpClient({ policy: ctx.outbound, purpose: 'knowledge' });
  const page = await createWebPageReader(http, { maxChars: 5_000_000 }).read(url, { signal, maxChars: 5_000_000 });
  return { text: page.text, title: page.title };
}

/** Reads a unit's source (its stored file or its URL) and parses it. */
export async function readSource(ctx: Ctx, doc: DocumentRow, signal?: AbortSignal): Promise<{ parsed: ParsedDoc; bytes: number }> {
  if (doc.sourceUrl) {
    const page = await fetchUrlText(ctx, doc.sourceUrl, signal);
    return { parsed: { kind: 'text', text: page.text, title: page.title }, bytes: Buffer.byteLength(page.text) };
  }
  if (!doc.fileId) throw new Error('The file of this unit was deleted');
  const [file] = await ctx.db.select().from(files).where(eq(files.id, doc.fileId));
  if (!file) throw new Error('The file of this unit was deleted');
  const bytes = await fileStorage(ctx.settings).get(file.storageKey);
  const parsed = await parseFile({ bytes, name: file.name }, { sheet: doc.sheet ?? undefined, headerRow: doc.headerRow ?? undefined });
  return { parsed, bytes: bytes.length };
}


const setUnit = (ctx: Ctx, id: string, v: Partial<typeof datasetDocuments.$inferInsert>) =>
  ctx.db
    .update(datasetDocuments)
    .set({ ...v, updatedAt: new Date() })
    .where(eq(datasetDocuments.id, id));

/** The next refresh of a URL unit refreshed every `frequency` days (null: never). */
export function nextRefreshOf(frequency: string, from = new Date()): Date | null {
  const days = Number(frequency);
  if (!Number.isFinite(days) || days <= 0) return null;
  return new Date(from.getTime() + days * 86_400_000);
}

/** The `normal` task handler. */
export const ingestHandler: TaskHandler = async (job) => {
  const { ctx, task, signal } = job;
  const [doc] = await ctx.db.select().from(datasetDocuments).where(eq(datasetDocuments.id, task.documentId));
  const [ds] = await ctx.db.select().from(datasets).where(eq(datasets.id, task.datasetId));
  if (!doc || !ds) throw new Error('The knowledge unit no longer exists');
  // The indexing worker loads while the source is read and segmented.
  warmPrepareWorker();
  // A new attempt (restart, refresh) starts from nothing, but for the index entries of segments whose text stays.
  const heldIndexes = await holdIndexes(ctx, doc.id);
  await ctx.db.delete(datasetSegments).where(eq(datasetSegments.documentId, doc.id));
  try {
    await setUnit(ctx, doc.id, { status: 'parsing', progress: 0, error: null });
    await job.log('info', doc.sourceUrl ? `Fetching ${doc.sourceUrl}` : `Parsing ${doc.name}`);
    const { parsed, bytes } = await readSource(ctx, doc, signal);
    signal.throwIfAborted();
    await job.progress(0.1);
    await setUnit(ctx, doc.id, { status: 'segmenting' });
    const rule = ruleOf(doc);
    const drafts = segmentParsed(parsed, rule);
    const chars = parsed.kind === 'text' ? parsed.text.length : drafts.reduce((n, d) => n + d.content.length, 0);
    if (!drafts.length) throw new Error(parsed.kind === 'table' ? 'The table has no rows under its header row' : 'No text was found in this file');
    await job.log('info', `${drafts.length} segments (${chars} characters)`);
    await job.progress(0.2);
    signal.throwIfAborted();
    await setUnit(ctx, doc.id, { status: 'indexing', charCount: chars, ...(doc.sourceUrl ? { size: bytes } : {}) });
    const embedder = await embedderOfDataset(ctx, ds);
    const written = await writeSegments(ctx, doc, drafts, embedder, { signal, onProgress: (f) => job.progress(0.2 + 0.8 * f) });
    await job.log('info', `${written} segments stored with ${embedder.id} vectors`);
    const kept = await restoreIndexes(ctx, doc, heldIndexes);
    if (heldIndexes.length) await job.log('info', `${kept} of ${heldIndexes.length} segment index entries kept (their segment's text did not change)`);
    if (doc.sourceUrl) await setUnit(ctx, doc.id, { nextRefreshAt: nextRefreshOf(doc.updateFrequency) });
    // The new segments have new ids: a graph that was on is analysed again on them.
    if (await rerunGraphAfterReindex(ctx, task)) await job.log('info', 'The segments are new: the graph analysis runs again');
  } catch (e) {
    // Nothing half-done stays behind: the unit's segments are those of a complete run or none.
    await ctx.db.delete(datasetSegments).where(eq(datasetSegments.documentId, doc.id));
    throw e;
  }
};
