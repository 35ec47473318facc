import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleReason } from '../../scripts/build-check.mjs';
import { buildServer } from '../../scripts/build-server.mjs';
import { ADMIN, serverDatabaseUrl } from './harness';

// `npm start` is one process (scripts/start.mjs runs the built server in itself): SIGTERM reaches the
// server, which stops cleanly and exits 0, the port closed and no process left behind.

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-start-'));
// A client of its own, so the start does not build the real one (the build check's own test covers that).
const clientDir = path.join(dataDir, 'client');
fs.mkdirSync(clientDir);
fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Weft</title>');

let child: ChildProcess;
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
  child = spawn(process.execPath, ['scripts/start.mjs'], {
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
}, 300_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await drop?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start and SIGTERM', () => {
  it('runs the server in the one process it started, which answers', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(r.status).toBe(200);
    // No second Node process under npm start's (the builds ended before the server started).
    const children = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(child.pid)], { encoding: 'utf8' }).stdout.trim();
    expect(children).toBe('');
    expect(out).toMatch(/Started in \d+\.\d\d s: .*database open .*migrations .*listen/);
  });

  it('stops on SIGTERM: exit 0, port closed, process gone within a few seconds', async () => {
    const t0 = Date.now();
    const exit = exited();
    child.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await portOpen(port)).toBe(false);
    expect(() => process.kill(child.pid!, 0)).toThrow();
    expect(out).toContain('SIGTERM: stopping');
    expect(out).toContain('Stopped.');
  });
});
