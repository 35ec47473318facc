/**
 * Runs prepare.ts's prepareBatch on one worker thread, so the indexer's CPU work (tokens, tsvector,
 * built-in vectors) for the next batch overlaps the database storing the current one (the embedded
 * database runs on the main thread), and HTTP requests are not held up behind it. The worker starts
 * on first use and stops after a while idle. Should it fail to start or die, the work runs on the
 * calling thread instead: slower, never lost.
 */
import { Worker } from 'node:worker_threads';
import { prepareBatch, type CopyRow, type PreparedBatch } from './prepare';

const WORKER_URL = new URL('./prepare-worker.mjs', import.meta.url);
/** An idle worker is stopped after this long. */
const IDLE_MS = 15_000;

interface Pending {
  texts: string[];
  builtinVectors: boolean;
  rows: readonly CopyRow[] | undefined;
  resolve: (b: PreparedBatch) => void;
  reject: (e: Error) => void;
}

let worker: Worker | null = null;
/** The worker failed: from then on, prepare on the calling thread. */
let failed = false;
let nextId = 1;
const pending = new Map<number, Pending>();
let idleTimer: NodeJS.Timeout | null = null;

function onFailure(w: Worker, err: unknown) {
  if (worker !== w) return;
  worker = null;
  failed = true;
  console.error('[weft] the indexing worker failed; indexing on the main thread from now on:', err);
  for (const [id, p] of pending) {
    pending.delete(id);
    try {
      p.resolve(prepareBatch(p.texts, p.builtinVectors, p.rows));
    } catch (e) {
      p.reject(e as Error);
    }
  }
}

function startWorker(): Worker | null {
  if (failed) return null;
  if (worker) return worker;
  let w: Worker;
  try {
    w = new Worker(WORKER_URL, { execArgv: [] });
  } catch (e) {
    failed = true;
    console.error('[weft] the indexing worker did not start; indexing on the main thread:', e);
    return null;
  }
  worker = w;
  w.on('message', (m: { id?: number; ok?: boolean; batch?: PreparedBatch; error?: string }) => {
    if (m.id === undefined) return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve({ ...m.batch!, tsv: Buffer.from(m.batch!.tsv.buffer, m.batch!.tsv.byteOffset, m.batch!.tsv.byteLength), copy: m.batch!.copy ?? null });
    else p.reject(new Error(m.error ?? 'indexing worker error'));
    if (!pending.size) idle(w);
  });
  w.on('error', (e) => onFailure(w, e));
  w.on('exit', (code) => {
    if (worker === w && pending.size) onFailure(w, new Error(`exited with code ${code}`));
    if (worker === w) worker = null;
  });
  return w;
}

function idle(w: Worker) {
  w.unref();
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (worker === w && !pending.size) {
      worker = null;
      void w.terminate();
    }
  }, IDLE_MS);
  idleTimer.unref();
}

/** Whether the worker runs now (the memory report). */
export const prepareWorkerRunning = (): boolean => worker !== null;

/**
 * Starts the worker ahead of its first batch (a no-op when it runs or cannot): loading it takes a few
 * hundred milliseconds (tsx compiles prepare.ts), which then overlap reading and segmenting the unit
 * instead of holding up its first batch. Stopped again after IDLE_MS if no batch comes.
 */
export function warmPrepareWorker(): void {
  const w = startWorker();
  if (w && !pending.size) idle(w);
}

/** prepareBatch on the worker thread (on this thread when the worker cannot run). */
export function prepareOffThread(texts: string[], builtinVectors: boolean, rows?: readonly CopyRow[]): Promise<PreparedBatch> {
  const w = startWorker();
  if (!w) return Promise.resolve().then(() => prepareBatch(texts, builtinVectors, rows));
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  w.ref();
  const id = nextId++;
  return new Promise<PreparedBatch>((resolve, reject) => {
    pending.set(id, { texts, builtinVectors, rows, resolve, reject });
    // With rows, their contents are the texts: sent once.
    w.postMessage({ id, texts: rows ? null : texts, builtinVectors, rows });
  });
}
