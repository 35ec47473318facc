/**
 * The client of `npm run bench:portal`, in a process of its own as browsers would be: opens the
 * portal chat streams, `spacingMs` apart (all of them open at the peak: each lasts longer than the
 * ramp), and records per stream the time to its first `answer_chunk` frame and whether it ended well
 * (status 200, no `run_failed`, a final `message_end`), and the longest gap between two successive
 * `answer_chunk` frames of a stream (issue 34: chunks arrived in bursts). Reads its job as one JSON
 * line on stdin and prints `{ ttft, gaps, errors, complete, samples, peakOpen }` as one line (`complete`:
 * streams that ended with `message_end` and no `run_failed`).
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';

interface Job {
  url: string;
  tokens: string[];
  streams: number;
  spacingMs: number;
}

const [line] = (await once(createInterface({ input: process.stdin }), 'line')) as [string];
const job = JSON.parse(line) as Job;
const ttft: Record<string, number> = {};
/** Per stream, the longest time between two successive answer chunks. */
const gaps: number[] = [];
const samples: string[] = [];
let errors = 0;
let complete = 0;
let open = 0;
let peakOpen = 0;
const fail = (why: string) => {
  errors++;
  if (samples.length < 5) samples.push(why);
};

async function stream(i: number): Promise<void> {
  const t0 = performance.now();
  open++;
  peakOpen = Math.max(peakOpen, open);
  try {
    const res = await fetch(job.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${job.tokens[i % job.tokens.length]}` },
      body: JSON.stringify({ query: `#${i} tell me a story` }),
    });
    if (res.status !== 200) return fail(`#${i}: status ${res.status} ${await res.text()}`);
    const decoder = new TextDecoder();
    let buf = '';
    let last = '';
    let failed = false;
    let chunkAt = 0;
    let gap = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let at: number;
      while ((at = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, at);
        buf = buf.slice(at + 2);
        const type = frame.slice(7, frame.indexOf('\n'));
        if (type === 'answer_chunk') {
          const now = performance.now();
          if (ttft[i] === undefined) ttft[i] = now - t0;
          else gap = Math.max(gap, now - chunkAt);
          chunkAt = now;
        }
        if (type === 'run_failed') {
          failed = true;
          fail(`#${i}: ${frame.slice(0, 300)}`);
        }
        last = type;
      }
    }
    if (last !== 'message_end') fail(`#${i}: the stream ended with ${last || 'nothing'}`);
    else if (!failed) complete++;
    if (gap) gaps.push(gap);
  } catch (e) {
    fail(`#${i}: ${(e as Error).message}`);
  } finally {
    open--;
  }
}

const all: Promise<void>[] = [];
for (let i = 0; i < job.streams; i++) {
  all.push(stream(i));
  await new Promise((r) => setTimeout(r, job.spacingMs));
}
await Promise.all(all);
process.stdout.write(`${JSON.stringify({ ttft, gaps, errors, complete, samples, peakOpen })}\n`);
