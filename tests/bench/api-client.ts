/**
 * The load client of `npm run bench:api` (./api.ts), in a process of its own so its work does not
 * count as the server's: blocking public-API runs over kept-alive loopback connections (node:http,
 * lighter than fetch), `clients` at once, `total` in all. Reads its job as one JSON line on stdin;
 * prints `{ ms, latencies, failed }` as one line.
 */
import http from 'node:http';
import { createInterface } from 'node:readline';
import { once } from 'node:events';

interface Job {
  url: string;
  key: string;
  body: unknown;
  clients: number;
  total: number;
}

const [line] = (await once(createInterface({ input: process.stdin }), 'line')) as [string];
const job = JSON.parse(line) as Job;
const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients });
const url = new URL(job.url);
const payload = Buffer.from(JSON.stringify(job.body));

function one(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': payload.length, authorization: `Bearer ${job.key}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${res.statusCode} ${Buffer.concat(chunks).toString()}`));
          resolve(performance.now() - t0);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const latencies: number[] = [];
let failed = 0;
let left = job.total;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: job.clients }, async () => {
    while (left-- > 0) {
      try {
        latencies.push(await one());
      } catch (e) {
        if (failed++ === 0) process.stderr.write(`${(e as Error).message}\n`);
      }
    }
  }),
);
const ms = performance.now() - t0;
agent.destroy();
process.stdout.write(`${JSON.stringify({ ms, latencies, failed })}\n`);
