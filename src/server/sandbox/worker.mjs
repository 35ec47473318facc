// The code sandbox's worker thread. Plain JavaScript on purpose: a worker starts from a file Node
// runs as it is, and registering a TypeScript loader in each worker costs about a second (the
// typed side of the protocol lives in sandbox.ts, which is the only module that starts this file).
//
// Each worker keeps one warm QuickJS WASM module and gives every job a fresh runtime and context
// in it: runtimes share no JS state (globals, prototypes, atoms, the symbol registry are each
// runtime's own), and starting one takes a fraction of a millisecond where a module took ~16 ms.
// After a job that failed hard (out of memory, interrupted, a trap in the module) the module's
// state cannot be trusted (disposing a runtime after an out-of-memory error can abort it), so it is
// dropped without disposing anything and the next job gets a new one, instantiated from the
// compiled WebAssembly kept for that. The sandbox has no host objects: only the ECMAScript
// built-ins, a `console` whose calls come back as log lines, and the inputs as JSON.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';

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
/** The worker's warm module, its WASM memory and the ceiling it was made with. */
let warm;

async function moduleFor(bytes) {
  if (warm?.bytes !== bytes) warm = { bytes, ...(await newModule(bytes)) };
  return warm.mod;
}

/** Builds `console` inside the sandbox around one host function that only takes strings. */
const CONSOLE_SETUP = `(function (sink, limit) {
  function show(v) {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return String(v);
    if (typeof v === 'function') return '[Function' + (v.name ? ': ' + v.name : '') + ']';
    if (v === undefined || typeof v === 'bigint' || typeof v === 'symbol') return String(v);
    try { var s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
  }
  function writer(level) {
    // Cut inside the sandbox: the host copies what it gets, and it keeps no more than the limit anyway.
    return function () { var parts = []; for (var i = 0; i < arguments.length; i++) parts.push(show(arguments[i])); var text = parts.join(' '); sink(level, text.length > limit ? text.slice(0, limit) : text); };
  }
  globalThis.console = { log: writer('log'), info: writer('info'), warn: writer('warn'), error: writer('error'), debug: writer('debug') };
})`;

/**
 * Calls the user's `main` with the parsed inputs; a promise it returns is settled by the host
 * (pending jobs). The result is serialized here, so the host copies one bounded string.
 */
const CALL_MAIN = `(function (inputsJson) {
  if (typeof main !== 'function') throw new TypeError('The code must define a function main(inputs) that returns an object');
  return main(JSON.parse(inputsJson));
})`;

const SERIALIZE = `(function (result, limit) {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    return { kind: 'not-object', type: result === null ? 'null' : Array.isArray(result) ? 'array' : typeof result };
  }
  var json = JSON.stringify(result);
  if (json.length > limit) return { kind: 'too-large', length: json.length };
  return { kind: 'ok', json: json };
})`;

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

async function run(job, onStarted) {
  let mod = await moduleFor(job.memoryBytes);
  let rt;
  try {
    rt = mod.newRuntime();
  } catch {
    // The warm module is broken: start again with a new one.
    warm = undefined;
    mod = await moduleFor(job.memoryBytes);
    rt = mod.newRuntime();
  }
  rt.setMemoryLimit(job.memoryBytes);
  rt.setMaxStackSize(job.stackBytes);
  const deadline = Date.now() + job.timeoutMs;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  onStarted();
  const trap = { hit: false };
  const outcome = evaluate(job, rt, ctx, trap);
  let reusable = !trap.hit && (outcome.ok || !HARD_FAILURES.has(outcome.error.code));
  if (reusable) {
    try {
      ctx.dispose();
      rt.dispose();
    } catch {
      reusable = false;
    }
  }
  // Dropped, not disposed: nothing more runs in it, and the worker lets it go.
  if (!reusable || mod.getWasmMemory().buffer.byteLength > KEEP_BYTES) {
    if (warm?.mod === mod) warm = undefined;
  }
  return outcome;
}

/** Runs the job in a fresh context; never disposes it (run decides). `trap.hit`: the module trapped. */
function evaluate(job, rt, ctx, trap) {
  const logs = [];
  let logChars = 0;
  let dropped = 0;
  const done = (outcome) => ({ ...outcome, logs, ...(dropped ? { droppedLogs: dropped } : {}) });
  const take = (res) => {
    if (!res.error) return { value: res.value };
    const dumped = ctx.dump(res.error);
    res.error.dispose();
    return { error: failure(dumped) };
  };
  try {
    const sink = ctx.newFunction('sink', (levelH, textH) => {
      const text = ctx.getString(textH);
      if (logs.length >= job.maxLogLines || logChars + text.length > job.maxLogChars) {
        dropped++;
        return;
      }
      logChars += text.length;
      logs.push({ level: ctx.getString(levelH), text });
    });
    const setup = take(ctx.evalCode(CONSOLE_SETUP, 'setup.js'));
    if (setup.error) throw new Error(setup.error.message);
    const logLimit = ctx.newNumber(job.maxLogChars);
    ctx.unwrapResult(ctx.callFunction(setup.value, ctx.undefined, sink, logLimit)).dispose();
    logLimit.dispose();
    setup.value.dispose();
    sink.dispose();

    const loaded = take(ctx.evalCode(job.code, FILE_NAME, { type: 'global' }));
    if (loaded.error) return done({ ok: false, error: loaded.error });
    loaded.value.dispose();

    const call = ctx.unwrapResult(ctx.evalCode(CALL_MAIN, 'call.js'));
    const inputs = ctx.newString(job.inputsJson);
    const called = take(ctx.callFunction(call, ctx.undefined, inputs));
    inputs.dispose();
    call.dispose();
    if (called.error) return done({ ok: false, error: called.error });

    // Settle an async main: run the queued jobs to the end (no timers exist, so nothing can wait on the host).
    const jobs = rt.executePendingJobs(-1);
    if (jobs.error) {
      called.value.dispose();
      return done({ ok: false, error: take({ error: jobs.error }).error });
    }
    let result = called.value;
    const state = ctx.getPromiseState(result);
    if (!(state.type === 'fulfilled' && state.notAPromise)) {
      result.dispose();
      if (state.type === 'pending') return done({ ok: false, error: { code: 'SANDBOX-ERROR', message: 'main returned a promise that never settled' } });
      if (state.type === 'rejected') return done({ ok: false, error: take({ error: state.error }).error });
      result = state.value;
    }

    const serialize = ctx.unwrapResult(ctx.evalCode(SERIALIZE, 'serialize.js'));
    const limit = ctx.newNumber(job.maxOutputChars);
    const serialized = take(ctx.callFunction(serialize, ctx.undefined, result, limit));
    serialize.dispose();
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
  // The memory report (kill -USR2, bench:start): this isolate's heap and the warm module's WASM memory.
  if (msg.memory) {
    parentPort.postMessage({ id: msg.id, memory: { heapBytes: v8.getHeapStatistics().total_heap_size, wasmBytes: warm?.memory.buffer.byteLength ?? 0 } });
    return;
  }
  // A job on a warm module starts at once: the host starts its clock when it posts (`quiet`), and a
  // 'started' message would only wake the server's thread once more per run. `warmBytes` tells it
  // which ceiling the module kept for the next job is made with.
  run(msg.job, () => msg.job.quiet || parentPort.postMessage({ id: msg.id, started: true })).then(
    (outcome) => parentPort.postMessage({ id: msg.id, outcome, warmBytes: warm?.bytes }),
    (e) => parentPort.postMessage({ id: msg.id, outcome: { ok: false, logs: [], error: { code: 'SANDBOX-ERROR', message: e instanceof Error ? e.message : String(e) } } }),
  );
});
