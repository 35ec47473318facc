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

/** glibc's heaps for threads other than the main one: 64 MB, aligned to their size (HEAP_MAX_SIZE). */
const ARENA_BYTES = 64 * 1024 * 1024;

/**
 * What glibc's malloc holds resident, from /proc/self/smaps text: the main arena (`[heap]`) and each
 * thread arena's heap (an anonymous mapping on a 64 MB boundary whose read-write part and the
 * inaccessible rest after it span exactly 64 MB). V8's scratch memory for compiling (its zones)
 * and native objects live there: what was freed inside an arena stays resident (issue 32).
 */
export function mallocArenaBytes(smaps: string): number {
  const maps: { start: bigint; end: bigint; perm: string; name: string; rss: number }[] = [];
  for (const line of smaps.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) maps.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perm: head[3]!, name: head[4]!, rss: 0 });
    else if (maps.length && line.startsWith('Rss:')) maps[maps.length - 1]!.rss = Number(/(\d+)/.exec(line)?.[1] ?? 0) * 1024;
  }
  const size = BigInt(ARENA_BYTES);
  return maps.reduce((sum, m, i) => {
    if (m.name === '[heap]') return sum + m.rss;
    if (m.name || !m.perm.startsWith('rw') || m.start % size !== 0n) return sum;
    const rest = maps[i + 1];
    const end = rest && rest.start === m.end && !rest.name && rest.perm.startsWith('---') ? rest.end : m.end;
    return end - m.start === size ? sum + m.rss : sum;
  }, 0);
}

/** /proc/self/smaps's text, or '' where there is none (not Linux). */
function smaps(): string {
  try {
    return fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return '';
  }
}

/**
 * Where an idle server's memory is (issue 32), one line: `kill -USR2 <pid>` prints it and
 * `npm run bench:start` reads it. RSS is not available per thread, so each thread says what it
 * holds: the main thread's and each worker's V8 heap (committed), and the WebAssembly memories of
 * the embedded database and the sandbox's warm QuickJS modules (their size; pages never touched
 * are not resident), and glibc's malloc arenas (native allocations, V8's compile scratch memory).
 * The rest of the RSS is Node itself (its binary and native libraries, under "files"), thread
 * stacks and compiled code.
 */
export async function memoryLine(studio: Pick<Studio, 'database' | 'ctx'>): Promise<string> {
  const [db, sandbox] = await Promise.all([studio.database.memory().catch(() => null), studio.ctx.sandbox.memory()]);
  const heap = v8.getHeapStatistics();
  const r = resident();
  const parts = [
    `RSS ${mb(r.rss)} (anonymous ${mb(r.anon)}, files ${mb(r.file)})`,
    `main thread heap ${mb(heap.total_heap_size)} (used ${mb(heap.used_heap_size)}), external ${mb(process.memoryUsage().external)}`,
    db ? `database thread heap ${mb(db.heapBytes)}, its WASM memory ${mb(db.wasmBytes)}` : 'database not in a thread of this process',
    `sandbox ${sandbox.workers} worker${sandbox.workers === 1 ? '' : 's'}${sandbox.idle.map((w) => `, heap ${mb(w.heapBytes)} and WASM ${mb(w.wasmBytes)}`).join('')}${sandbox.pythonSnapshotBytes ? `, Python snapshot ${mb(sandbox.pythonSnapshotBytes)} (its pages of zeros not resident)` : ''}`,
    `indexing worker ${prepareWorkerRunning() ? 'running' : 'stopped'}`,
    // Digital humans' workers start on first use and stop when idle (issue 31).
    `video frames worker ${framesWorkerRunning() ? 'running' : 'stopped'}`,
    `SVG worker ${svgWorkerRunning() ? 'running' : 'stopped'}`,
    `malloc arenas ${mb(mallocArenaBytes(smaps()))}`,
  ];
  return `  Memory: ${parts.join('; ')}`;
}
