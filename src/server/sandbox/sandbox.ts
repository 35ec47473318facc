import { Worker } from 'node:worker_threads';
import { createSandboxScheduler, type QueuePosition, type SandboxCaller } from './scheduler';
import { askWorkerMemory, type SandboxThreadMemory } from './memory';

export type { QueuePosition, SandboxCaller } from './scheduler';

/**
 * The code sandbox: user JavaScript runs in QuickJS (WASM) and user Python in Pyodide (CPython in
 * WASM, python-worker.mjs) inside worker threads, never in the server's own JS context. Both
 * languages share the scheduler and the limits; a Python worker loads its interpreter on its first
 * job (never at server start; after the first, from its snapshot), serves one tenant only, and the last idle one is kept warm. A JavaScript run gets a fresh QuickJS runtime in its worker's warm module, or
 * the one kept for its code and tenant, checked unchanged after each run (see worker.mjs: the module is replaced after a run that failed hard); limits are enforced
 * twice: inside QuickJS (interrupt handler, stack limit, and a WASM memory whose maximum is the
 * run's memory limit) and from here, where a worker that overstays its time plus a grace period is
 * terminated. Jobs wait for a worker in the scheduler's queue (scheduler.ts: per-tenant and per-user
 * caps, a worker kept for other tenants, a wait limit); a job's time starts when a worker takes it.
 */

/** Error codes of a failed run (shown in the trace). */
export const SANDBOX_ERRORS = {
  TIMEOUT: 'SANDBOX-TIMEOUT',
  /** The job waited longer than the queue's limit for a free worker (it never ran). */
  QUEUE_TIMEOUT: 'SANDBOX-QUEUE-TIMEOUT',
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

/** The languages the sandbox runs. */
export const SANDBOX_LANGUAGES = ['javascript', 'python3'] as const;
export type SandboxLanguage = (typeof SANDBOX_LANGUAGES)[number];

export interface SandboxJob {
  language: string;
  /**
   * JavaScript: a script defining `function main(inputs) { return {...} }` (sync or async).
   * Python 3: a module defining `def main(arg1, ...) -> dict`, called with the inputs as keywords.
   */
  code: string;
  inputs: Record<string, unknown>;
  timeoutMs?: number;
  memoryMb?: number;
  /** Whose job it is, for the scheduler's caps (jobs without one share one anonymous caller). */
  caller?: SandboxCaller;
}

export interface SandboxRunOptions {
  signal?: AbortSignal;
  /** Called when the job has to wait for a worker, as its place changes, and with null once a worker takes it. */
  onQueue?: (position: QueuePosition | null) => void;
}

/**
 * What a run gives back: errors are values with codes, never thrown. `elapsedMs` counts from the
 * call, `queuedMs` is the part of it spent waiting for a worker.
 */
export type SandboxOutcome =
  | { ok: true; outputs: Record<string, unknown>; logs: SandboxLog[]; droppedLogs?: number; elapsedMs: number; queuedMs: number }
  | {
      ok: false;
      error: { code: SandboxErrorCode; message: string; line?: number };
      logs: SandboxLog[];
      droppedLogs?: number;
      elapsedMs: number;
      queuedMs: number;
    };

export interface CodeSandboxOptions {
  /** Runs at once; more wait in a queue (default 2). */
  maxWorkers?: number;
  /** Runs of one tenant at once (default: workers − 1, at least 1). */
  maxPerTenant?: number;
  /** Runs of one user at once (default: half the tenant's, rounded up). */
  maxPerUser?: number;
  /** Longest wait for a worker before the job fails with SANDBOX-QUEUE-TIMEOUT (default 30 s). */
  queueTimeoutMs?: number;
  /** Time limit when a job names none (default 10 s); jobs are clamped to `maxTimeoutMs` (60 s). */
  defaultTimeoutMs?: number;
  maxTimeoutMs?: number;
  /**
   * Memory limit (the run's whole WASM heap) when a job names none (default 128 MB); jobs are
   * clamped to `maxMemoryMb` (512) and to at least 16 MB (the QuickJS build's initial heap).
   */
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
  /**
   * Idle workers kept however long they wait, each with its QuickJS module ready (default 0): the
   * first code node after a quiet spell then skips starting a thread and compiling QuickJS (seconds
   * on a loaded machine). {@link CodeSandbox.warm} starts them.
   */
  keepWarm?: number;
}

/** A running code sandbox (one per server). */
export interface CodeSandbox {
  run(job: SandboxJob, opts?: SandboxRunOptions): Promise<SandboxOutcome>;
  /** Ends every worker; queued and running jobs finish as aborted. */
  close(): Promise<void>;
  /**
   * Starts the workers kept warm (`keepWarm`, at least one) and runs a trivial job in each, so
   * their QuickJS module is compiled and instantiated; true once they are ready. Never throws.
   */
  warm(): Promise<boolean>;
  /**
   * Counts the sandbox as ready without a warm-up: its first job starts the worker (a few hundred
   * ms of CPU then, instead of at the start). For the API tests' studios, most of which run no code.
   */
  readyCold(): void;
  /** True once {@link warm} has readied its workers, or since {@link readyCold}, until closed (the server's /readyz). */
  readonly warmed: boolean;
  /**
   * The workers now (Python ones included), the idle JavaScript ones' memory and the size of the
   * Python interpreter's snapshot kept for new Python workers (0 before any Python job), for the memory report.
   */
  memory(): Promise<{ workers: number; idle: SandboxThreadMemory[]; pythonSnapshotBytes: number }>;
  /** Jobs on a worker and jobs waiting for one, now. */
  readonly load: { running: number; waiting: number };
  /** The limits in force (the inspector shows the time cap). */
  readonly limits: { maxTimeoutMs: number; maxWorkers: number; maxPerTenant: number; maxPerUser: number; queueTimeoutMs: number };
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
  /** The caller's tenant: a context kept warm for a code serves that tenant's jobs only (worker.mjs). */
  tenant: string;
  /** The worker's module is warm for this memory ceiling: it sends no 'started' message (see execute). */
  quiet?: true;
}

/** `fatal`: the interpreter itself failed; `recycle`: the job tampered with the sandbox. Either way the worker is not used again. */
type WorkerOutcome =
  | { ok: true; json: string; logs: SandboxLog[]; droppedLogs?: number; recycle?: true }
  | {
      ok: false;
      error: { code: SandboxErrorCode; message: string; line?: number };
      logs: SandboxLog[];
      droppedLogs?: number;
      fatal?: true;
      recycle?: true;
    };

interface Slot {
  language: SandboxLanguage;
  worker: Worker;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
  /** Python: the tenant this worker serves (module state a job leaves is never seen by another tenant). */
  tenantId?: string;
  /** Python: the interpreter's interrupt buffer; 2 (SIGINT) makes the running code raise KeyboardInterrupt. */
  interrupt?: Int32Array;
  /** JavaScript: the memory ceiling of the QuickJS module the worker kept warm after its last job. */
  warmBytes?: number;
}

const WORKER_URLS: Record<SandboxLanguage, URL> = {
  javascript: new URL('./worker.mjs', import.meta.url),
  python3: new URL('./python-worker.mjs', import.meta.url),
};
/**
 * Bounds a worker that never gets going: QuickJS starts in milliseconds, Pyodide loads its
 * interpreter on a worker's first job (≈2 s alone, much more on a loaded machine).
 */
const STARTUP_ALLOWANCE_MS: Record<SandboxLanguage, number> = { javascript: 15_000, python3: 90_000 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
/** The QuickJS build's WASM memory starts at 16 MB: no ceiling can be lower. */
const MIN_MEMORY_MB = 16;
/** Pyodide's heap holds ≈30 MB after loading: a Python job gets at least this much in all. */
const MIN_PYTHON_MEMORY_MB = 64;
const isLanguage = (l: string): l is SandboxLanguage => (SANDBOX_LANGUAGES as readonly string[]).includes(l);
const ANONYMOUS: SandboxCaller = { tenantId: '', userId: '' };

/**
 * Starts a code sandbox.
 * @example
 * const sandbox = createCodeSandbox();
 * const out = await sandbox.run({ language: 'javascript', code: 'function main({a, b}) { return { sum: a + b } }', inputs: { a: 1, b: 2 } });
 * if (out.ok) out.outputs.sum; // 3
 */
export function createCodeSandbox(options: CodeSandboxOptions = {}): CodeSandbox {
  const maxWorkers = Math.max(1, options.maxWorkers ?? 2);
  const maxPerTenant = Math.max(1, options.maxPerTenant ?? maxWorkers - 1);
  const o = {
    maxWorkers,
    maxPerTenant,
    maxPerUser: Math.max(1, options.maxPerUser ?? Math.ceil(maxPerTenant / 2)),
    queueTimeoutMs: options.queueTimeoutMs ?? 30_000,
    defaultTimeoutMs: options.defaultTimeoutMs ?? 10_000,
    maxTimeoutMs: options.maxTimeoutMs ?? 60_000,
    defaultMemoryMb: options.defaultMemoryMb ?? 128,
    maxMemoryMb: options.maxMemoryMb ?? 512,
    stackKb: options.stackKb ?? 512,
    maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
    maxLogLines: options.maxLogLines ?? 200,
    maxLogChars: options.maxLogChars ?? 64 * 1024,
    killGraceMs: options.killGraceMs ?? 1000,
    idleMs: options.idleMs ?? 60_000,
    keepWarm: Math.max(0, Math.min(options.keepWarm ?? 0, maxWorkers)),
  };
  const slots = new Set<Slot>();
  const scheduler = createSandboxScheduler({ slots: o.maxWorkers, perTenant: o.maxPerTenant, perUser: o.maxPerUser, queueTimeoutMs: o.queueTimeoutMs });
  let nextId = 1;
  let closed = false;
  let warmed = false;
  /**
   * The Python interpreter's memory as the first Python worker loaded it, before any job, and its
   * compiled WebAssembly module (see python-worker.mjs): each later Python worker gets a copy of the
   * memory and the module and starts from them in a fraction of a full load. Kept with the sandbox;
   * the memory's untouched pages are never resident (≈15 of 30 MB are).
   */
  let pythonSnapshot: { memory: ArrayBuffer; module: WebAssembly.Module } | undefined;

  function spawn(language: SandboxLanguage, tenantId: string): Slot {
    const python = language === 'python3';
    const interrupt = python ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
    const worker = new Worker(WORKER_URLS[language], {
      // The WASM heap lies outside these; they bound the worker's own JS side and its native stack,
      // which deep QuickJS recursion uses (Pyodide's JS side is larger).
      resourceLimits: { maxOldGenerationSizeMb: python ? 256 : 128, stackSizeMb: 8 },
      ...(interrupt ? { workerData: { interrupt: interrupt.buffer } } : {}),
      // A worker gets no copy of the server's environment (secrets): Pyodide is given its own.
      env: {},
    });
    const slot: Slot = { language, worker, busy: false, ...(python ? { tenantId, interrupt } : {}) };
    if (python && pythonSnapshot) {
      const memory = pythonSnapshot.memory.slice(0);
      worker.postMessage({ snapshot: { memory, module: pythonSnapshot.module } }, [memory]);
    } else if (python) {
      // Only a worker's first message can bring a snapshot: it comes before its first job starts,
      // so no user code has run in the interpreter it copies.
      worker.once('message', (msg: { snapshot?: { memory?: unknown; module?: unknown } }) => {
        const { memory, module } = msg.snapshot ?? {};
        if (memory instanceof ArrayBuffer && module instanceof WebAssembly.Module && !pythonSnapshot && !closed) pythonSnapshot = { memory, module };
      });
    }
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
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      // Loading Python takes seconds: the last Python worker stays warm (its tenant keeps it).
      // JavaScript: the workers kept warm stay; one that ends (a failed job) is replaced by the next warm().
      if (slot.language === 'python3') {
        if ([...slots].some((s) => s !== slot && s.language === 'python3')) retire(slot);
        else slot.idleTimer = undefined;
      } else if ([...slots].filter((s) => !s.busy && s.language !== 'python3').length > o.keepWarm) retire(slot);
      else slot.idleTimer = undefined;
    }, o.idleMs);
    slot.idleTimer.unref();
  }

  /**
   * A worker for a job the scheduler admitted: an idle one of the job's language (Python: of its
   * tenant), else a new one. Leases never outnumber the workers allowed; idle workers that would
   * make more than that are ended, the other language's first (a Python worker costs seconds).
   */
  function acquire(language: SandboxLanguage, tenantId: string): Slot {
    const fits = (s: Slot) => !s.busy && s.language === language && (language !== 'python3' || s.tenantId === tenantId);
    const slot = [...slots].find(fits) ?? spawn(language, tenantId);
    const idle = [...slots].filter((s) => !s.busy && s !== slot).sort((a, b) => Number(a.language === language) - Number(b.language === language));
    while (slots.size > o.maxWorkers && idle.length) retire(idle.shift()!);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.busy = true;
    slot.worker.ref();
    return slot;
  }

  function execute(slot: Slot, job: WorkerJob, signal: AbortSignal | undefined): Promise<WorkerOutcome> {
    const id = nextId++;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: WorkerOutcome, healthy: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(killTimer);
        clearTimeout(interruptTimer);
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (healthy && !closed) release(slot);
        else retire(slot);
        resolve(outcome);
      };
      const fail = (code: SandboxErrorCode, message: string): WorkerOutcome => ({ ok: false, error: { code, message }, logs: [] });
      const onMessage = (msg: { id: number; started?: true; outcome?: WorkerOutcome; warmBytes?: number }) => {
        if (msg.id !== id) return;
        if (msg.started) {
          // The interpreter is ready and the job's clock runs from now: the backstop counts from here too.
          clearTimeout(killTimer);
          killTimer = setTimeout(onOverdue, job.timeoutMs + o.killGraceMs);
          // Python cannot watch its own clock: at the limit it is interrupted from here.
          if (slot.interrupt) interruptTimer = setTimeout(() => slot.interrupt && Atomics.store(slot.interrupt, 0, 2), job.timeoutMs);
          return;
        }
        if (!msg.outcome) return;
        // A worker whose module ran out of memory holds a large WASM heap until it is collected: end it.
        const out = msg.outcome;
        slot.warmBytes = msg.warmBytes;
        finish(out, !out.recycle && (out.ok || (out.error.code !== SANDBOX_ERRORS.MEMORY && !out.fatal)));
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
      // A JavaScript job on a module already warm for its ceiling starts within microseconds of
      // arriving: its clock is counted from here and the worker sends no 'started' message (one
      // wake-up of this thread less per run). Otherwise the worker may first build a module (or
      // Pyodide), and the backstop allows for that until 'started' says the job runs.
      if (slot.language === 'javascript' && slot.warmBytes === job.memoryBytes) job.quiet = true;
      let killTimer = setTimeout(onOverdue, (job.quiet ? 0 : STARTUP_ALLOWANCE_MS[slot.language]) + job.timeoutMs + o.killGraceMs);
      let interruptTimer: NodeJS.Timeout | undefined;
      slot.worker.on('message', onMessage);
      slot.worker.on('error', onError);
      slot.worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.worker.postMessage({ id, job });
    });
  }

  async function run(job: SandboxJob, opts: SandboxRunOptions = {}): Promise<SandboxOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let queuedMs = 0;
    const failed = (code: SandboxErrorCode, message: string, logs: SandboxLog[] = []): SandboxOutcome => ({
      ok: false,
      error: { code, message },
      logs,
      elapsedMs: elapsed(),
      queuedMs,
    });
    const language = job.language;
    if (!isLanguage(language)) return failed(SANDBOX_ERRORS.LANGUAGE, `The sandbox runs JavaScript and Python 3, not ${language}`);
    let inputsJson: string;
    try {
      inputsJson = JSON.stringify(job.inputs ?? {});
    } catch (e) {
      return failed(SANDBOX_ERRORS.ERROR, `The inputs cannot be passed as JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (closed || opts.signal?.aborted) return failed(SANDBOX_ERRORS.ABORTED, 'The run was stopped');

    const admission = await scheduler.admit(job.caller ?? ANONYMOUS, opts);
    queuedMs = admission.waitedMs;
    if (!admission.ok) {
      if (admission.reason !== 'timeout') return failed(SANDBOX_ERRORS.ABORTED, 'The run was stopped');
      return failed(SANDBOX_ERRORS.QUEUE_TIMEOUT, `No sandbox was free within ${o.queueTimeoutMs} ms: the code did not run`);
    }
    const asked = Math.round(job.timeoutMs ?? o.defaultTimeoutMs);
    const timeoutMs = clamp(asked, 1, o.maxTimeoutMs);
    const floor = language === 'python3' ? MIN_PYTHON_MEMORY_MB : MIN_MEMORY_MB;
    const memoryMb = clamp(job.memoryMb ?? o.defaultMemoryMb, floor, Math.max(floor, o.maxMemoryMb));
    let outcome: WorkerOutcome;
    try {
      if (closed) return failed(SANDBOX_ERRORS.ABORTED, 'The run was stopped');
      outcome = await execute(
        acquire(language, (job.caller ?? ANONYMOUS).tenantId),
        {
          code: job.code,
          inputsJson,
          timeoutMs,
          memoryBytes: Math.round(memoryMb * 1024 * 1024),
          stackBytes: o.stackKb * 1024,
          maxOutputChars: o.maxOutputBytes,
          maxLogLines: o.maxLogLines,
          maxLogChars: o.maxLogChars,
          tenant: (job.caller ?? ANONYMOUS).tenantId,
        },
        opts.signal,
      );
    } finally {
      admission.release();
    }
    const extra = outcome.droppedLogs ? { droppedLogs: outcome.droppedLogs } : {};
    if (!outcome.ok) {
      const error = { ...outcome.error };
      // Say which limit stopped it, and that the server's cap was below what the node asked for.
      if (error.code === SANDBOX_ERRORS.TIMEOUT) {
        error.message = `The code ran past its time limit of ${timeoutMs} ms${asked > timeoutMs ? ` (the server's maximum; the node asked for ${asked} ms)` : ''}`;
      }
      return { ok: false, error, logs: outcome.logs, ...extra, elapsedMs: elapsed(), queuedMs };
    }
    // The sandbox bounds the length in characters; the limit is in UTF-8 bytes.
    const bytes = Buffer.byteLength(outcome.json);
    if (bytes > o.maxOutputBytes) return failed(SANDBOX_ERRORS.OUTPUT, `The output is ${bytes} bytes as JSON, more than the limit of ${o.maxOutputBytes}`, outcome.logs);
    const outputs: unknown = JSON.parse(outcome.json);
    if (outputs === null || typeof outputs !== 'object' || Array.isArray(outputs)) return failed(SANDBOX_ERRORS.OUTPUT, 'main must return an object', outcome.logs);
    return { ok: true, outputs: outputs as Record<string, unknown>, logs: outcome.logs, ...extra, elapsedMs: elapsed(), queuedMs };
  }

  /** The job a warm-up runs: it makes the worker compile and instantiate its QuickJS module. */
  const WARM_JOB: SandboxJob = { language: 'javascript', code: 'function main() { return {} }', inputs: {} };

  async function warm(): Promise<boolean> {
    // Jobs at once, each on a worker of its own as far as the scheduler's caps allow.
    const outcomes = await Promise.all(Array.from({ length: Math.max(1, o.keepWarm) }, () => run(WARM_JOB)));
    warmed = !closed && outcomes.every((r) => r.ok);
    return warmed;
  }

  function readyCold() {
    warmed = !closed;
  }

  async function close() {
    closed = true;
    warmed = false;
    pythonSnapshot = undefined;
    scheduler.close();
    await Promise.all([...slots].map((s) => s.worker.terminate()));
    slots.clear();
  }

  async function memory() {
    const idle = [...slots].filter((s) => !s.busy && s.language === 'javascript');
    const answers = await Promise.all(idle.map((s) => askWorkerMemory(s.worker, nextId++)));
    return { workers: slots.size, idle: answers.filter((m): m is SandboxThreadMemory => m !== null), pythonSnapshotBytes: pythonSnapshot?.memory.byteLength ?? 0 };
  }

  const limits = { maxTimeoutMs: o.maxTimeoutMs, maxWorkers: o.maxWorkers, maxPerTenant: o.maxPerTenant, maxPerUser: o.maxPerUser, queueTimeoutMs: o.queueTimeoutMs };
  return {
    run,
    close,
    warm,
    readyCold,
    memory,
    get warmed() {
      return warmed;
    },
    limits,
    get load() {
      return { running: scheduler.running, waiting: scheduler.waiting };
    },
  };
}
