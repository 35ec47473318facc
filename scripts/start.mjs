// `npm start`: builds what is missing or older than its sources (the client into dist/, the server
// into dist-server/; scripts/build-check.mjs decides), then runs the server in this same process,
// so a signal reaches it directly and no second Node process stays around. The builds run as
// child processes that end before the server starts (vite and esbuild keep their memory, and
// esbuild a service process, to themselves).
//
// package.json runs this as `env MALLOC_MMAP_THRESHOLD_=32768 node --max-semi-space-size=4
// scripts/start.mjs` (`env` execs node: still one process). Both size an idle server (issue 32):
// - --max-semi-space-size=4: V8 grows the young generation to 2 × 16 MB while the start allocates
//   and never gives it back, so an idle server held 32 MB of it nearly empty; at 4 MB a semi-space
//   the main thread's heap was 50 MB instead of 75 MB after 20 s idle (measured with kill -USR2).
//   Flags must be given to node itself: V8 reads them when the heap is made.
// - MALLOC_MMAP_THRESHOLD_=32768: V8 compiles hot WebAssembly (the embedded database's, the
//   sandbox's QuickJS) with TurboFan on its background threads, in scratch memory ("zones") taken
//   from malloc in segments of up to 32 KB: ~170 MB in all over the start, up to 22 MB for one of
//   PostgreSQL's largest functions. glibc gives back only the free top of an arena, so scratch
//   freed below blocks still in use (the compiled code's records) stays resident: the
//   malloc arenas held 80–107 MB 20 s after the start (bench:start's steps, /proc/<pid>/smaps).
//   With the threshold, blocks of 32 KB and more are mapped on their own and unmapped when freed:
//   15–17 MB, about 70 MB less RSS. glibc reads it from the environment when the process starts,
//   so it cannot be set from here; other C libraries ignore it.
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
