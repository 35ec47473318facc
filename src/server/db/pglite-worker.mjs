// The embedded database's own thread (issue 34): PGlite runs here, so its WASM execution, protocol
// parsing and row building never take the server's event loop. pglite-remote.ts is the other end.
// Plain JavaScript, like the sandbox's worker.mjs: it runs as it is under tsx, vitest and node.
//
// Messages in: { id, op, ... } with op init | query | exec | begin | commit | rollback | dump | close;
// a query's `copyInput` bytes are what a COPY ... FROM '/dev/weft-copy' in it reads.
// Messages out: { id, result } or { id, error } (error: message and the PostgreSQL fields).
// Transactions: `begin` holds PGlite's transaction (PGlite queues every other query until it
// ends, as on the main thread before); queries naming its `tx` run inside it.
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

/** @type {PGlite | undefined} */
let db;
/** Open transactions by id: PGlite's transaction object and how to end it. */
const txs = new Map();
/** Thrown into a transaction's callback to roll it back (PGlite rolls back on a throw). */
const ROLLBACK = Symbol('rollback');

const identity = (v) => v;

/** The character device a binary COPY of knowledge segments reads from (see copyDevice below). */
const COPY_DEVICE = '/dev/weft-copy';
/** Its device number (PGlite's own /dev/blob is 64, 0). */
const COPY_DEVICE_MAJOR = 64;
const COPY_DEVICE_MINOR = 17;
/** What the device reads now: set for one query's `copyInput`, null otherwise. */
const copyState = { data: null };
let copyDevice = null;

/**
 * Makes {@link COPY_DEVICE} in PGlite's in-memory /dev. PGlite's /dev/blob takes a Blob, copies it
 * twice (into the Blob, then out to an ArrayBuffer) and hands it to the database a byte at a time
 * in a JavaScript loop; this device reads the buffer where it is, a slice per read. Null when
 * Emscripten's file system is not reachable: callers then use /dev/blob.
 */
function makeCopyDevice(pg) {
  try {
    const FS = pg.Module?.FS;
    if (!FS || typeof FS.registerDevice !== 'function' || typeof FS.mkdev !== 'function') return null;
    const dev = FS.makedev(COPY_DEVICE_MAJOR, COPY_DEVICE_MINOR);
    FS.registerDevice(dev, {
      open: () => {},
      close: () => {},
      read: (_stream, buffer, offset, length, position) => {
        const src = copyState.data;
        if (!src) throw new FS.ErrnoError(5); // EIO: no COPY in progress
        if (position >= src.length) return 0;
        const n = Math.min(src.length - position, length);
        buffer.set(src.subarray(position, position + n), offset);
        return n;
      },
      llseek: (stream, offset, whence) => {
        const at = whence === 1 ? stream.position + offset : whence === 2 ? (copyState.data?.length ?? 0) + offset : offset;
        if (at < 0) throw new FS.ErrnoError(28); // EINVAL
        return at;
      },
    });
    FS.mkdev(COPY_DEVICE, dev);
    return COPY_DEVICE;
  } catch (e) {
    console.error('[weft] the COPY input device could not be made; using /dev/blob:', e);
    return null;
  }
}

/**
 * A dump's bytes as PGlite's loader takes them: it reads a Blob's type (a gzip'ed dump is inflated)
 * and its arrayBuffer(), nothing else (@electric-sql/pglite 0.5's loadTar). The bytes that moved here
 * are handed over as they are: a Blob would copy them twice more (into the Blob, then out of it in
 * small chunks), ~0.15 s of this thread for the 46 MB test template.
 */
function dumpSource(bytes, type) {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  return { type: type || 'application/x-tar', size: whole.byteLength, arrayBuffer: async () => whole.buffer };
}

/** The parsers a caller asked for: the listed type ids stay as PostgreSQL's text (drizzle's mapping). */
function optionsOf(m) {
  const parsers = m.rawOids?.length ? Object.fromEntries(m.rawOids.map((oid) => [oid, identity])) : undefined;
  return {
    ...(m.rowMode ? { rowMode: m.rowMode } : {}),
    ...(parsers ? { parsers } : {}),
    ...(m.blob ? { blob: new Blob([m.blob]) } : {}),
  };
}

/**
 * What crosses to the main thread of a failure: the message and PostgreSQL's fields (code,
 * constraint, detail ...), primitives only (PGlite also hangs the query's options, functions
 * included, on its errors).
 */
function errorOf(e) {
  if (!(e instanceof Error)) return { message: String(e) };
  const out = { message: e.message, name: e.name };
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined || v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  }
  return out;
}

/** A query's result without what cannot cross (the blob becomes bytes). */
async function resultOf(r) {
  const out = { rows: r.rows, fields: r.fields, ...(r.affectedRows !== undefined ? { affectedRows: r.affectedRows } : {}) };
  if (r.blob) out.blob = new Uint8Array(await r.blob.arrayBuffer());
  return out;
}

function clientOf(m) {
  if (m.tx === undefined) return db;
  const t = txs.get(m.tx);
  if (!t) throw new Error(`The transaction ${m.tx} has ended`);
  return t.tx;
}

async function handle(m) {
  switch (m.op) {
    case 'init': {
      db = await PGlite.create({
        dataDir: m.dataDir,
        extensions: { vector },
        ...(m.wasmModule ? { pgliteWasmModule: m.wasmModule } : {}),
        ...(m.loadDataDir ? { loadDataDir: dumpSource(m.loadDataDir, m.loadDataDirType) } : {}),
        // On the command line (-c), not through PGlite's postgresqlconf option, which replaces the
        // data directory's postgresql.conf (time zone, locale and date style lines included).
        ...(m.sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${m.sharedBuffers}`] } : {}),
      });
      copyDevice = makeCopyDevice(db);
      return { copyDevice };
    }
    case 'query':
      if (m.copyInput) {
        // The caller's transaction holds PGlite alone while the device reads it.
        copyState.data = m.copyInput;
        try {
          return await resultOf(await clientOf(m).query(m.sql, m.params, optionsOf(m)));
        } finally {
          copyState.data = null;
        }
      }
      return resultOf(await clientOf(m).query(m.sql, m.params, optionsOf(m)));
    case 'exec':
      return Promise.all((await clientOf(m).exec(m.sql, optionsOf(m))).map(resultOf));
    case 'begin':
      return new Promise((resolve, reject) => {
        const t = { tx: undefined, commit: undefined, rollback: undefined, ended: undefined };
        t.ended = db.transaction(
          (tx) =>
            new Promise((commit, rollback) => {
              Object.assign(t, { tx, commit, rollback });
              txs.set(m.tx, t);
              resolve(null);
            }),
        );
        // A BEGIN that failed never reached the callback.
        t.ended.catch((e) => {
          if (!t.tx) reject(e);
        });
      });
    case 'commit':
    case 'rollback': {
      const t = txs.get(m.tx);
      if (!t) throw new Error(`The transaction ${m.tx} has ended`);
      txs.delete(m.tx);
      if (m.op === 'commit') {
        t.commit();
        await t.ended; // a failing COMMIT (a deferred constraint) answers with its error
        return null;
      }
      t.rollback(ROLLBACK);
      await t.ended.catch((e) => {
        if (e !== ROLLBACK) throw e;
      });
      return null;
    }
    case 'dump': {
      const file = await db.dumpDataDir(m.compression);
      return new Uint8Array(await file.arrayBuffer());
    }
    case 'memory':
      // The memory report (kill -USR2, bench:start): this isolate's heap and PostgreSQL's WASM memory.
      return { heapBytes: v8.getHeapStatistics().total_heap_size, wasmBytes: db?.Module?.HEAPU8?.byteLength ?? 0 };
    case 'close':
      await db?.close();
      return null;
    default:
      throw new Error(`Unknown operation ${m.op}`);
  }
}

/**
 * The statements waiting for PGlite, run one at a time in this thread's own order (PGlite would
 * queue them too, in arrival order, out of sight): a transaction holds the queue from its `begin`
 * to its end (its own statements, `commit` and `rollback` go at once, as inside PGlite).
 *
 * Reads go first (issues 21/34): a SELECT waiting behind batched writes (a run's rows, the event
 * log) is on some request's way to its answer (a chat's conversation or memory, a page), while the
 * writes wait for nobody. At most READS_AHEAD reads overtake a waiting write in a row, so writes
 * are never starved. Only statements not yet begun are reordered: each runs whole, and a caller that
 * awaited a write before reading sees it (a read sent before a write is answered was never ordered
 * after it: on a database server the pool's connections do not order them either).
 *
 * The choice is made once the messages that came in meanwhile are all here: messages pile up in
 * the port while PGlite works (its statements are synchronous WebAssembly), and they are all
 * delivered before a setImmediate callback runs.
 */
const waiting = [];
/** What holds PGlite now: a statement's id, a transaction (`tx:<id>`), or null. */
let holder = null;
const READS_AHEAD = 8;
let readsAhead = 0;
let pumpSoon = false;

const isRead = (m) => m.op === 'query' && !m.copyInput && /^\s*select\b/i.test(m.sql);

/** The next statement to run: the first read when a write is ahead of it (within READS_AHEAD), else the first. */
function next() {
  if (!isRead(waiting[0]) && readsAhead < READS_AHEAD) {
    const at = waiting.findIndex(isRead);
    if (at > 0) {
      readsAhead++;
      return waiting.splice(at, 1)[0];
    }
  }
  readsAhead = 0;
  return waiting.shift();
}

function schedulePump() {
  if (pumpSoon) return;
  pumpSoon = true;
  setImmediate(() => {
    pumpSoon = false;
    pump();
  });
}

/** A statement's answer, with its start and end on the shared clock when the client asked (bench tracing). */
function reply(m, started, outcome) {
  const t = m.timed ? [started, performance.timeOrigin + performance.now()] : undefined;
  if ('error' in outcome) {
    parentPort.postMessage({ id: m.id, error: errorOf(outcome.error), ...(t ? { t } : {}) });
    return;
  }
  const result = outcome.result;
  const transfer = result?.blob ? [result.blob.buffer] : result instanceof Uint8Array ? [result.buffer] : [];
  parentPort.postMessage({ id: m.id, result, ...(t ? { t } : {}) }, transfer);
}

function run(m, then) {
  const started = m.timed ? performance.timeOrigin + performance.now() : 0;
  handle(m).then(
    (result) => {
      reply(m, started, { result });
      then?.(true);
    },
    (error) => {
      reply(m, started, { error });
      then?.(false);
    },
  );
}

function pump() {
  while (holder === null && waiting.length) {
    const m = next();
    if (m.op === 'begin') {
      holder = `tx:${m.tx}`;
      // A BEGIN that failed holds nothing.
      run(m, (ok) => {
        if (!ok) release(`tx:${m.tx}`);
      });
    } else {
      holder = m.id;
      run(m, () => release(m.id));
    }
  }
}

function release(h) {
  if (holder !== h) return;
  holder = null;
  schedulePump();
}

parentPort.on('message', (m) => {
  if (m.tx !== undefined && m.op !== 'begin') {
    // Inside an open transaction (it holds the queue): at once.
    run(m, m.op === 'commit' || m.op === 'rollback' ? () => release(`tx:${m.tx}`) : undefined);
    return;
  }
  if (m.op === 'memory') return run(m);
  waiting.push(m);
  schedulePump();
});
