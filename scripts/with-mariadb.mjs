// Runs a command with GBI_MYSQL_URL pointing at a throwaway MariaDB server started here (a data dir
// in a temp dir, a free port on 127.0.0.1, stopped and removed afterwards): the MySQL source of the
// GBI test (tests/api/gbi-mysql.test.ts). Usage: node scripts/with-mariadb.mjs npx vitest run …
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findMariadb, freePort, runWithServerEnv, withServer } from './tools.mjs';

const portOpen = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

// Small and unsafe on purpose: a test server that lives for seconds (no binary log, no fsync).
const SERVER_ARGS = ['--skip-log-bin', '--innodb-buffer-pool-size=16M', '--innodb-log-file-size=8M', '--innodb-flush-log-at-trx-commit=0', '--innodb-doublewrite=0', '--skip-name-resolve', '--performance-schema=0'];

/**
 * Starts a throwaway MariaDB server with a database `weft` and a user `weft` (random password, all
 * rights on `weft`). Call `stop()` to stop it and remove its files. Throws, saying how to install
 * MariaDB, when no server install is found (and it cannot be installed).
 */
export async function startMariadb() {
  const { server, installDb } = findMariadb();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-maria-'));
  const data = path.join(dir, 'data');
  const socket = path.join(dir, 'sock');
  const port = await freePort();
  // mariadbd will not run as root unless told which user: the package's `mysql` user then.
  const user = asRoot ? (spawnSync('id', ['mysql']).status === 0 ? 'mysql' : 'root') : os.userInfo().username;
  if (asRoot) fs.chmodSync(dir, 0o777);
  execFileSync(installDb, ['--no-defaults', `--datadir=${data}`, `--user=${user}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...SERVER_ARGS], { stdio: 'pipe' });
  const child = spawn(server, ['--no-defaults', `--datadir=${data}`, `--user=${user}`, `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${socket}`, `--pid-file=${path.join(dir, 'pid')}`, ...SERVER_ARGS], {
    stdio: ['ignore', 'ignore', fs.openSync(path.join(dir, 'log'), 'a')],
  });
  const stop = () => {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const started = Date.now();
  while (!(await portOpen(port))) {
    if (child.exitCode !== null || Date.now() - started > 30_000) {
      const log = fs.existsSync(path.join(dir, 'log')) ? fs.readFileSync(path.join(dir, 'log'), 'utf8').slice(-2000) : '';
      stop();
      throw new Error(`[with-mariadb] mariadbd did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const password = randomBytes(12).toString('hex');
  const client = ['/usr/bin/mariadb', '/usr/bin/mysql'].find((p) => fs.existsSync(p)) ?? 'mariadb';
  execFileSync(client, ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', `CREATE DATABASE weft; CREATE USER 'weft'@'%' IDENTIFIED BY '${password}'; GRANT ALL ON weft.* TO 'weft'@'%';`], { stdio: 'pipe' });
  const url = `mysql://weft:${password}@127.0.0.1:${port}/weft`;
  console.log(`[with-mariadb] MariaDB on ${url.replace(password, '***')} (${Date.now() - started} ms after install)`);
  return { url, host: '127.0.0.1', port, user: 'weft', password, database: 'weft', stop };
}

/** Runs `run(url)` with a throwaway server (see {@link startMariadb}), stopped afterwards. */
export const withMariadb = (run) => withServer(startMariadb, run);

if (import.meta.url === `file://${process.argv[1]}`) await runWithServerEnv(startMariadb, 'GBI_MYSQL_URL');
