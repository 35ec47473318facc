import fs from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * With WEFT_API_CPU=<file> (see the api project in vite.config.ts), each API test file appends one
 * JSON line to <file>: its wall time and the CPU of its worker process (all threads: the database's
 * included) and of the child processes it waited for (servers it started and stopped, ffmpeg, initdb),
 * from its setup (its imports) to its last afterAll. `node scripts/api-cpu.mjs <file>` sorts them.
 * Files run one at a time in a worker, so a file's figures are its own.
 */
const TICK = 100; // USER_HZ: /proc's times are in hundredths of a second on Linux.

/** Own and waited-for children's CPU seconds, from /proc/self/stat (utime, stime, cutime, cstime). */
function cpu(): { self: number; children: number } {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the name start at field 3 (state): utime is field 14, so index 11 here.
  const [ut, st, cut, cst] = f.slice(11, 15).map(Number) as [number, number, number, number];
  return { self: (ut + st) / TICK, children: (cut + cst) / TICK };
}

const t0 = performance.now();
const c0 = cpu();
afterAll(({}, suite) => {
  const c1 = cpu();
  const file = 'filepath' in suite ? path.relative(process.cwd(), suite.filepath) : suite.name;
  const line = { file, wall: (performance.now() - t0) / 1000, cpu: c1.self - c0.self, children: c1.children - c0.children };
  fs.appendFileSync(process.env.WEFT_API_CPU!, `${JSON.stringify(line)}\n`);
});
