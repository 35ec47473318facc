/**
 * The probe of `npm run bench:portal` (issue 34), in a process of its own: GETs `url` (the
 * server's /config.json, which does no work) every `everyMs` and records how long each answer
 * took: a stalled event loop shows as a slow answer. Reads its job as one JSON line on stdin, answers
 * `ready` once warm, stops at the next line and prints `{ latencies }` as one line.
 * Warm first: a new process's first fetch loads undici, compiles it and opens the connection
 * (25–53 ms measured, always the first probe: it was every round's max), which is the probe's own
 * start, not the server's.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin });
const [line] = (await once(lines, 'line')) as [string];
const job = JSON.parse(line) as { url: string; everyMs: number };
for (let i = 0; i < 5; i++) await (await fetch(job.url)).arrayBuffer();
process.stdout.write('ready\n');
const latencies: number[] = [];
let stop = false;
lines.once('line', () => (stop = true));

while (!stop) {
  const t0 = performance.now();
  const res = await fetch(job.url);
  await res.arrayBuffer();
  const took = performance.now() - t0;
  latencies.push(took);
  await new Promise((r) => setTimeout(r, Math.max(0, job.everyMs - took)));
}
process.stdout.write(`${JSON.stringify({ latencies })}\n`);
