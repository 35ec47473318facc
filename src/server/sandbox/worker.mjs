// The code sandbox's worker thread. Plain JavaScript on purpose: a worker starts from a file Node
// runs as it is, and registering a TypeScript loader in each worker costs about a second (the
// typed side of the protocol lives in sandbox.ts, which is the only module that starts this file).
//
// Each worker keeps one warm QuickJS WASM module and gives every job a fresh runtime and context
// in it: runtimes share no JS state (globals, prototypes, atoms, the symbol registry are each
// runtime's own), and starting one takes a fraction of a millisecond where a module took ~16 ms.
// A context that ran a code successfully is kept for the next job of the same code and tenant
// (issue 22: a warm context per code node; see `kept` below). After a job that failed hard (out of
// memory, interrupted, a trap in the module) the module's
// state cannot be trusted (disposing a runtime after an out-of-memory error can abort it), so it is
// dropped without disposing anything and the next job gets a new one, instantiated from the
// compiled WebAssembly kept for that. The sandbox has no host objects: only the ECMAScript
// built-ins, a `console` whose calls come back as log lines, and the inputs as JSON.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { SETUP, WATCH } from './worker-setup.mjs';

const FILE_NAME = 'main.js';
const MAX_MESSAGE = 2000;
const PAGE = 64 * 1024;
/** The build's memory starts at 16 MB (its import's minimum): a smaller ceiling cannot link. */
const MIN_PAGES = 256;

/**
 * A QuickJS module whose whole WASM heap is at most `bytes`. QuickJS's own limit
 * (`setMemoryLimit`) does not hold in this build: under Emscripten `js_def_malloc_usable_size`
 * returns 0, so each allocation is charged 8 bytes whatever its size and only a single request
 * larger than the limit is refused (16 × 100 MB ArrayBuffers passed a 128 MB limit). A memory with
 * a maximum makes Emscripten's heap growth fail at the ceiling: malloc returns NULL and QuickJS
 * throws its out-of-memory error, however the bytes were asked for.
 */
async function newModule(bytes) {
  const pages = Math.max(MIN_PAGES, Math.ceil(bytes / PAGE));
  const wasmMemory = new WebAssembly.Memory({ initial: MIN_PAGES, maximum: pages });
  return { memory: wasmMemory, mod: await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory, wasmModule: await compiledWasm() })) };
}

/** The variant's WebAssembly, compiled once per worker (found the way quickjs-emscripten finds it). */
let compiled;
function compiledWasm() {
  if (!compiled) {
    const fromQuickjs = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
    compiled = WebAssembly.compile(fs.readFileSync(fromQuickjs.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
  }
  return compiled;
}

/** A module whose heap grew past this is dropped after its job, so its memory can go back. */
const KEEP_BYTES = 32 * 1024 * 1024;
/** The worker's warm module, its WASM memory, the ceiling it was made with, and `fresh` until a job has used it. */
let warm;

async function moduleFor(bytes) {
  if (warm?.bytes !== bytes) {
    // The kept contexts live in the module being replaced.
    kept.clear();
    warm = { bytes, fresh: true, ...(await newModule(bytes)) };
  }
  return warm.mod;
}


function lineOf(error) {
  if (typeof error?.lineNumber === 'number') return error.lineNumber;
  const m = /main\.js:(\d+)/.exec(String(error?.stack ?? ''));
  return m ? Number(m[1]) : undefined;
}

/** Maps a QuickJS error (dumped to a plain value) to the sandbox's error codes. */
function failure(error) {
  // When even the "out of memory" error cannot be allocated, QuickJS throws null. A script that
  // throws null itself is reported the same way: it gives nothing better to show.
  if (error === null) return { code: 'SANDBOX-MEMORY', message: 'The code ran out of memory' };
  const name = typeof error?.name === 'string' ? error.name : 'Error';
  const full = typeof error?.message === 'string' ? error.message : String(error);
  // The message goes into the trace: a script can throw a huge one.
  const message = full.length > MAX_MESSAGE ? `${full.slice(0, MAX_MESSAGE)}…` : full;
  if (name === 'InternalError' && message === 'interrupted') return { code: 'SANDBOX-TIMEOUT', message: 'The code ran past its time limit' };
  if (name === 'InternalError' && message === 'out of memory') return { code: 'SANDBOX-MEMORY', message: 'The code ran out of memory' };
  const line = lineOf(error);
  return { code: 'SANDBOX-ERROR', message: `${name}: ${message}`, ...(line !== undefined ? { line } : {}) };
}

/** Codes after which the module is not used again (see the top of the file). */
const HARD_FAILURES = new Set(['SANDBOX-TIMEOUT', 'SANDBOX-MEMORY']);

/**
 * A fresh runtime and context, `console` and the helpers set up, nothing of a user's code in it yet.
 * The per-job values it reads (the deadline, the log sink's lines and limits) live in `state`, set
 * when a job takes it. Throws when the module cannot make one (a broken module).
 */
function freshContext(mod, bytes, stackBytes, maxLogChars) {
  const rt = mod.newRuntime();
  const state = { deadline: Infinity, logs: [], logChars: 0, dropped: 0, maxLogLines: 0, maxLogChars };
  rt.setMemoryLimit(bytes);
  rt.setMaxStackSize(stackBytes);
  rt.setInterruptHandler(() => Date.now() > state.deadline);
  const ctx = rt.newContext();
  const sink = ctx.newFunction('sink', (levelH, textH) => {
    const text = ctx.getString(textH);
    if (state.logs.length >= state.maxLogLines || state.logChars + text.length > state.maxLogChars) {
      state.dropped++;
      return;
    }
    state.logChars += text.length;
    state.logs.push({ level: ctx.getString(levelH), text });
  });
  const setup = ctx.unwrapResult(ctx.evalCode(SETUP, 'setup.js'));
  const logLimit = ctx.newNumber(maxLogChars);
  const helpers = ctx.unwrapResult(ctx.callFunction(setup, ctx.undefined, sink, logLimit));
  const call = ctx.getProp(helpers, 0);
  const serialize = ctx.getProp(helpers, 1);
  for (const h of [helpers, logLimit, setup, sink]) h.dispose();
  // `factory`: the user's code compiled as a function (set by its first job, see load); `unchanged`:
  // the check after each run of a context meant to be kept (see watch).
  return { mod, bytes, stackBytes, maxLogChars, rt, ctx, state, call, serialize, factory: undefined, unchanged: undefined };
}

/**
 * The context made ahead for the next job (issue 22): made after a job's answer has gone out, so
 * the next job skips making a runtime, a context and `console` (most of a short job's time in
 * the worker). Each is used by one job only, then disposed: runs still share nothing.
 */
let spare;

function takeSpare(mod, job) {
  const s = spare;
  spare = undefined;
  if (s && s.mod === mod && s.bytes === job.memoryBytes && s.stackBytes === job.stackBytes && s.maxLogChars === job.maxLogChars) return s;
  if (s) release(s, true);
  return undefined;
}

/**
 * Contexts kept warm for the next job of the same code (issue 22), by tenant, code and limits: never
 * shared across tenants; at most KEEP_CONTEXTS per worker (least recently used dropped), all of the
 * warm module (they count against its memory ceiling). A context is kept only after a job that
 * succeeded and left the watched built-ins and the global object as it found them (WATCH in
 * ./worker-setup.mjs); each job calls the compiled code anew, so its top-level bindings are its own.
 */
const kept = new Map();
const KEEP_CONTEXTS = 8;
/**
 * Codes run lately in a context not kept (as many as contexts are kept: codes cycling through more
 * than that would only evict each other): a context is kept from a code's second run on (code that
 * runs once pays nothing for WATCH); a code whose kept context came back changed is not kept again.
 */
const seen = new Set();
const changed = new Set();
const SEEN = KEEP_CONTEXTS;

function remember(set, key) {
  set.delete(key);
  set.add(key);
  if (set.size > SEEN) set.delete(set.values().next().value);
}

/** Whether this run's context is to be kept: the code ran lately and did not change its context. */
function worthKeeping(key) {
  const again = seen.has(key);
  remember(seen, key);
  return again && !changed.has(key);
}
const keyOf = (job) => `${job.tenant ?? ''}\0${job.memoryBytes}\0${job.stackBytes}\0${job.maxLogChars}\0${job.code}`;

function takeKept(mod, key) {
  const k = kept.get(key);
  if (!k) return undefined;
  kept.delete(key);
  if (k.mod === mod) return k;
  // Its module was replaced (a failure, another ceiling): forget it (never disposed, see the top).
  return undefined;
}

function keep(key, fresh) {
  kept.set(key, fresh);
  while (kept.size > KEEP_CONTEXTS) {
    const [oldest, ctx] = kept.entries().next().value;
    kept.delete(oldest);
    if (!release(ctx, true) && warm?.mod === ctx.mod) warm = undefined;
  }
}

/** Disposes a context (and its runtime); false when that failed (the module is then not trusted). */
function release(fresh, reusable) {
  if (!reusable) return false;
  try {
    fresh.factory?.dispose();
    fresh.unchanged?.dispose();
    fresh.call.dispose();
    fresh.serialize.dispose();
    fresh.ctx.dispose();
    fresh.rt.dispose();
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a job. Answers its outcome and what to do once the answer has gone out (`after`: dispose
 * its context, drop the module if it cannot be trusted, make the next job's context).
 */
async function run(job, onStarted) {
  let mod = await moduleFor(job.memoryBytes);
  // A module made for this job (a new ceiling, or a failed one replaced): the host hears when it starts.
  let built = warm?.fresh === true;
  const key = keyOf(job);
  const reused = takeKept(mod, key);
  let fresh = reused ?? takeSpare(mod, job);
  if (!fresh) {
    try {
      fresh = freshContext(mod, job.memoryBytes, job.stackBytes, job.maxLogChars);
    } catch {
      // The warm module is broken: start again with a new one.
      warm = undefined;
      mod = await moduleFor(job.memoryBytes);
      built = true;
      fresh = freshContext(mod, job.memoryBytes, job.stackBytes, job.maxLogChars);
    }
  }
  if (warm) warm.fresh = false;
  // The code's second run: this context is meant to be kept, so its built-ins are recorded first.
  if (!reused && worthKeeping(key)) watch(fresh);
  const { state } = fresh;
  // A kept context's sink starts empty again.
  state.logs = [];
  state.logChars = 0;
  state.dropped = 0;
  state.maxLogLines = job.maxLogLines;
  state.deadline = Date.now() + job.timeoutMs;
  onStarted(built);
  const trap = { hit: false };
  const outcome = evaluate(job, fresh, trap);
  const reusable = !trap.hit && (outcome.ok || !HARD_FAILURES.has(outcome.error.code));
  // Whether the module stays is known now, except a dispose that fails (then the next job builds one and says so).
  const keepModule = reusable && mod.getWasmMemory().buffer.byteLength <= KEEP_BYTES;
  if (!keepModule && warm?.mod === mod) {
    warm = undefined;
    kept.clear();
  }
  const after = () => {
    const same = outcome.ok && fresh.unchanged && warm?.mod === mod ? isUnchanged(fresh) : false;
    // A failed run drops its context (as always) but does not stop the code's next ones being kept.
    if (outcome.ok && fresh.unchanged && same !== true) remember(changed, key);
    if (same) {
      keep(key, fresh);
      // A kept context served this job: the spare is still there for another code.
      if (reused) return;
    } else if (!release(fresh, reusable && same !== null) && warm?.mod === mod) {
      // Dropped, not disposed, after a hard failure: nothing more runs in it, and the worker lets it go.
      warm = undefined;
      kept.clear();
    }
    if (warm?.mod === mod && !spare) {
      try {
        spare = freshContext(mod, job.memoryBytes, job.stackBytes, job.maxLogChars);
      } catch {
        warm = undefined;
      }
    }
  };
  return { outcome, after };
}

/** Records the built-ins a kept context is checked against (WATCH in ./worker-setup.mjs); none if that failed. */
function watch(fresh) {
  try {
    const res = fresh.ctx.evalCode(WATCH, 'watch.js');
    if (res.error) res.error.dispose();
    else fresh.unchanged = res.value;
  } catch {
    // Not kept, then.
  }
}

/**
 * Whether the job left the context as it found it (`unchanged` in ./worker-setup.mjs). null when the
 * check itself failed: it reads data properties only, but a run could have turned one into a getter
 * that loops or eats the memory, so the module is then not trusted (see the top of the file).
 */
function isUnchanged(fresh) {
  const { ctx, state } = fresh;
  try {
    state.deadline = Date.now() + 100;
    const res = ctx.callFunction(fresh.unchanged, ctx.undefined);
    if (res.error) {
      res.error.dispose();
      return null;
    }
    const same = ctx.dump(res.value) === true;
    res.value.dispose();
    return same;
  } catch {
    return null;
  }
}

/**
 * Compiles the user's code once per context, as the body of a function that returns its `main`:
 * each job calls it, so the code's top-level bindings are made anew for every run. It is first
 * compiled alone as a script (not run): a syntax error reads as before, and code that would close
 * the function early cannot parse alone. The prefix keeps the code's line numbers.
 */
function load(job, ctx) {
  const alone = ctx.evalCode(job.code, FILE_NAME, { type: 'global', compileOnly: true });
  if (alone.error) return alone;
  alone.value.dispose();
  return ctx.evalCode(`(function () {${job.code}\nreturn typeof main === 'undefined' ? undefined : main;\n})`, FILE_NAME, { type: 'global' });
}

/** Runs the job in its fresh context; never disposes it (run decides). `trap.hit`: the module trapped. */
function evaluate(job, fresh, trap) {
  const { rt, ctx, state } = fresh;
  const done = (outcome) => ({ ...outcome, logs: state.logs, ...(state.dropped ? { droppedLogs: state.dropped } : {}) });
  const take = (res) => {
    if (!res.error) return { value: res.value };
    const dumped = ctx.dump(res.error);
    res.error.dispose();
    return { error: failure(dumped) };
  };
  try {
    if (!fresh.factory) {
      const loaded = take(load(job, ctx));
      if (loaded.error) return done({ ok: false, error: loaded.error });
      fresh.factory = loaded.value;
    }

    const inputs = ctx.newString(job.inputsJson);
    const called = take(ctx.callFunction(fresh.call, ctx.undefined, fresh.factory, inputs));
    inputs.dispose();
    if (called.error) return done({ ok: false, error: called.error });

    // Settle an async main: run the queued jobs to the end (no timers exist, so nothing can wait on the host).
    const jobs = rt.executePendingJobs(-1);
    if (jobs.error) {
      called.value.dispose();
      return done({ ok: false, error: take({ error: jobs.error }).error });
    }
    let result = called.value;
    const promise = ctx.getPromiseState(result);
    if (!(promise.type === 'fulfilled' && promise.notAPromise)) {
      result.dispose();
      if (promise.type === 'pending') return done({ ok: false, error: { code: 'SANDBOX-ERROR', message: 'main returned a promise that never settled' } });
      if (promise.type === 'rejected') return done({ ok: false, error: take({ error: promise.error }).error });
      result = promise.value;
    }

    const limit = ctx.newNumber(job.maxOutputChars);
    const serialized = take(ctx.callFunction(fresh.serialize, ctx.undefined, result, limit));
    limit.dispose();
    result.dispose();
    if (serialized.error) return done({ ok: false, error: serialized.error });
    const shape = ctx.dump(serialized.value);
    serialized.value.dispose();
    if (shape.kind === 'ok') return done({ ok: true, json: shape.json });
    if (shape.kind === 'too-large') return done({ ok: false, error: { code: 'SANDBOX-OUTPUT', message: `The output is larger than ${job.maxOutputChars} bytes as JSON` } });
    return done({ ok: false, error: { code: 'SANDBOX-OUTPUT', message: `main must return an object, not ${shape.type}` } });
  } catch (e) {
    // A trap inside the WASM module (the host stack overflowing under deep recursion, an abort):
    // the module is unusable, so it is dropped without disposing.
    trap.hit = true;
    const message = e instanceof Error ? e.message : String(e);
    if (/call stack/i.test(message)) return done({ ok: false, error: { code: 'SANDBOX-ERROR', message: 'RangeError: Maximum call stack size exceeded' } });
    if (/memory/i.test(message)) return done({ ok: false, error: { code: 'SANDBOX-MEMORY', message: 'The code ran out of memory' } });
    return done({ ok: false, error: { code: 'SANDBOX-ERROR', message } });
  }
}

parentPort.on('message', (msg) => {
  // The memory report (kill -USR2, bench:start): this isolate's heap, the warm module's WASM memory,
  // and whether the next job's context is made.
  if (msg.memory) {
    parentPort.postMessage({ id: msg.id, memory: { heapBytes: v8.getHeapStatistics().total_heap_size, wasmBytes: warm?.memory.buffer.byteLength ?? 0, spare: spare !== undefined, contexts: kept.size } });
    return;
  }
  // A job on a warm module starts at once: the host starts its clock when it posts (`quiet`), and a
  // 'started' message would only wake the server's thread once more per run; a quiet job that had
  // to build a module after all (the kept one failed to dispose) still says when it starts.
  // `warmBytes` tells the host which ceiling the module kept for the next job is made with. The
  // answer goes out first; then the job's context is disposed and the next one made.
  run(msg.job, (built) => (msg.job.quiet && !built) || parentPort.postMessage({ id: msg.id, started: true })).then(
    ({ outcome, after }) => {
      parentPort.postMessage({ id: msg.id, outcome, warmBytes: warm?.bytes });
      after();
    },
    (e) => parentPort.postMessage({ id: msg.id, outcome: { ok: false, logs: [], error: { code: 'SANDBOX-ERROR', message: e instanceof Error ? e.message : String(e) } } }),
  );
});
