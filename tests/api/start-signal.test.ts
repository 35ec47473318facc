import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleReason } from '../../scripts/build-check.mjs';
import { buildServer } from '../../scripts/build-server.mjs';
import { ADMIN, serverDatabaseUrl } from './harness';

// `npm start` is one server process (scripts/start.mjs runs the built server in itself, and the npm
// script execs it, so no shell stands between): SIGTERM to npm's process reaches the server, which
// stops cleanly and exits 0, the port closed and no process left behind (before `exec`, npm's shell
// took the signal and the server went on running, orphaned).

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-start-'));
// A client of its own, so the start does not build the real one (the build check's own test covers that).
const clientDir = path.join(dataDir, 'client');
fs.mkdirSync(clientDir);
fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Weft</title>');

/** npm's process, and the server's (its one child). */
let child: ChildProcess;
let server = 0;
let out = '';
let drop: (() => Promise<void>) | undefined;
let port = 0;

const exited = () => new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
const portOpen = (p: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(p, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

beforeAll(async () => {
  // What `npm start` would build first, built here so the test's time goes to the start itself.
  if (staleReason(root, 'server')) await buildServer(root);
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) ({ url: databaseUrl, drop } = await serverDatabaseUrl(process.env.DATABASE_URL));
  child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      WEFT_PORT: '0',
      WEFT_HOST: '127.0.0.1',
      WEFT_DATA_DIR: dataDir,
      WEFT_CLIENT_DIR: clientDir,
      WEFT_ADMIN_USER: ADMIN.username,
      WEFT_ADMIN_PASSWORD: ADMIN.password,
      WEFT_LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const started = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /running at http:\/\/[^:]+:(\d+)\//.exec(out);
      if (m) clearInterval(timer), resolve(Number(m[1]));
      else if (child.exitCode !== null) clearInterval(timer), reject(new Error(`npm start exited ${child.exitCode}:\n${out}`));
    }, 50);
  });
  port = started;
  server = Number(childrenOf(child.pid!)[0]?.split(/\s+/)[0]);
}, 300_000);

/** `pid command` lines of a process's children. */
const childrenOf = (pid: number) =>
  spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(async () => {
  if (server && alive(server)) process.kill(server, 'SIGKILL');
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await drop?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start and SIGTERM', () => {
  it('runs the server in the one process it started, which answers', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(r.status).toBe(200);
    // npm's one child is the server itself (no shell), and the server has none (the builds ended before it started).
    expect(childrenOf(child.pid!)).toEqual([`${server} node --max-semi-space-size=64 scripts/start.mjs`]);
    expect(childrenOf(server)).toEqual([]);
    expect(out).toMatch(/Started in \d+\.\d\d s: .*database open .*migrations .*listen/);
  });

  it('prints where its memory is, per thread, on SIGUSR2 (and goes on serving)', async () => {
    process.kill(server, 'SIGUSR2');
    const t0 = Date.now();
    while (!out.includes('Memory: ') && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 20));
    const line = /Memory: [^\n]*/.exec(out)?.[0] ?? '';
    expect(line).toMatch(/^Memory: RSS \d+ MB \(anonymous \d+ MB, files \d+ MB\); main thread heap \d+ MB \(used \d+ MB\), external \d+ MB; /);
    // The embedded database reports from its thread; one sandbox worker is kept warm, with its QuickJS memory.
    expect(line).toMatch(process.env.DATABASE_URL ? /; database not in a thread of this process; / : /; database thread heap \d+ MB, its WASM memory [1-9]\d* MB; /);
    // Workers started on first use (indexing, a broadcast's frames, SVG portraits) are not running in an idle server.
    expect(line).toMatch(/; sandbox 1 worker, heap [1-9]\d* MB and WASM [1-9]\d* MB; indexing worker stopped; video frames worker stopped; SVG worker stopped; malloc arenas [1-9]\d* MB$/);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });

  it('stops on SIGTERM to npm start: exit 0, port closed, process gone within a few seconds', async () => {
    const t0 = Date.now();
    const exit = exited();
    child.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
    while (alive(server) && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
    expect(alive(server)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await portOpen(port)).toBe(false);
    expect(out).toContain('SIGTERM: stopping');
    expect(out).toContain('Stopped.');
  });
});
