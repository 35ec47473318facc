/**
 * The client of the first-token figure of ./server.ts, in a process of its own as a browser would
 * be: reading a stream in the server's process would put the client's own work (and the server's
 * after the token went out, e.g. the embedded database storing the run) between the token and the
 * clock. Reads its settings as one JSON line on stdin, prints `{ direct, served }` (ms) as one line.
 */
import { createInterface } from 'node:readline';
import { once } from 'node:events';

interface Job {
  fakeBaseUrl: string;
  fakeKey: string;
  url: string;
  headers: Record<string, string>;
  rounds: number;
}

/** Time (ms since t0) of the first SSE frame `first` matches; the body is read to its end. */
async function firstFrame(res: Response, t0: number, first: (frame: string) => boolean): Promise<number> {
  const decoder = new TextDecoder();
  let at = -1;
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (at < 0) {
      buf += decoder.decode(chunk, { stream: true });
      if (buf.split('\n\n').some((f) => f && first(f))) at = performance.now() - t0;
    }
  }
  return at;
}

const [line] = (await once(createInterface({ input: process.stdin }), 'line')) as [string];
const job = JSON.parse(line) as Job;
const direct: number[] = [];
const served: number[] = [];
for (let i = 0; i < job.rounds; i++) {
  let t0 = performance.now();
  const raw = await fetch(`${job.fakeBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${job.fakeKey}` },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
  direct.push(await firstFrame(raw, t0, (f) => f.includes('"content":"Hel"')));
  t0 = performance.now();
  const res = await fetch(job.url, { method: 'POST', headers: { 'content-type': 'application/json', ...job.headers }, body: JSON.stringify({ query: 'hi' }) });
  served.push(await firstFrame(res, t0, (f) => f.startsWith('event: answer_chunk')));
}
process.stdout.write(`${JSON.stringify({ direct, served })}\n`);
