/**
 * The environment and node flags `npm start` runs the server with (package.json's start script:
 * `exec [env K=V …] node [--flag …] scripts/start.mjs`), so a bench measures the server `npm start`
 * runs: bench:start restarts it with them, bench:portal runs its server with them (V8 reads heap flags
 * such as --max-semi-space-size only when the heap is made, so they must be node's own).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
const m = /exec (?:env ((?:\w+=\S*\s+)*))?node ((?:--\S+\s+)*)scripts\/start\.mjs/.exec(start);
if (!m) throw new Error(`package.json's start script has an unexpected form: ${start}`);

export const startEnv: Record<string, string> = Object.fromEntries(
  (m[1] ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
);
export const startFlags: string[] = (m[2] ?? '').split(/\s+/).filter(Boolean);

/**
 * Runs this bench again under `npm start`'s node flags and environment when it was started without
 * them (`npx tsx …`, or a package.json bench script that lost them), then exits with its status.
 * Call it first, before the bench does anything.
 */
export function ensureStartFlags(file: string): void {
  const missing = startFlags.filter((f) => !process.execArgv.includes(f));
  if (!missing.length) return;
  const r = spawnSync(process.execPath, [...startFlags, '--import', 'tsx', file, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...startEnv },
  });
  process.exit(r.status ?? 1);
}
