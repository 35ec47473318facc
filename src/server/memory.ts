import fs from 'node:fs';
import v8 from 'node:v8';
import type { Studio } from './server';
import { prepareWorkerRunning } from './knowledge/prepare-pool';
import { framesWorkerRunning } from './digital-human/frames-pool';
import { svgWorkerRunning } from './digital-human/svg-portrait';

const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** The process's resident memory from /proc/self/status, in bytes (zeros where there is no /proc). */
function resident(): { rss: number; anon: number; file: number } {
  let status = '';
  try {
    status = fs.readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Not Linux: only the in-process figures below.
  }
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS') || process.memoryUsage.rss(), anon: kb('RssAnon'), file: kb('RssFile') };
}

/**
 * Where an idle server's memory is (issue 32), one line: `kill -USR2 <pid>` prints it and
 * `npm run bench:start` reads it. RSS is not available per thread, so each thread says what it
 * holds: the main thread's and each worker's V8 heap (committed), and the WebAssembly memories of
 * the embedded database and the sandbox's warm QuickJS modules (their size; pages never touched
 * are not resident). The rest of the RSS is Node itself (its binary and native libraries, under
 * "files"), thread stacks, native allocations and compiled code.
 */
export async function memoryLine(studio: Pick<Studio, 'database' | 'ctx'>): Promise<string> {
  const [db, sandbox] = await Promise.all([studio.database.memory().catch(() => null), studio.ctx.sandbox.memory()]);
  const heap = v8.getHeapStatistics();
  const r = resident();
  const parts = [
    `RSS ${mb(r.rss)} (anonymous ${mb(r.anon)}, files ${mb(r.file)})`,
    `main thread heap ${mb(heap.total_heap_size)} (used ${mb(heap.used_heap_size)}), external ${mb(process.memoryUsage().external)}`,
    db ? `database thread heap ${mb(db.heapBytes)}, its WASM memory ${mb(db.wasmBytes)}` : 'database not in a thread of this process',
    `sandbox ${sandbox.workers} worker${sandbox.workers === 1 ? '' : 's'}${sandbox.idle.map((w) => `, heap ${mb(w.heapBytes)} and WASM ${mb(w.wasmBytes)}`).join('')}`,
    `indexing worker ${prepareWorkerRunning() ? 'running' : 'stopped'}`,
    // Digital humans' workers start on first use and stop when idle (issue 31).
    `video frames worker ${framesWorkerRunning() ? 'running' : 'stopped'}`,
    `SVG worker ${svgWorkerRunning() ? 'running' : 'stopped'}`,
  ];
  return `  Memory: ${parts.join('; ')}`;
}
