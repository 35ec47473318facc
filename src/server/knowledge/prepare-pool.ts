/**
 * Runs prepare.ts's prepareBatch on one worker thread, so the indexer's CPU work (tokens, tsvector,
 * built-in vectors) for the next batch overlaps the database storing the current one (the embedded
 * database runs on the main thread), and HTTP requests are not held up behind it. The worker starts
 * on first use and stops after a while idle (../lazy-worker). Should it fail to start or die, the work
 * runs on the calling thread instead: slower, never lost.
 */
import { lazyWorker, WorkerFailed } from '../lazy-worker';
import { prepareBatch, type CopyRow, type PreparedBatch } from './prepare';

const WORKER_URL = new URL('./prepare-worker.mjs', import.meta.url);
/** An idle worker is stopped after this long. */
const IDLE_MS = 15_000;

const pool = lazyWorker(WORKER_URL, { idleMs: IDLE_MS });
/** The worker failed: from then on, prepare on the calling thread. */
let failed = false;

function onFailure(err: unknown) {
  if (!failed) console.error('[weft] the indexing worker failed; indexing on the main thread from now on:', err);
  failed = true;
}

/** Whether the worker runs now (the memory report). */
export const prepareWorkerRunning = (): boolean => pool.running();

/**
 * Starts the worker ahead of its first batch (a no-op when it runs or cannot): loading it takes a few
 * hundred milliseconds (tsx compiles prepare.ts), which then overlap reading and segmenting the unit
 * instead of holding up its first batch. Stopped again after IDLE_MS if no batch comes.
 */
export function warmPrepareWorker(): void {
  if (failed) return;
  try {
    pool.warm();
  } catch (e) {
    onFailure(e);
  }
}

/** prepareBatch on the worker thread (on this thread when the worker cannot run). */
export async function prepareOffThread(texts: string[], builtinVectors: boolean, rows?: readonly CopyRow[]): Promise<PreparedBatch> {
  if (!failed) {
    try {
      // With rows, their contents are the texts: sent once.
      const m = await pool.call({ texts: rows ? null : texts, builtinVectors, rows });
      const batch = m.batch as PreparedBatch;
      return { ...batch, tsv: Buffer.from(batch.tsv.buffer, batch.tsv.byteOffset, batch.tsv.byteLength), copy: batch.copy ?? null };
    } catch (e) {
      // The batch's own error is the caller's; a worker that failed (or did not start) leaves the work to this thread.
      if (!(e instanceof WorkerFailed) && !isStartError(e)) throw e;
      onFailure(e);
    }
  }
  return prepareBatch(texts, builtinVectors, rows);
}

/** `new Worker` throws synchronously when the file cannot be found or read. */
const isStartError = (e: unknown) => e instanceof Error && 'code' in e && /^ERR_WORKER|^ENOENT|^ERR_MODULE/.test(String((e as { code: unknown }).code));
