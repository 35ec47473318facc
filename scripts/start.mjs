// `npm start`: builds what is missing or older than its sources (the client into dist/, the server
// into dist-server/; scripts/build-check.mjs decides), then runs the server in this same process,
// so a signal reaches it directly and no second Node process stays around. The builds run as
// child processes that end before the server starts (vite and esbuild keep their memory, and
// esbuild a service process, to themselves).
//
// package.json runs this as `node --max-semi-space-size=64 scripts/start.mjs` (flags must be given to
// node itself: V8 reads them when the heap is made). Under load the young generation is what the
// main thread's pauses are made of: 200 portal chat streams at once (bench:portal) ran 4–5 scavenges
// of 4–21 ms a burst with V8's default 16 MB semi-spaces, and the first-token overhead's p95 missed
// 20 ms in 4 runs of 5 (a round at 22.7–37.7 ms); with 64 MB, one scavenge a burst and every round
// of 9 runs within 18.2 ms (interleaved A/B, quiet machine, 2026-11-28). It costs no idle memory:
// the start grows the young generation to 2 × 64 MB, and V8's memory reducer gives it back about
// 20–25 s after the start's last full GC (idle RSS 355 MB at 20 s, 252–295 MB from 25 s on; with
// the 4 MB this flag had before, 279–297 MB). bench:start reads the idle RSS at 20 s and 40 s.
// Not set: MALLOC_MMAP_THRESHOLD_=32768. glibc's arenas keep 60–100 MB of the scratch memory V8's
// TurboFan used to compile the embedded database's WebAssembly (the SIGUSR2 line shows them); the
// threshold returns it (idle RSS 191–214 MB instead of 262–276) but made every start ~0.4 s slower
// (restart → first 200 2.1–2.3 s instead of 1.6–1.9 s, bench:start interleaved on a quiet machine),
// past the 2 s target, while 262–276 MB is inside the 300 MB one. A deployment that prefers memory
// to start time can set it in the environment.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { staleReason } from './build-check.mjs';

const root = path.resolve(import.meta.dirname, '..');
// The data directory (./.weft) and the client (./dist) are the project folder's, wherever npm is run from.
process.chdir(root);
const clientDir = path.join(root, 'dist');
// The client is built only when it is the one served (WEFT_CLIENT_DIR may name another build).
const servesOwnClient = !process.env.WEFT_CLIENT_DIR || path.resolve(process.env.WEFT_CLIENT_DIR) === clientDir;

function build(what, script, args) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [path.join(root, script), ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`Building the ${what} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
  console.log(`Built the ${what} in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}

const client = servesOwnClient ? staleReason(root, 'client') : null;
if (client) {
  console.log(`Building the client (${client}); on a first start this takes a minute or more…`);
  build('client', 'node_modules/vite/bin/vite.js', ['build', '--logLevel', 'warn']);
}
const server = staleReason(root, 'server');
if (server) {
  console.log(`Building the server (${server})…`);
  build('server', 'scripts/build-server.mjs', []);
}
performance.mark('weft:build-checked');

process.env.WEFT_CLIENT_DIR ||= clientDir;
await import(pathToFileURL(path.join(root, 'dist-server', 'main.mjs')).href);
