import type { Worker } from 'node:worker_threads';
import type { ThreadMemory } from '../db/pglite-remote';

/** A sandbox worker's memory, whether it holds the next job's context ready (`spare`), and how many contexts it keeps warm for a code (`contexts`, worker.mjs). */
export type SandboxThreadMemory = ThreadMemory & { spare?: boolean; contexts?: number };

/**
 * Asks a sandbox worker (worker.mjs) for its heap and its warm module's WASM memory, for the memory
 * report (kill -USR2, bench:start). The worker answers between jobs; null when it does not within
 * a second (it is ending).
 */
export function askWorkerMemory(worker: Worker, id: number): Promise<SandboxThreadMemory | null> {
  return new Promise((resolve) => {
    const done = (m: SandboxThreadMemory | null) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(m);
    };
    const onMessage = (m: { id?: number; memory?: SandboxThreadMemory }) => {
      if (m.id === id && m.memory) done(m.memory);
    };
    const timer = setTimeout(() => done(null), 1000);
    timer.unref();
    worker.on('message', onMessage);
    worker.postMessage({ id, memory: true });
  });
}
