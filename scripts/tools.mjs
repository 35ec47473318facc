// Finding (and on a fresh root machine installing) the outside programs the tests need:
// Chromium for the browser tests, a PostgreSQL server for the real-server API run and MariaDB for the
// MySQL GBI test; and what the throwaway-server scripts (with-postgres, with-mariadb) share.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = () => fs.existsSync('/usr/bin/apt-get');
let aptUpdated = false;

function aptInstall(pkgs) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    console.log('[tools] apt-get update');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  console.log(`[tools] apt-get install -y ${pkgs.join(' ')}`);
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], { stdio: 'inherit', env });
}

const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** CHROMIUM_PATH, then the usual install paths, then Debian's package when we are root with apt. */
export function findChromium({ install = true } = {}) {
  if (process.env.CHROMIUM_PATH) {
    if (fs.existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
    throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
  }
  const found = CHROMIUM_CANDIDATES.find((p) => fs.existsSync(p));
  if (found) return found;
  if (install && isRoot() && hasApt()) {
    aptInstall(['chromium']);
    if (fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  throw new Error(
    'The browser tests need Chromium and none was found.\n' +
      '  Debian/Ubuntu: sudo apt-get install -y chromium   (then run npm test again)\n' +
      '  Elsewhere: install Chromium or Chrome and set CHROMIUM_PATH=/path/to/chromium',
  );
}

/** The bin directory of a PostgreSQL server install (initdb, pg_ctl), installing Debian's when root. */
export function findPostgresBin({ install = true } = {}) {
  if (process.env.PG_BIN && fs.existsSync(path.join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const look = () => {
    if (!fs.existsSync(root)) return null;
    const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')));
    versions.sort((a, b) => Number(b) - Number(a));
    return versions[0] ? path.join(root, versions[0], 'bin') : null;
  };
  let bin = look();
  if (!bin) {
    const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
    if (which) bin = path.dirname(which);
  }
  if (!bin && install && isRoot() && hasApt()) {
    aptInstall(['postgresql']);
    bin = look();
  }
  if (!bin) {
    throw new Error(
      'The real-PostgreSQL tests (the API run and the database e2e test) need a PostgreSQL server install (initdb, pg_ctl) and none was found.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y postgresql\n' +
        '  Elsewhere: install PostgreSQL 14+ and set PG_BIN to its bin directory',
    );
  }
  return bin;
}

/** mariadbd and mariadb-install-db (Debian's mariadb-server), installing it when root with apt. */
export function findMariadb({ install = true } = {}) {
  const look = () => {
    const server = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((p) => fs.existsSync(p)) ?? spawnSync('sh', ['-c', 'command -v mariadbd'], { encoding: 'utf8' }).stdout.trim();
    const installDb = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((p) => fs.existsSync(p)) ?? spawnSync('sh', ['-c', 'command -v mariadb-install-db'], { encoding: 'utf8' }).stdout.trim();
    return server && installDb ? { server, installDb } : null;
  };
  let found = look();
  if (!found && install && isRoot() && hasApt()) {
    aptInstall(['mariadb-server']);
    found = look();
  }
  if (!found) {
    throw new Error(
      'The GBI MySQL test needs a MariaDB (or MySQL) server install (mariadbd, mariadb-install-db) and none was found.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y mariadb-server\n' +
        '  Elsewhere: install MariaDB 10.6+ so that mariadbd and mariadb-install-db are on the PATH',
    );
  }
  return found;
}

/** Launch arguments for headless Chromium on these machines (no sandbox as root, no background network). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];


/** A free TCP port on 127.0.0.1 (a throwaway server's). */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

/** Runs `run(url)` with a throwaway server made by `start()` (`{ url, stop }`), stopped afterwards. */
export async function withServer(start, run) {
  const server = await start();
  try {
    return await run(server.url);
  } finally {
    server.stop();
  }
}

/**
 * A with-… script's command line: `node scripts/with-x.mjs <command> [args…]` runs the command with
 * `envName` set to a throwaway server's URL and exits with its code.
 */
export async function runWithServerEnv(start, envName) {
  const [cmd, ...args] = process.argv.slice(2);
  const code = await withServer(
    start,
    (url) =>
      new Promise((resolve) => {
        const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, [envName]: url }, shell: process.platform === 'win32' });
        child.on('exit', (c) => resolve(c ?? 1));
      }),
  );
  process.exit(code);
}
