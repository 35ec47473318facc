// Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL server started here
// (initdb in a temp dir, a free port on 127.0.0.1, stopped and removed afterwards).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin, freePort, runWithServerEnv, withServer } from './tools.mjs';

/**
 * Starts a throwaway PostgreSQL server (initdb in a temp dir, a free port on 127.0.0.1, user `weft`
 * with a random password over TCP). Call `stop()` to stop it and remove its files. Throws, saying
 * how to install PostgreSQL, when no server install is found (and it cannot be installed).
 */
export async function startPostgres() {
  const bin = findPostgresBin();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  // initdb refuses to run as root: run the server as the 'postgres' system user then.
  const as = (cmd, args) => {
    if (!asRoot) return execFileSync(cmd, args, { stdio: 'pipe' });
    const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
  };
  // TCP connections need the password (scram-sha-256), so tests can see a wrong password fail;
  // the local socket stays trust for pg_ctl.
  const password = randomBytes(12).toString('hex');
  const pwfile = path.join(dir, 'pwfile');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (asRoot) {
    spawnSync('id', ['postgres']).status === 0 || execFileSync('useradd', ['--system', '--no-create-home', 'postgres']);
    fs.chmodSync(dir, 0o777);
    execFileSync('chown', ['-R', 'postgres', dir]);
  }
  as(path.join(bin, 'initdb'), ['-D', data, '-U', 'weft', '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C']);
  fs.rmSync(pwfile, { force: true });
  as(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start']);
  const url = `postgres://weft:${password}@127.0.0.1:${port}/postgres`;
  console.log(`[with-postgres] PostgreSQL (${path.basename(path.dirname(bin))}) on ${url.replace(password, '***')}`);
  const stop = () => {
    try {
      as(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
    } catch (e) {
      console.error('[with-postgres] stop failed', e.message);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url, host: '127.0.0.1', port, user: 'weft', password, database: 'postgres', stop };
}

/** Runs `run(url)` with a throwaway server (see {@link startPostgres}), stopped afterwards. */
export const withPostgres = (run) => withServer(startPostgres, run);

if (import.meta.url === `file://${process.argv[1]}`) await runWithServerEnv(startPostgres, 'DATABASE_URL');
