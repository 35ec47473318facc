/**
 * Broadcast videos' frames are drawn and fed to the encoder on one worker thread (encode.ts on
 * frames-thread.ts), started on the first render and stopped after a while idle (../lazy-worker):
 * the server's main thread only waits for it, and answers requests meanwhile. Renders in one process
 * share that thread (at most WEFT_RENDER_CONCURRENCY run at once; each also keeps an ffmpeg busy).
 */
import { lazyWorker } from '../lazy-worker';
import type { EncodeJob } from './encode';

const WORKER_URL = new URL('./frames-worker.mjs', import.meta.url);
const IDLE_MS = 30_000;

const pool = lazyWorker(WORKER_URL, { idleMs: IDLE_MS });

/** Encodes the video on the frames worker; `signal` stops it (its ffmpeg is killed), `onProgress` gets 0–1. */
export async function encodeOffThread(job: EncodeJob, opts: { signal?: AbortSignal; onProgress?: (fraction: number) => void }): Promise<void> {
  // The levels are copied into a buffer of their own, handed over rather than copied again.
  const levels = new Float32Array(job.levels);
  await pool.call({ job: { ...job, levels } }, { transfer: [levels.buffer], signal: opts.signal, onEvent: (f) => opts.onProgress?.(f as number) });
  opts.signal?.throwIfAborted();
}

/** Whether the frames worker runs now (the memory report, tests). */
export const framesWorkerRunning = (): boolean => pool.running();
