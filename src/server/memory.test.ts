import { describe, expect, it } from 'vitest';
import { mallocArenaBytes } from './memory';

/** One smaps entry: its header line and the Rss line (the fields between them are left out). */
const entry = (start: number, end: number, perm: string, rssKb: number, name = '') =>
  `${start.toString(16)}-${end.toString(16)} ${perm} 00000000 00:00 0          ${name}\nSize: ${(end - start) / 1024} kB\nRss: ${rssKb} kB\nPss: ${rssKb} kB`;

const MB = 1024 * 1024;
const at = 0x7f0000000000; // on a 64 MB boundary

describe('mallocArenaBytes (the memory line of kill -USR2, issue 32)', () => {
  it("counts the main arena and the threads' 64 MB arena heaps, not V8's or WebAssembly's mappings nor files", () => {
    const smaps = [
      entry(0x2cfc5000, 0x2cfc5000 + 9 * MB, 'rw-p', 8 * 1024, '[heap]'),
      // A thread's arena: 30 MB usable, the rest of its 64 MB inaccessible.
      entry(at, at + 30 * MB, 'rw-p', 20 * 1024),
      entry(at + 30 * MB, at + 64 * MB, '---p', 0),
      // A whole 64 MB arena in use.
      entry(at + 64 * MB, at + 128 * MB, 'rw-p', 5 * 1024),
      // On a 64 MB boundary but not an arena's shape (a 128 MB WebAssembly memory; a 32 MB V8 reservation).
      entry(at + 128 * MB, at + 256 * MB, 'rw-p', 49 * 1024),
      entry(at + 256 * MB, at + 288 * MB, 'rw-p', 2 * 1024),
      // Not on a boundary; a file.
      entry(at + 300 * MB + 4096, at + 310 * MB, 'rw-p', 7 * 1024),
      entry(at + 320 * MB, at + 380 * MB, 'r-xp', 40 * 1024, '/usr/bin/node'),
    ].join('\n');
    expect(mallocArenaBytes(smaps) / MB).toBe(8 + 20 + 5);
    expect(mallocArenaBytes('')).toBe(0);
  });
});
