/**
 * CPU figures for the benches, finer than `process.cpuUsage()` (the whole process: main thread,
 * the embedded database's worker and the sandbox workers together):
 * - {@link threadCpu}: CPU time of the main thread and of all other threads, from /proc (Linux; a
 *   tick is 10 ms, so count over hundreds of runs);
 * - {@link profileWhile}: with `BENCH_CPU_PROFILE=<dir>`, a V8 CPU profile of the main thread over
 *   one measured round only (not the set-up or the warm-up), written as `<dir>/<name>.cpuprofile`
 *   for Chrome DevTools or any .cpuprofile reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

const TICK_MS = 10; // USER_HZ is 100 on Linux

function ticksOf(task: string): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** CPU milliseconds so far of the main thread and of the process's other threads (null off Linux). */
export function threadCpu(): { main: number; others: number } | null {
  try {
    const main = String(process.pid);
    let others = 0;
    for (const t of fs.readdirSync('/proc/self/task')) {
      // A thread may end between the listing and the read.
      try {
        if (t !== main) others += ticksOf(t);
      } catch {}
    }
    return { main: ticksOf(main) * TICK_MS, others: others * TICK_MS };
  } catch {
    return null;
  }
}

/** The main thread's and other threads' CPU between two {@link threadCpu} readings (others shrinks when threads end). */
export const threadCpuSince = (a: ReturnType<typeof threadCpu>) => {
  const b = threadCpu();
  return a && b ? { main: b.main - a.main, others: b.others - a.others } : null;
};

/** Runs `round`, profiling the main thread meanwhile when BENCH_CPU_PROFILE names a directory. */
export async function profileWhile<T>(name: string, round: () => Promise<T>): Promise<T> {
  const heapDir = process.env.BENCH_HEAP_PROFILE;
  if (heapDir) return sampleAllocationsWhile(heapDir, name, round);
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return round();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await round();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
    console.log(`  CPU profile of the main thread: ${path.join(dir, `${name}.cpuprofile`)}`);
  }
}

/**
 * With `BENCH_HEAP_PROFILE=<dir>` (instead of the CPU profile): V8's sampling heap profiler over the
 * round, one sample every 16 KB allocated on the main thread, kept even once collected (what the
 * young generation's collections have to go through), written as `<dir>/<name>.heapprofile`.
 */
async function sampleAllocationsWhile<T>(dir: string, name: string, round: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  try {
    return await round();
  } finally {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.heapprofile`), JSON.stringify(profile));
    session.disconnect();
    console.log(`  allocation profile of the main thread: ${path.join(dir, `${name}.heapprofile`)}`);
  }
}
