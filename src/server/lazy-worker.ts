/**
 * One worker thread started on first use and stopped after a while idle, with its calls matched to
 * their answers by id: the pattern the offline voice (speech/offline-voice.ts), the indexing worker
 * (knowledge/prepare-pool.ts) and the video frames (digital-human/frames-pool.ts) share.
 *
 * The protocol: a call posts `{ id, ...message }`; the worker answers `{ id, ok: true, ... }` or
 * `{ id, ok: false, error }` once, and may post `{ id, event }` before that (progress). A call given
 * a signal posts `{ cancel: id }` when it aborts; the worker still answers the call. Messages without
 * an id (a worker's `ready`) are ignored.
 *
 * A worker that fails (an error, an exit, `restart`) rejects the calls it held with a WorkerFailed,
 * so the caller can tell it from the job's own error; the next call starts a new worker.
 */
import { Worker, type TransferListItem } from 'node:worker_threads';

export class WorkerFailed extends Error {}

export interface WorkerAnswer {
  id: number;
  ok: boolean;
  error?: string;
  [key: string]: unknown;
}

export interface CallOptions {
  transfer?: readonly TransferListItem[];
  /** Messages the worker posts for this call before its answer. */
  onEvent?: (event: unknown) => void;
  signal?: AbortSignal;
}

export interface LazyWorker {
  /** Posts a message to the worker (started if need be) and answers its reply. */
  call(message: Record<string, unknown>, opts?: CallOptions): Promise<WorkerAnswer>;
  /** Starts the worker now (a no-op when it runs); it stops again after the idle time if no call comes. */
  warm(): void;
  /** Ends the worker: the calls it holds fail with `reason`, the next call starts a new one. */
  restart(reason: string): void;
  /** Whether a worker thread runs now. */
  running(): boolean;
  /** Calls waiting for their answer. */
  pending(): number;
}

interface Pending {
  resolve: (m: WorkerAnswer) => void;
  reject: (e: Error) => void;
  onEvent?: (event: unknown) => void;
}

export function lazyWorker(url: URL, opts: { idleMs: number }): LazyWorker {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let idleTimer: NodeJS.Timeout | null = null;

  function fail(w: Worker, err: Error) {
    if (worker !== w) return;
    worker = null;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(err);
    }
  }

  function idle(w: Worker) {
    // An idle worker does not keep the process alive.
    w.unref();
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (worker === w && !pending.size) {
        worker = null;
        void w.terminate();
      }
    }, opts.idleMs);
    idleTimer.unref();
  }

  function start(): Worker {
    if (worker) return worker;
    // No copy of the server's flags (a loader, --inspect) nor its environment's secrets beyond what Node gives.
    const w = new Worker(url, { execArgv: [] });
    worker = w;
    w.on('message', (m: Partial<WorkerAnswer> & { event?: unknown }) => {
      if (typeof m?.id !== 'number') return;
      const p = pending.get(m.id);
      if (!p) return;
      if (typeof m.ok !== 'boolean') return p.onEvent?.(m.event);
      pending.delete(m.id);
      if (m.ok) p.resolve(m as WorkerAnswer);
      else p.reject(new Error(m.error ?? 'worker error'));
      if (!pending.size) idle(w);
    });
    w.on('error', (e) => fail(w, new WorkerFailed(e instanceof Error ? e.message : String(e))));
    w.on('exit', (code) => fail(w, new WorkerFailed(`the worker exited (${code})`)));
    return w;
  }

  return {
    call(message, { transfer, onEvent, signal } = {}) {
      const w = start();
      if (idleTimer) {
        clearTimeout(idleTimer);
        idleTimer = null;
      }
      w.ref();
      const id = nextId++;
      return new Promise<WorkerAnswer>((resolve, reject) => {
        const onAbort = () => w.postMessage({ cancel: id });
        const done = () => signal?.removeEventListener('abort', onAbort);
        pending.set(id, {
          resolve: (m) => (done(), resolve(m)),
          reject: (e) => (done(), reject(e)),
          onEvent,
        });
        w.postMessage({ ...message, id }, transfer);
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    warm() {
      const w = start();
      if (!pending.size) idle(w);
    },
    restart(reason) {
      const w = worker;
      if (!w) return;
      fail(w, new WorkerFailed(reason));
      void w.terminate();
    },
    running: () => worker !== null,
    pending: () => pending.size,
  };
}
