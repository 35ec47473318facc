// The Python side of the code sandbox: CPython compiled to WebAssembly (Pyodide, from its npm
// package: interpreter and standard library only, nothing is fetched) in a worker thread. Plain
// JavaScript for the same reason as worker.mjs; sandbox.ts is the only module that starts it.
//
// Pyodide is loaded on the worker's first job (≈2 s, ≈170 MB) and kept warm for the next ones; the
// parent gives a worker to one tenant only (module state a job leaves behind is never seen by another
// tenant) and recycles it after a job that failed hard. The first worker also copies the interpreter's
// memory right after loading, before the lockdown and before any user code (Pyodide's memory
// snapshot, ≈30 MB), and hands it to the parent with its compiled WebAssembly module: each later
// worker gets a copy of the memory of its own and the module (code, shared: compiled once) and starts
// from them in ≈0.2 s of CPU instead of running CPython's start-up again (a worker recycled after a
// timeout or the memory limit comes back that much sooner). Either way the worker starts from an
// interpreter no job has run in, then locks it down itself.
//
// What user code can reach, and why not further (each layer is checked by python.test.ts):
// - the `js` module is an empty object (`jsglobals`), never the worker's globalThis;
// - `pyodide_js`, `pyodide`, `_pyodide*` (the bridge to JavaScript and the Emscripten FS, where NODEFS
//   would mount the host's disk), `ctypes`, sockets and process modules are removed from sys.modules
//   and refused by an import guard, and NODEFS is deleted from the FS's file systems;
// - should Python still get hold of a JavaScript object, this realm can no longer turn a string into
//   code (eval and every Function constructor are gone) and its globals hold no process, require,
//   fetch or sockets: a JS object leads nowhere;
// - the file system is Emscripten's in-memory one (no host directory is mounted);
// - memory: WebAssembly.Memory.prototype.grow refuses to grow the heap past the job's ceiling, so
//   malloc fails and Python raises MemoryError (the parent then recycles the worker);
// - time: the parent writes 2 (SIGINT) into the shared interrupt buffer at the deadline, Python raises
//   KeyboardInterrupt; a job that swallows it is terminated with the worker after a grace period.
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const MAX_MESSAGE = 4000;

/** The heap's ceiling for the running job (bytes); the heap never shrinks, so it only gates growth. */
let ceiling = Infinity;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  // Emscripten's heap growth catches this and makes malloc return NULL: Python raises MemoryError.
  if (this.buffer.byteLength + pages * 65536 > ceiling) throw new RangeError('The sandbox memory limit was reached');
  return grow.call(this, pages);
};

/** Modules user code may not import (root names): the JavaScript bridge, raw memory, network, processes. */
const BLOCKED = [
  'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'micropip',
  'ctypes', '_ctypes', 'socket', '_socket', 'select', 'selectors', 'ssl', '_ssl',
  'subprocess', '_posixsubprocess', 'multiprocessing', '_multiprocessing', 'asyncio',
];

/**
 * Runs once after Pyodide loaded, before any user code: removes the bridge modules and installs the
 * guard, then defines the runner (kept in a module of its own, out of the jobs' globals).
 */
const LOCKDOWN = `
import sys, builtins, json, traceback, os
_blocked = frozenset(${JSON.stringify(BLOCKED)})

class _Guard:
    """Refuses the modules the sandbox does not offer, whoever asks (import, importlib, __import__)."""
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split('.')[0] in _blocked:
            raise ImportError(f"The module '{name}' is not available in the sandbox (no network, processes, host files or JavaScript; packages cannot be installed)", name=name)
        return None

sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ not in ('JsFinder', 'WindowsToLinuxPathFinder')]
sys.meta_path.insert(0, _Guard)
for _name in list(sys.modules):
    if _name.split('.')[0] in _blocked:
        del sys.modules[_name]
def _refused(*a, **k):
    raise PermissionError('Starting processes is not available in the sandbox')
_process_calls = tuple(k for k in ('system', 'popen', 'execv', 'execve', 'execl', 'execvp', 'fork', 'forkpty', 'kill', 'killpg', 'spawnv', 'spawnve', 'posix_spawn', 'posix_spawnp') if hasattr(os, k))
for _k in _process_calls:
    setattr(os, _k, _refused)
_import = builtins.__import__

def _intact():
    # A job that took the guard apart leaves its worker unfit for the next job (of the same tenant):
    # the parent then ends the worker and the next job gets a fresh interpreter.
    return (
        sys.meta_path[:1] == [_Guard]
        and builtins.__import__ is _import
        and all(getattr(os, k) is _refused for k in _process_calls)
        and not any(n.split('.')[0] in _blocked for n in sys.modules)
    )
os.environ.clear()
os.environ['HOME'] = '/home/user'

class _Output(Exception):
    pass

def _user_traceback(exc, limit=8):
    # Only the user's frames (main.py): the runner's and the standard library's are noise.
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != 'main.py':
        tb = tb.tb_next
    lines = traceback.format_exception(type(exc), exc, tb)
    text = ''.join(lines).rstrip().splitlines()
    line = None
    t = tb
    while t is not None:
        if t.tb_frame.f_code.co_filename == 'main.py':
            line = t.tb_lineno
        t = t.tb_next
    if isinstance(exc, SyntaxError) and exc.filename == 'main.py':
        line = exc.lineno
    return '\\n'.join(text[-limit:]), line

def _run(code, inputs_json, max_chars):
    answer = _answer(code, inputs_json, max_chars)
    if not _intact():
        answer['tampered'] = True
    return json.dumps(answer)

def _answer(code, inputs_json, max_chars):
    g = {'__name__': '__main__', '__builtins__': builtins}
    try:
        exec(compile(code, 'main.py', 'exec'), g)
        main = g.get('main')
        if not callable(main):
            raise TypeError('The code must define a function main(...) that returns a dict')
        result = main(**json.loads(inputs_json))
        if not isinstance(result, dict):
            raise _Output(f'main must return a dict, not {type(result).__name__}')
        try:
            out = json.dumps(result, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise _Output(f'The output cannot be turned into JSON: {e}')
        if len(out) > max_chars:
            raise _Output(f'The output is larger than {max_chars} bytes as JSON')
        return {'ok': True, 'json': out}
    except _Output as e:
        return {'ok': False, 'code': 'SANDBOX-OUTPUT', 'message': str(e)}
    except KeyboardInterrupt:
        return {'ok': False, 'code': 'SANDBOX-TIMEOUT', 'message': 'The code ran past its time limit'}
    except MemoryError:
        return {'ok': False, 'code': 'SANDBOX-MEMORY', 'message': 'The code ran out of memory'}
    except BaseException as e:
        text, line = _user_traceback(e)
        return {'ok': False, 'code': 'SANDBOX-ERROR', 'message': text, 'line': line}

sys.modules['__weft_runner__'] = type(sys)('__weft_runner__')
sys.modules['__weft_runner__'].run = _run
`;

/** Takes away what would let a JavaScript object lead anywhere (see the top of the file). */
function lockRealm(py) {
  for (const fs of [py.FS?.filesystems, py._module?.FS?.filesystems]) if (fs) delete fs.NODEFS;
  const thrower = function () {
    throw new EvalError('Code generation is not available in the sandbox');
  };
  const prototypes = [
    Function.prototype,
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ];
  for (const p of prototypes) Object.defineProperty(p, 'constructor', { value: thrower, writable: false, configurable: false });
  Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
  for (const name of ['eval', 'Function', 'process', 'require', 'fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'Request', 'Response', 'Headers', 'Worker', 'SharedWorker', 'importScripts', 'navigator', 'BroadcastChannel', 'MessageChannel']) {
    try {
      delete globalThis[name];
    } catch {
      // Not configurable: overwrite what can be.
    }
  }
}

let runtime;
let pending;
/** The log lines of the running job (stdout and stderr go there). */
let sink = () => {};
/**
 * The interpreter's memory to start from (the parent's copy, sent before the first job, dropped once
 * used) and its compiled module.
 */
let snapshot;

async function load() {
  const { loadPyodide } = await import('pyodide');
  const from = snapshot?.memory;
  const compiled = snapshot?.module;
  snapshot = undefined;
  // Pyodide instantiates its module with the bytes it read: given the compiled one, it uses that.
  const instantiate = WebAssembly.instantiate;
  let module;
  WebAssembly.instantiate = async (source, imports) => {
    WebAssembly.instantiate = instantiate;
    if (compiled) return { instance: await instantiate(compiled, imports), module: (module = compiled) };
    const made = await instantiate(source, imports);
    module = made.module;
    return made;
  };
  const py = await loadPyodide({
    // Named, not guessed: Pyodide finds its files from a stack trace, which a source-map loader (tsx
    // in the server) rewrites to the package's original sources (src/js/…), where nothing is.
    indexURL: path.dirname(createRequire(import.meta.url).resolve('pyodide')) + path.sep,
    jsglobals: Object.create(null),
    env: { HOME: '/home/user' },
    stdin: () => null,
    stdout: (text) => sink('log', text),
    stderr: (text) => sink('error', text),
    checkAPIVersion: true,
    ...(from ? { _loadSnapshot: from } : { _makeSnapshot: true }),
  }).finally(() => {
    WebAssembly.instantiate = instantiate;
  });
  // Pyodide's config keeps what it was given: the copy is detached (moved to a clone nothing holds), so its 30 MB are not kept.
  if (from) structuredClone(from.buffer, { transfer: [from.buffer] });
  else offerSnapshot(py, module);
  py.setStdout({ batched: (text) => sink('log', text) });
  py.setStderr({ batched: (text) => sink('error', text) });
  py.setInterruptBuffer(new Int32Array(workerData.interrupt));
  py.unregisterJsModule?.('js');
  py.unregisterJsModule?.('pyodide_js');
  py.runPython(LOCKDOWN);
  const runner = py.pyimport('__weft_runner__');
  const run = runner.run;
  lockRealm(py);
  return { py, run };
}

/** Whether 32-bit words [at, end) are all zero. */
const zeros = (words, at, end) => {
  for (let i = at; i < end; i++) if (words[i] !== 0) return false;
  return true;
};

/**
 * Sends the parent a copy of the interpreter's memory as loaded (no lockdown yet, no job run) and its
 * compiled module. Only the pages that hold something are written: the rest of the copy is never
 * made resident.
 */
function offerSnapshot(py, module) {
  let made;
  try {
    if (!(module instanceof WebAssembly.Module)) return;
    made = py.makeMemorySnapshot();
  } catch {
    // A Pyodide that cannot make one: later workers load the interpreter in full.
    return;
  }
  // Its length is a multiple of 16 (a header, then the heap's 64 KB pages).
  const words = new Uint32Array(made.buffer, made.byteOffset, made.length / 4);
  const sparse = new Uint8Array(made.length);
  const PAGE = 1024;
  for (let at = 0; at < words.length; at += PAGE) {
    const end = Math.min(at + PAGE, words.length);
    if (!zeros(words, at, end)) sparse.set(made.subarray(at * 4, end * 4), at * 4);
  }
  parentPort.postMessage({ snapshot: { memory: sparse.buffer, module } }, [sparse.buffer]);
}

async function execute(job, onStarted) {
  runtime ??= await (pending ??= load());
  const interrupt = new Int32Array(workerData.interrupt);
  Atomics.store(interrupt, 0, 0);
  const logs = [];
  let logChars = 0;
  let dropped = 0;
  sink = (level, text) => {
    if (logs.length >= job.maxLogLines || logChars + text.length > job.maxLogChars) {
      dropped++;
      return;
    }
    logChars += text.length;
    logs.push({ level, text });
  };
  const done = (outcome) => ({ ...outcome, logs, ...(dropped ? { droppedLogs: dropped } : {}) });
  const heap = runtime.py._module.HEAP8.buffer.byteLength;
  // The job may use its memory limit above what the interpreter itself holds.
  ceiling = Math.max(job.memoryBytes, heap);
  onStarted();
  try {
    const answer = JSON.parse(runtime.run(job.code, job.inputsJson, job.maxOutputChars));
    // The guard was taken apart: the job's answer stands, the worker is not used again.
    const recycle = answer.tampered ? { recycle: true } : {};
    if (answer.ok) return done({ ok: true, json: answer.json, ...recycle });
    const message = answer.message.length > MAX_MESSAGE ? `…${answer.message.slice(-MAX_MESSAGE)}` : answer.message;
    return done({ ok: false, error: { code: answer.code, message, ...(typeof answer.line === 'number' ? { line: answer.line } : {}) }, ...recycle });
  } catch (e) {
    // The interpreter itself failed (a fatal error, the WASM stack): the parent recycles the worker.
    const text = e instanceof Error ? e.message : String(e);
    if (/memory/i.test(text)) return done({ ok: false, error: { code: 'SANDBOX-MEMORY', message: 'The code ran out of memory' }, fatal: true });
    return done({ ok: false, error: { code: 'SANDBOX-ERROR', message: `The Python interpreter stopped: ${text.split('\n')[0].slice(0, MAX_MESSAGE)}` }, fatal: true });
  } finally {
    ceiling = Infinity;
    sink = () => {};
  }
}

parentPort.on('message', (msg) => {
  if (msg.snapshot) {
    snapshot = { memory: new Uint8Array(msg.snapshot.memory), module: msg.snapshot.module };
    return;
  }
  execute(msg.job, () => parentPort.postMessage({ id: msg.id, started: true })).then(
    (outcome) => parentPort.postMessage({ id: msg.id, outcome }),
    (e) => parentPort.postMessage({ id: msg.id, outcome: { ok: false, logs: [], fatal: true, error: { code: 'SANDBOX-ERROR', message: `The Python sandbox could not start: ${e instanceof Error ? e.message : String(e)}` } } }),
  );
});
