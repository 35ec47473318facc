import { Worker } from 'node:worker_threads';
import { statementTimer, type StatementTimer } from '../runs/first-token-trace';

/**
 * The embedded database from the main thread (issue 34): PGlite runs in a worker thread of its own
 * (pglite-worker.mjs) and this client forwards query, exec and transactions to it over the worker's
 * port. Measured under 200 portal chat streams, PGlite's WASM and its result parsing were the main
 * thread's largest cost, and one slow query stalled every stream; now the event loop only pays
 * for a structured clone of each result.
 *
 * It has the shape drizzle's pglite driver uses (query with rowMode and parsers, exec, transaction)
 * and that the knowledge code reaches through `$client` (query with a COPY blob, transaction,
 * dumpDataDir). Values keep their JS types: PGlite parses in the worker, and Date, BigInt,
 * Uint8Array and parsed JSON survive the clone. Parsers cannot cross a thread: a query's `parsers`
 * are taken as "leave these type ids as text", which is what drizzle's are (timestamps, dates,
 * intervals and their arrays, which its column mappers read). Errors keep PostgreSQL's fields
 * (code, constraint, detail ...), which the routes map to catalogue codes.
 */

export interface RemoteResults<T = unknown> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  blob?: Blob;
}

export interface RemoteQueryOptions {
  rowMode?: 'array' | 'object';
  /** Only the keys count: these type ids stay text (see above). */
  parsers?: Record<number, unknown>;
  /** What COPY ... FROM '/dev/blob' reads. */
  blob?: Blob;
  /** What COPY ... FROM {@link PgliteRemote.copyDevice} reads. */
  copyInput?: Uint8Array;
}

export interface RemoteTransaction {
  query<T = unknown>(sql: string, params?: unknown[], opts?: RemoteQueryOptions): Promise<RemoteResults<T>>;
  exec(sql: string, opts?: RemoteQueryOptions): Promise<RemoteResults[]>;
}

export interface PgliteRemote extends RemoteTransaction {
  /** Runs `fn` in one transaction that holds the database: other queries wait until it ends. */
  transaction<T>(fn: (tx: RemoteTransaction) => Promise<T>): Promise<T>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
  close(): Promise<void>;
  /**
   * A character device in PGlite's /dev that a binary COPY reads a query's `copyInput` from,
   * without /dev/blob's copies and byte-at-a-time loop; null when it could not be made.
   */
  readonly copyDevice: string | null;
  /** The worker's heap and PostgreSQL's WASM memory (committed, not all resident), for the memory report. */
  memory(): Promise<ThreadMemory>;
}

/** A worker thread's memory as it reports it, in bytes. */
export interface ThreadMemory {
  heapBytes: number;
  wasmBytes: number;
}

export interface PgliteRemoteOptions {
  dataDir?: string;
  /**
   * A data-directory dump (tar) to start from. Bytes are handed over: their buffer moves to the
   * database's thread (the caller's view is left empty), without the copies a Blob costs.
   */
  loadDataDir?: Blob | Uint8Array;
  sharedBuffers?: string;
}

/** `t`: the statement's start and end in the database thread (performance.timeOrigin + now), when it was timed. */
type Reply = { id: number; result?: unknown; error?: Record<string, unknown> & { message: string }; t?: [number, number] };

const WORKER_URL = new URL('./pglite-worker.mjs', import.meta.url);

/**
 * PGlite's WebAssembly compiled once per process and handed to each database worker (a compiled
 * module crosses threads without a copy; each worker would otherwise read and compile its own).
 */
let compiled: Promise<WebAssembly.Module> | undefined;
async function pgliteModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const { createRequire } = await import('node:module');
    const fsp = await import('node:fs/promises');
    const path = await import('node:path');
    const dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    return WebAssembly.compile(await fsp.readFile(path.join(dir, 'pglite.wasm')));
  })();
  return compiled;
}

/** A PostgreSQL error as it came from the worker: an Error with the same fields. */
function errorFrom(e: Reply['error'] & object): Error {
  const err = new Error(e.message) as Error & Record<string, unknown>;
  for (const [k, v] of Object.entries(e)) if (k !== 'message' && k !== 'stack') err[k] = v;
  return err;
}

async function bytesOf(blob: Blob | undefined): Promise<Uint8Array | undefined> {
  return blob ? new Uint8Array(await blob.arrayBuffer()) : undefined;
}

/**
 * A dump's bytes as they cross to the worker: a Uint8Array spanning its whole buffer moves as it is
 * (a view of part of a buffer is cut to itself first). A Blob is read into bytes: Node's Blob reads
 * in small chunks and concatenates them, ~0.3 s of this thread for the 46 MB test template.
 */
async function dumpBytes(dump: Blob | Uint8Array | undefined): Promise<Uint8Array | undefined> {
  if (!(dump instanceof Uint8Array)) return bytesOf(dump);
  return dump.byteOffset === 0 && dump.byteLength === dump.buffer.byteLength ? dump : dump.slice();
}

function resultsFrom<T>(r: RemoteResults<T> & { blob?: unknown }): RemoteResults<T> {
  if (r.blob instanceof Uint8Array) r.blob = new Blob([r.blob as Uint8Array<ArrayBuffer>]);
  return r;
}

/** Starts the worker, opens PGlite in it and answers once it is ready. */
export async function openPgliteRemote(opts: PgliteRemoteOptions): Promise<PgliteRemote> {
  const worker = new Worker(WORKER_URL);
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void; timer?: StatementTimer }>();
  let nextId = 1;
  let nextTx = 1;
  let dead: Error | null = null;

  // The worker keeps the process alive only while a request waits for it (an idle server's
  // process may end when nothing else holds it; a script awaiting a query must not).
  worker.unref();
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return p;
  };
  worker.on('message', (m: Reply) => {
    const p = settle(m.id);
    if (!p) return;
    if (m.t) p.timer?.(m.t[0] - performance.timeOrigin, m.t[1] - performance.timeOrigin);
    if (m.error) p.reject(errorFrom(m.error));
    else p.resolve(m.result);
  });
  const fail = (e: Error) => {
    dead = e;
    for (const id of [...pending.keys()]) settle(id)?.reject(e);
  };
  worker.on('error', (e) => fail(new Error(`The embedded database stopped: ${e.message}`)));
  worker.on('exit', (code) => fail(new Error(`The embedded database stopped (worker exit ${code})`)));

  function call<T>(msg: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    // Only while the portal bench traces first tokens (runs/first-token-trace.ts).
    const timer = statementTimer(typeof msg.sql === 'string' ? msg.sql : String(msg.op));
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, ...(timer ? { timer } : {}) });
      worker.postMessage({ id, ...msg, ...(timer ? { timed: true } : {}) }, transfer);
    });
  }

  async function request(op: 'query' | 'exec', tx: number | undefined, sql: string, params: unknown[] | undefined, o: RemoteQueryOptions = {}) {
    const blob = await bytesOf(o.blob);
    // The caller's bytes are copied, not moved (they may be a view of a buffer it still uses); a
    // view is cut to itself first (a clone of a view carries its whole buffer).
    const copyInput = o.copyInput && (o.copyInput.byteLength === o.copyInput.buffer.byteLength ? o.copyInput : o.copyInput.slice());
    return call<unknown>(
      {
        op,
        sql,
        ...(params ? { params } : {}),
        ...(tx !== undefined ? { tx } : {}),
        ...(o.rowMode ? { rowMode: o.rowMode } : {}),
        ...(o.parsers ? { rawOids: Object.keys(o.parsers).map(Number) } : {}),
        ...(blob ? { blob } : {}),
        ...(copyInput ? { copyInput } : {}),
      },
      blob ? [blob.buffer as ArrayBuffer] : [],
    );
  }

  const on = (tx: number | undefined): RemoteTransaction => ({
    query: async <T>(sql: string, params?: unknown[], o?: RemoteQueryOptions) => resultsFrom((await request('query', tx, sql, params, o)) as RemoteResults<T>),
    exec: async (sql: string, o?: RemoteQueryOptions) => ((await request('exec', tx, sql, undefined, o)) as RemoteResults[]).map(resultsFrom),
  });

  const loadDataDir = await dumpBytes(opts.loadDataDir);
  // A gzip'ed dump says so in its Blob's type, which PGlite's loader reads.
  const loadDataDirType = opts.loadDataDir instanceof Blob ? opts.loadDataDir.type : undefined;
  let ready: { copyDevice: string | null };
  try {
    const wasmModule = await pgliteModule();
    ready = await call(
      { op: 'init', dataDir: opts.dataDir, sharedBuffers: opts.sharedBuffers, loadDataDir, loadDataDirType, wasmModule },
      loadDataDir ? [loadDataDir.buffer as ArrayBuffer] : [],
    );
  } catch (e) {
    await worker.terminate();
    throw e;
  }

  return {
    ...on(undefined),
    copyDevice: ready.copyDevice,
    async transaction(fn) {
      const tx = nextTx++;
      await call({ op: 'begin', tx });
      let result;
      try {
        result = await fn(on(tx));
      } catch (e) {
        await call({ op: 'rollback', tx });
        throw e;
      }
      await call({ op: 'commit', tx });
      return result;
    },
    memory: () => call<ThreadMemory>({ op: 'memory' }),
    async dumpDataDir(compression) {
      const bytes = await call<Uint8Array>({ op: 'dump', compression });
      return new Blob([bytes as Uint8Array<ArrayBuffer>]);
    },
    async close() {
      if (dead) return;
      try {
        await call({ op: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}
