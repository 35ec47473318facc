import { Worker } from 'node:worker_threads';
import { NodeExecutionError, type SandboxService } from '../../plugin-sdk/executor';

/**
 * The code sandbox: user JavaScript runs in QuickJS (WASM) inside worker threads, never in the
 * server's own JS context. Each run gets a fresh QuickJS module (see worker.mjs); limits are enforced
 * twice: inside QuickJS (interrupt handler, memory and stack limits) and from here, where a worker
 * that overstays its time plus a grace period is terminated.
 */

/** Error codes of a failed run (shown in the trace). */
export const SANDBOX_ERRORS = {
  TIMEOUT: 'SANDBOX-TIMEOUT',
  MEMORY: 'SANDBOX-MEMORY',
  /** The user's code threw or failed to parse (message and line are the user's). */
  ERROR: 'SANDBOX-ERROR',
  /** `main` returned something other than a plain object, or too much of it. */
  OUTPUT: 'SANDBOX-OUTPUT',
  LANGUAGE: 'SANDBOX-LANGUAGE',
  ABORTED: 'SANDBOX-ABORTED',
} as const;
export type SandboxErrorCode = (typeof SANDBOX_ERRORS)[keyof typeof SANDBOX_ERRORS];

export interface SandboxLog {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

export interface SandboxJob {
  language: string;
  /** A script defining `function main(inputs) { return {...} }` (sync or async). */
  code: string;
  inputs: Record<string, unknown>;
  timeoutMs?: number;
  memoryMb?: number;
}

/** What a run gives back: errors are values with codes, never thrown. */
export type SandboxOutcome =
  | { ok: true; outputs: Record<string, unknown>; logs: SandboxLog[]; droppedLogs?: number; elapsedMs: number }
  | {
      ok: false;
      error: { code: SandboxErrorCode; message: string; line?: number };
      logs: SandboxLog[];
      droppedLogs?: number;
      elapsedMs: number;
    };

export interface CodeSandboxOptions {
  /** Runs at once; more wait in a queue (default 2). */
  maxWorkers?: number;
  /** Time limit when a job names none (default 10 s); jobs are clamped to `maxTimeoutMs` (300 s). */
  defaultTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** Memory limit when a job names none (default 128 MB); jobs are clamped to `maxMemoryMb` (512). */
  defaultMemoryMb?: number;
  maxMemoryMb?: number;
  /** QuickJS stack limit (default 512 KB: deep enough for ordinary recursion). */
  stackKb?: number;
  /** Largest output, as JSON (default 1 MB). */
  maxOutputBytes?: number;
  /** Console lines kept (default 200) and their total length (default 64 KB); the rest are counted. */
  maxLogLines?: number;
  maxLogChars?: number;
  /** Time after the limit before the worker is terminated if QuickJS did not stop itself (default 1 s). */
  killGraceMs?: number;
  /** An idle worker is ended after this long (default 60 s). */
  idleMs?: number;
}

/** A running code sandbox (one per server). */
export interface CodeSandbox {
  run(job: SandboxJob, opts?: { signal?: AbortSignal }): Promise<SandboxOutcome>;
  /** Ends every worker; queued and running jobs finish as aborted. */
  close(): Promise<void>;
}

interface WorkerJob {
  code: string;
  inputsJson: string;
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
  maxOutputChars: number;
  maxLogLines: number;
  maxLogChars: number;
}

type WorkerOutcome =
  | { ok: true; json: string; logs: SandboxLog[]; droppedLogs?: number }
  | { ok: false; error: { code: SandboxErrorCode; message: string; line?: number }; logs: SandboxLog[]; droppedLogs?: number };

interface Slot {
  worker: Worker;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
}

interface Waiter {
  start(slot: Slot): void;
  cancel(): void;
}

const WORKER_URL = new URL('./worker.mjs', import.meta.url);
/** Starting a worker and its QuickJS module takes milliseconds; this only bounds one that never gets going. */
const STARTUP_ALLOWANCE_MS = 15_000;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Starts a code sandbox.
 * @example
 * const sandbox = createCodeSandbox();
 * const out = await sandbox.run({ language: 'javascript', code: 'function main({a, b}) { return { sum: a + b } }', inputs: { a: 1, b: 2 } });
 * if (out.ok) out.outputs.sum; // 3
 */
export function createCodeSandbox(options: CodeSandboxOptions = {}): CodeSandbox {
  const o = {
    maxWorkers: options.maxWorkers ?? 2,
    defaultTimeoutMs: options.defaultTimeoutMs ?? 10_000,
    maxTimeoutMs: options.maxTimeoutMs ?? 300_000,
    defaultMemoryMb: options.defaultMemoryMb ?? 128,
    maxMemoryMb: options.maxMemoryMb ?? 512,
    stackKb: options.stackKb ?? 512,
    maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
    maxLogLines: options.maxLogLines ?? 200,
    maxLogChars: options.maxLogChars ?? 64 * 1024,
    killGraceMs: options.killGraceMs ?? 1000,
    idleMs: options.idleMs ?? 60_000,
  };
  const slots = new Set<Slot>();
  const queue: Waiter[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Slot {
    const worker = new Worker(WORKER_URL, {
      // The WASM heap lies outside these; they bound the worker's own JS side and its native stack,
      // which deep QuickJS recursion uses.
      resourceLimits: { maxOldGenerationSizeMb: 128, stackSizeMb: 8 },
    });
    const slot: Slot = { worker, busy: false };
    worker.on('exit', () => slots.delete(slot));
    // Errors reach the job listening; this keeps an idle worker's failure from crashing the server.
    worker.on('error', () => slots.delete(slot));
    slots.add(slot);
    return slot;
  }

  function retire(slot: Slot) {
    slots.delete(slot);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    void slot.worker.terminate();
  }

  function release(slot: Slot) {
    slot.busy = false;
    const next = queue.shift();
    if (next) return next.start(slot);
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => retire(slot), o.idleMs);
    slot.idleTimer.unref();
  }

  function acquire(signal: AbortSignal | undefined): Promise<Slot | undefined> {
    const idle = [...slots].find((s) => !s.busy);
    const take = (slot: Slot) => {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
      slot.busy = true;
      slot.worker.ref();
      return slot;
    };
    if (idle) return Promise.resolve(take(idle));
    if (slots.size < o.maxWorkers) return Promise.resolve(take(spawn()));
    return new Promise((resolve) => {
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        resolve(undefined);
      };
      const waiter: Waiter = {
        start: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(take(slot));
        },
        cancel: onAbort,
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function execute(slot: Slot, job: WorkerJob, signal: AbortSignal | undefined): Promise<WorkerOutcome> {
    const id = nextId++;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: WorkerOutcome, healthy: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(killTimer);
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (healthy && !closed) release(slot);
        else retire(slot);
        resolve(outcome);
      };
      const fail = (code: SandboxErrorCode, message: string): WorkerOutcome => ({ ok: false, error: { code, message }, logs: [] });
      const onMessage = (msg: { id: number; started?: true; outcome?: WorkerOutcome }) => {
        if (msg.id !== id) return;
        if (msg.started) {
          // QuickJS is ready and its own clock runs from now: the backstop counts from here too.
          clearTimeout(killTimer);
          killTimer = setTimeout(onOverdue, job.timeoutMs + o.killGraceMs);
          return;
        }
        if (!msg.outcome) return;
        // A worker whose module ran out of memory holds a large WASM heap until it is collected: end it.
        finish(msg.outcome, msg.outcome.ok || msg.outcome.error.code !== SANDBOX_ERRORS.MEMORY);
      };
      const onError = (e: Error & { code?: string }) =>
        finish(
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? fail(SANDBOX_ERRORS.MEMORY, 'The code ran out of memory')
            : fail(SANDBOX_ERRORS.ERROR, `The sandbox stopped: ${e.message}`),
          false,
        );
      const onExit = () => finish(fail(SANDBOX_ERRORS.ERROR, 'The sandbox stopped unexpectedly'), false);
      const onAbort = () => finish(fail(SANDBOX_ERRORS.ABORTED, 'The run was stopped'), false);
      // The backstop: QuickJS interrupts itself at the limit; a worker still busy after the grace
      // period (stuck outside the interpreter) is terminated.
      const onOverdue = () => finish(fail(SANDBOX_ERRORS.TIMEOUT, `The code ran past its time limit of ${job.timeoutMs} ms`), false);
      let killTimer = setTimeout(onOverdue, STARTUP_ALLOWANCE_MS + job.timeoutMs + o.killGraceMs);
      slot.worker.on('message', onMessage);
      slot.worker.on('error', onError);
      slot.worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.worker.postMessage({ id, job });
    });
  }

  async function run(job: SandboxJob, opts: { signal?: AbortSignal } = {}): Promise<SandboxOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (code: SandboxErrorCode, message: string, logs: SandboxLog[] = []): SandboxOutcome => ({
      ok: false,
      error: { code, message },
      logs,
      elapsedMs: elapsed(),
    });
    if (job.language !== 'javascript') return failed(SANDBOX_ERRORS.LANGUAGE, `The sandbox runs JavaScript, not ${job.language}`);
    let inputsJson: string;
    try {
      inputsJson = JSON.stringify(job.inputs ?? {});
    } catch (e) {
      return failed(SANDBOX_ERRORS.ERROR, `The inputs cannot be passed as JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (closed || opts.signal?.aborted) return failed(SANDBOX_ERRORS.ABORTED, 'The run was stopped');

    const slot = await acquire(opts.signal);
    if (!slot || closed) return failed(SANDBOX_ERRORS.ABORTED, 'The run was stopped');
    const timeoutMs = clamp(Math.round(job.timeoutMs ?? o.defaultTimeoutMs), 1, o.maxTimeoutMs);
    const memoryMb = clamp(job.memoryMb ?? o.defaultMemoryMb, 1, o.maxMemoryMb);
    const outcome = await execute(
      slot,
      {
        code: job.code,
        inputsJson,
        timeoutMs,
        memoryBytes: Math.round(memoryMb * 1024 * 1024),
        stackBytes: o.stackKb * 1024,
        maxOutputChars: o.maxOutputBytes,
        maxLogLines: o.maxLogLines,
        maxLogChars: o.maxLogChars,
      },
      opts.signal,
    );
    const extra = outcome.droppedLogs ? { droppedLogs: outcome.droppedLogs } : {};
    if (!outcome.ok) return { ok: false, error: outcome.error, logs: outcome.logs, ...extra, elapsedMs: elapsed() };
    // The sandbox bounds the length in characters; the limit is in UTF-8 bytes.
    const bytes = Buffer.byteLength(outcome.json);
    if (bytes > o.maxOutputBytes) return failed(SANDBOX_ERRORS.OUTPUT, `The output is ${bytes} bytes as JSON, more than the limit of ${o.maxOutputBytes}`, outcome.logs);
    const outputs: unknown = JSON.parse(outcome.json);
    if (outputs === null || typeof outputs !== 'object' || Array.isArray(outputs)) return failed(SANDBOX_ERRORS.OUTPUT, 'main must return an object', outcome.logs);
    return { ok: true, outputs: outputs as Record<string, unknown>, logs: outcome.logs, ...extra, elapsedMs: elapsed() };
  }

  async function close() {
    closed = true;
    for (const w of queue.splice(0)) w.cancel();
    await Promise.all([...slots].map((s) => s.worker.terminate()));
    slots.clear();
  }

  return { run, close };
}

/**
 * The executors' view of the sandbox (`services.sandbox`): outputs on success, a
 * {@link NodeExecutionError} with the sandbox's code otherwise (detail: line and console logs).
 */
export function createSandboxService(sandbox: CodeSandbox): SandboxService {
  return {
    async run(job, { signal }) {
      const outcome = await sandbox.run(job, { signal });
      if (outcome.ok) return outcome.outputs;
      const { code, message, line } = outcome.error;
      throw new NodeExecutionError(code, line !== undefined ? `${message} (line ${line})` : message, {
        ...(line !== undefined ? { line } : {}),
        logs: outcome.logs,
      });
    },
  };
}
