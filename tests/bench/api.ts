/**
 * Public-API benchmark (`npm run bench:api`): prints figures, asserts nothing. A blocking
 * `POST /v1/workflows/run` of a start → code → end workflow, on the embedded database, over loopback:
 * - the first run after the server started (a data directory set up beforehand, the server opened
 *   on it as `npm start` does): time from `listen` to the answer;
 * - the time in the server per run (from the request's arrival to the answer's last byte, one client
 *   after another), its median and 95th percentile;
 * - runs per second with 1 and 8 clients (a client process of its own, ./api-client.ts, kept-alive
 *   connections), the server's CPU per run and the database statements per run.
 * The server runs under `npm start`'s node flags. Every figure is printed beside `uptime` (the machine's load): the machine may be shared.
 */
// First: under `npm start`'s node flags (./start-flags.ts), the bench runs itself again with them.
import './with-start-flags';
import { execSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { FlowDocument } from '../../schemas/flow';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { Settings } from '../../src/server/settings';
import { createStudio } from '../../src/server/server';
import { runRegistry } from '../../src/server/runs/registry';
import { flow } from '../engine/kit';
import { profileWhile, threadCpu, threadCpuSince } from './cpu';

const load = () => execSync('uptime').toString().trim().replace(/^.*load/, 'load');
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const fmt = (n: number, d = 2) => n.toFixed(d).padStart(8);
const print = (label: string, figure: string) => console.log(`${label.padEnd(44)} ${figure} | ${load()}`);

const codeFlow = (): FlowDocument =>
  flow(
    [
      ['s', 'start', { variables: [{ name: 'x', label: '', type: 'number', required: true, options: [], allowed_extensions: [] }] }],
      ['c', 'code', { inputs: [{ name: 'x', selector: ['s', 'x'] }], code: 'function main({ x }) { return { y: x + 1 } }', outputs: [{ name: 'y', type: 'number' }] }],
      ['e', 'end', { outputs: [{ name: 'y', selector: ['c', 'y'] }] }],
    ],
    [
      ['s', 'c'],
      ['c', 'e'],
    ],
  );

async function json(res: Response) {
  const body = (await res.json()) as { code: number | string; msg: string; data: any };
  if (body.code !== 0) throw new Error(`${res.url}: ${body.code} ${body.msg}`);
  return body.data;
}

const password = 'Bench12345';
const settingsFor = (dataDir: string) => Settings.parse({ adminUser: 'admin', adminPassword: password, clientDir: '/nonexistent', logLevel: 'silent', dataDir });

/** A data directory with a published start → code → end app and a key (no rate limit to speak of). */
async function prepare(dataDir: string): Promise<{ key: string }> {
  const studio = await createStudio(settingsFor(dataDir));
  try {
    const base = await studio.app.listen({ port: 0, host: '127.0.0.1' });
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const login = await json(await post('/api/v1/console/base/login', { tenantId: DEFAULT_TENANT_ID, username: 'admin', password }));
    const auth = { authorization: `Bearer ${login.access_token}` };
    const ws = await json(await post('/api/v1/console/workspaces', { name: 'Bench' }, auth));
    const h = { ...auth, 'x-workspace-id': ws.id };
    const app = await json(await post('/api/v1/console/apps', { name: 'Plus one', description: 'x', type: 'workflow', icon: { icon: 'bot' } }, h));
    await json(await fetch(`${base}/api/v1/console/apps/workflow`, { method: 'PUT', headers: { 'content-type': 'application/json', ...h }, body: JSON.stringify({ app_id: app.id, base_revision: 1, document: codeFlow() }) }));
    await json(await post(`/api/v1/console/apps/${app.id}/publish`, { version: '1.0.0' }, h));
    const key = await json(await post(`/api/v1/console/apps/${app.id}/api-keys`, { name: 'bench', rate_limit_per_minute: 100_000 }, h));
    return { key: key.secret };
  } finally {
    await studio.close();
  }
}

async function loadClient(job: { url: string; key: string; body: unknown; clients: number; total: number }) {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./api-client.ts', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(`${JSON.stringify(job)}\n`);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return JSON.parse(line) as { ms: number; latencies: number[]; failed: number };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-bench-api-'));
try {
  const { key } = await prepare(dataDir);
  const body = { inputs: { x: 41 }, response_mode: 'blocking', user: 'bench' };

  // The first run after start.
  const started = performance.now();
  const studio = await createStudio(settingsFor(dataDir));
  const base = await studio.app.listen({ port: 0, host: '127.0.0.1' });
  const ready = performance.now();
  const run = () => fetch(`${base}/v1/workflows/run`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const first = await run();
  const firstMs = performance.now() - ready;
  const answer = (await first.json()) as { data: { outputs: { y: number }; status: string } };
  if (answer.data?.outputs?.y !== 42) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
  print('server start (open database, migrate, listen)', `${fmt(ready - started, 0)} ms`);
  print('first run after start (listen → answer)', `${fmt(firstMs)} ms (target <= 50 ms)`);

  try {
    // Time in the server per request: from its arrival to the answer's last byte.
    const inServer: number[] = [];
    studio.app.server.on('request', (_req, res) => {
      const t0 = performance.now();
      res.on('finish', () => inServer.push(performance.now() - t0));
    });
    // Statements sent to the database (drizzle's client: the embedded database's worker or the pool),
    // counted over the measured round: what a run costs the database besides its rows.
    let statements = 0;
    const client = (studio.ctx.db as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
    const query = client.query;
    client.query = function (this: unknown, ...a: unknown[]) {
      statements++;
      return query.apply(this, a);
    };
    const registry = runRegistry(studio.ctx);
    const settled = async () => {
      while (registry.size) await new Promise((r) => setTimeout(r, 1));
    };
    for (const clients of [1, 8]) {
      // Warm up with as many clients (more sandbox workers start for them).
      await loadClient({ url: `${base}/v1/workflows/run`, key, body, clients, total: 50 * clients });
      await settled();
      inServer.length = 0;
      const total = clients === 1 ? 1000 : 4000;
      statements = 0;
      const cpu0 = process.cpuUsage();
      const threads0 = threadCpu();
      const r = await profileWhile(`api-${clients}-clients`, async () => {
        const out = await loadClient({ url: `${base}/v1/workflows/run`, key, body, clients, total });
        await settled();
        return out;
      });
      const cpu = process.cpuUsage(cpu0);
      const statementsPerRun = statements / total;
      const threads = threadCpuSince(threads0);
      if (r.failed) console.log(`  ${r.failed} requests failed`);
      const label = `blocking run, ${clients} client${clients > 1 ? 's' : ''}`;
      print(`${label}: in the server`, `median ${fmt(quantile(inServer, 0.5))} ms, p95 ${fmt(quantile(inServer, 0.95))} ms${clients === 1 ? ' (target median <= 2 ms)' : ''}`);
      print(`${label}: at the client`, `median ${fmt(quantile(r.latencies, 0.5))} ms, p95 ${fmt(quantile(r.latencies, 0.95))} ms`);
      print(`${label}: throughput`, `${fmt((total * 1000) / r.ms, 0)} runs/s${clients === 8 ? ' (target >= 1000 runs/s)' : ''}`);
      // CPU the server's process spent per run (main thread, sandbox workers and the embedded database,
      // writes included): what a core free of other work would turn into runs per second.
      const cpuMs = (cpu.user + cpu.system) / 1000 / total;
      print(`${label}: server CPU per run`, `${fmt(cpuMs)} ms (${fmt(1000 / cpuMs, 0)} runs/s per busy core)`);
      print(`${label}: database statements per run`, `${fmt(statementsPerRun)} (batched writes of several runs, background passes included)`);
      if (threads) print(`${label}: CPU per run by thread`, `main ${fmt(threads.main / total)} ms, workers (database, sandboxes) ${fmt(threads.others / total)} ms`);
    }
  } finally {
    await studio.close();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
