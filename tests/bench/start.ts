/**
 * `npm run bench:start` (figures only, nothing asserted): how `npm start` starts and idles on data
 * that already exists, against issue 32's targets (≤ 2 s to the first 200, ≤ 300 MB idle RSS, a
 * first run ≤ 50 ms). The data directory is made once (a first start: initdb, every migration, the
 * seed, one app), then each round restarts the real `node scripts/start.mjs` (with package.json's
 * node flags) on it and measures:
 * - spawn → the first 200 of GET /healthz (wall clock: Node's own start included), with the phases
 *   the server prints on its start line;
 * - the first run of an existing app after the start, and the first run of a newly created one
 *   (start → code → end, POST …/draft/workflow-runs, the stream read to its end);
 * - the process tree's RSS after 20 s and 40 s idle (last round) with the server's own breakdown per thread
 *   (`kill -USR2`: main heap, the database thread's heap and WASM memory, the sandbox workers'), and
 *   SIGTERM → exit.
 * The server build must be current (`npm run build`, or one `npm start`); the client is not served.
 * Each figure is printed with `uptime`: on a shared machine they are only indicative.
 *
 * Run: npm run bench:start                 (a new data directory in the system's temp folder)
 *      WEFT_BENCH_DATA=/path npm run bench:start   (reuse one: later runs skip the first start)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FlowDocument } from '../../schemas/flow';
import { staleReason } from '../../scripts/build-check.mjs';
import { flow } from '../engine/kit';
import { startEnv, startFlags } from './start-flags';

const root = path.resolve(import.meta.dirname, '../..');
const ROUNDS = Number(process.env.WEFT_BENCH_ROUNDS ?? 3);
/** When the idle RSS is read, in seconds after the last round's runs (the target is judged on the later one). */
const IDLE_AT_S = [20, 40];
const PASSWORD = 'Bench-start-12345';
const dataDir = process.env.WEFT_BENCH_DATA ?? fs.mkdtempSync(path.join(os.tmpdir(), 'weft-bench-start-'));
const clientDir = path.join(dataDir, 'no-client');

const uptime = () => spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
const ms = (n: number) => `${n.toFixed(0)} ms`;

const codeFlow = (): FlowDocument =>
  flow(
    [
      ['s', 'start', { variables: [{ name: 'x', label: '', type: 'text', required: true, options: [], allowed_extensions: [] }] }],
      ['c', 'code', { inputs: [{ name: 'x', selector: ['s', 'x'] }], code: 'function main({ x }) { return { y: x.length * 2 } }', outputs: [{ name: 'y', type: 'number' }] }],
      ['e', 'end', { outputs: [{ name: 'y', selector: ['c', 'y'] }] }],
    ],
    [
      ['s', 'c'],
      ['c', 'e'],
    ],
  );

interface Started {
  child: ChildProcess;
  base: string;
  firstOkMs: number;
  line: string;
  out: () => string;
}

async function start(): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...startFlags, 'scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, ...startEnv, WEFT_PORT: '0', WEFT_HOST: '127.0.0.1', WEFT_DATA_DIR: dataDir, WEFT_CLIENT_DIR: clientDir, WEFT_ADMIN_PASSWORD: PASSWORD, WEFT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  for (;;) {
    const m = /running at (http:\/\/[^/\s]+)\//.exec(out);
    if (m) {
      // Polled from the moment the URL is printed (the server listens before it prints).
      for (;;) {
        const r = await fetch(`${m[1]}/healthz`).catch(() => null);
        if (r?.status === 200) {
          const firstOkMs = performance.now() - t0;
          while (!/Started in .*\n/.test(out)) await new Promise((res) => setTimeout(res, 5));
          return { child, base: m[1], firstOkMs, line: /Started in [^\n]*/.exec(out)![0], out: () => out };
        }
        await new Promise((res) => setTimeout(res, 5));
      }
    }
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${out}`);
    await new Promise((res) => setTimeout(res, 5));
  }
}

async function stop(s: Started): Promise<number> {
  const t0 = performance.now();
  const exited = new Promise<void>((resolve) => s.child.once('exit', () => resolve()));
  s.child.kill('SIGTERM');
  await exited;
  return performance.now() - t0;
}

async function json(res: Response) {
  const body = (await res.json()) as { code: number | string; msg: string; data: any };
  if (body.code !== 0) throw new Error(`${res.url}: ${body.code} ${body.msg}`);
  return body.data;
}

/** Signs in; answers the console's request headers for the bench's project space (made on first use). */
async function session(base: string) {
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const login = await json(await post('/api/v1/console/base/login', { tenantId: '00000000-0000-0000-0000-000000000000', username: 'admin', password: PASSWORD }));
  const auth = { authorization: `Bearer ${login.access_token}` };
  const wsFile = path.join(dataDir, 'bench-workspace.json');
  if (!fs.existsSync(wsFile)) fs.writeFileSync(wsFile, JSON.stringify(await json(await post('/api/v1/console/workspaces', { name: 'Bench start' }, auth))));
  const ws = JSON.parse(fs.readFileSync(wsFile, 'utf8')) as { id: string };
  const h = { ...auth, 'x-workspace-id': ws.id };
  const createApp = async (name: string) => {
    const a = await json(await post('/api/v1/console/apps', { name, description: name, type: 'workflow', icon: { icon: 'bot' } }, h));
    await json(await fetch(`${base}/api/v1/console/apps/workflow`, { method: 'PUT', headers: { 'content-type': 'application/json', ...h }, body: JSON.stringify({ app_id: a.id, base_revision: 1, document: codeFlow() }) }));
    return a.id as string;
  };
  /** One run, its stream read to the end: its time in ms, and whether it succeeded. */
  const run = async (appId: string) => {
    const t0 = performance.now();
    const res = await post(`/api/v1/console/apps/${appId}/draft/workflow-runs`, { inputs: { x: 'abc' } }, h);
    const text = await res.text();
    const elapsed = performance.now() - t0;
    if (res.status !== 200 || !text.includes('succeeded')) throw new Error(`workflow run: ${res.status} ${text.slice(0, 400)}`);
    return elapsed;
  };
  return { createApp, run };
}

/** The server's own memory breakdown (main.ts prints it on SIGUSR2; src/server/memory.ts). */
async function memoryLine(s: Started): Promise<string> {
  const from = s.out().length;
  s.child.kill('SIGUSR2');
  for (let i = 0; i < 400; i++) {
    const line = /Memory: [^\n]*\n/.exec(s.out().slice(from));
    if (line) return line[0];
    await new Promise((res) => setTimeout(res, 5));
  }
  return 'Memory: no answer to SIGUSR2 within 2 s';
}

/** RSS of a process and its descendants, in MB (Linux /proc). */
function treeRssMb(pid: number): number {
  const kb = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
  const children = (p: number): number[] =>
    spawnSync('ps', ['-o', 'pid=', '--ppid', String(p)], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i]!));
  return all.reduce((n, p) => n + kb(p), 0) / 1024;
}

if (staleReason(root, 'server')) {
  console.error(`The server build is not current (${staleReason(root, 'server')}): run \`npm run build\` first.`);
  process.exit(1);
}
fs.mkdirSync(clientDir, { recursive: true });
const appFile = path.join(dataDir, 'bench-app.json');
if (!fs.existsSync(appFile)) {
  console.log(`Making the data directory ${dataDir} (first start: initdb, migrations, seed, one app)…`);
  const first = await start();
  console.log(`  first start: first 200 after ${ms(first.firstOkMs)}; ${first.line.trim()}  [${uptime()}]`);
  const s = await session(first.base);
  fs.writeFileSync(appFile, JSON.stringify({ id: await s.createApp('Existing') }));
  await stop(first);
}
const existing = (JSON.parse(fs.readFileSync(appFile, 'utf8')) as { id: string }).id;

console.log(`\nRestarts on existing data (${ROUNDS}); targets: first 200 ≤ 2000 ms, first run ≤ 50 ms, idle RSS ≤ 300 MB`);
for (let round = 1; round <= ROUNDS; round++) {
  const s = await start();
  const api = await session(s.base);
  const firstRun = await api.run(existing);
  const secondRun = await api.run(existing);
  const fresh = await api.createApp(`New ${Date.now()}`);
  const newAppRun = await api.run(fresh);
  console.log(`  round ${round}: first 200 after ${ms(s.firstOkMs)}; ${s.line.trim()}  [${uptime()}]`);
  console.log(`           first run ${ms(firstRun)} (next ${ms(secondRun)}), first run of a new app ${ms(newAppRun)}  [${uptime()}]`);
  if (round === ROUNDS) {
    // Read twice: V8's memory reducer gives the young generation the start grew back about 20–25 s
    // after the start's last full GC (npm start's 64 MB semi-spaces: 355 MB at 20 s, 281–295 MB after).
    let waited = 0;
    for (const at of IDLE_AT_S) {
      await new Promise((res) => setTimeout(res, (at - waited) * 1000));
      waited = at;
      console.log(`           idle RSS after ${at} s: ${treeRssMb(s.child.pid!).toFixed(0)} MB (process tree)  [${uptime()}]`);
    }
    console.log(`         ${(await memoryLine(s)).trim()}  [${uptime()}]`);
  }
  console.log(`           SIGTERM → exit in ${ms(await stop(s))}`);
}
if (!process.env.WEFT_BENCH_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
