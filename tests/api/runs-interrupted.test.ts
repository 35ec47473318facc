import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeExecutions, runs } from '../../src/server/db/schema';
import { RUN_INTERRUPTED, sweepOrphanedRuns } from '../../src/server/runs/sweep';
import { createStudio, type Studio } from '../../src/server/server';
import { Settings } from '../../src/server/settings';
import { ADMIN, serverDatabaseUrl } from './harness';
import { flow, readSse } from './runs-kit';

// A server killed with SIGKILL in the middle of a run (issue 20, finding 12): the real server runs
// in a child process on a database of its own (a data directory, or a new database on the
// PostgreSQL server of DATABASE_URL); once two nodes have ended and the third waits for an HTTP
// answer that never comes, the child is killed. The database, opened again, must say what happened:
// the run interrupted with the two steps done, the two nodes succeeded, the third one's row there
// and ended as interrupted.

const root = path.resolve(import.meta.dirname, '..', '..');
let child: ChildProcess | undefined;
let studio: Studio | undefined;
let dataDir: string | undefined;
let drop: (() => Promise<void>) | undefined;
let hang: http.Server | undefined;

afterAll(async () => {
  child?.kill('SIGKILL');
  await studio?.close();
  await drop?.();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  hang?.closeAllConnections();
  hang?.close();
});

/** Starts `npm start`'s entry on the database; answers its URL. */
async function startServer(env: Record<string, string>): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: { ...process.env, WEFT_PORT: '0', WEFT_HOST: '127.0.0.1', WEFT_ADMIN_USER: ADMIN.username, WEFT_ADMIN_PASSWORD: ADMIN.password, WEFT_LOG_LEVEL: 'silent', WEFT_CLIENT_DIR: '/nonexistent', WEFT_OUTBOUND_ALLOW: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
    child!.stdout!.on('data', (b: Buffer) => {
      output += b.toString();
      const m = output.match(/running at (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child!.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    child!.on('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

async function api(base: string, method: string, url: string, token: string | undefined, body?: unknown, workspaceId?: string) {
  const r = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await r.json()) as { code: number | string; data: any };
  expect(json.code, JSON.stringify(json)).toBe(0);
  return json.data;
}

describe('a server killed mid-run', () => {
  it('leaves the finished nodes and the running one stored; the sweep ends the run with its steps', { timeout: 180_000 }, async () => {
    // The third node's request is taken and never answered.
    let requested!: () => void;
    const reached = new Promise<void>((r) => (requested = r));
    hang = http.createServer(() => requested());
    await new Promise<void>((r) => hang!.listen(0, '127.0.0.1', r));
    const hangUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/wait`;

    let databaseUrl: string | undefined;
    if (process.env.DATABASE_URL) {
      const made = await serverDatabaseUrl(process.env.DATABASE_URL);
      databaseUrl = made.url;
      drop = made.drop;
    } else dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-kill-'));
    const base = await startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : { WEFT_DATA_DIR: dataDir!, DATABASE_URL: '' });

    const token = (await api(base, 'POST', '/console/base/login', undefined, { tenantId: '00000000-0000-0000-0000-000000000000', ...ADMIN })).access_token as string;
    const ws = (await api(base, 'POST', '/console/workspaces', token, { name: 'Killed' })).id as string;
    const doc = flow(
      [
        ['s', 'start'],
        ['t', 'template-transform', { inputs: [], template: 'one' }],
        ['h', 'http-request', { method: 'get', url: hangUrl, readTimeoutSeconds: 600 }],
        ['e', 'end', { outputs: [{ name: 'out', selector: ['h', 'body'] }] }],
      ],
      [
        ['s', 't'],
        ['t', 'h'],
        ['h', 'e'],
      ],
    );
    const app = (await api(base, 'POST', '/console/apps', token, { name: 'Killed', description: 'Killed mid-run', type: 'workflow', icon: { icon: 'bot' } }, ws)).id as string;
    const draft = await api(base, 'GET', `/console/apps/${app}/workflow`, token, undefined, ws);
    await api(base, 'PUT', '/console/apps/workflow', token, { app_id: app, base_revision: draft.revision, document: doc }, ws);

    const res = await fetch(`${base}/api/v1/console/apps/${app}/draft/workflow-runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-workspace-id': ws, 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: {} }),
    });
    let runId = '';
    for await (const e of readSse(res.body!)) {
      if (e.type === 'run_created') runId = e.runId;
      if (e.type === 'node_started' && e.nodeId === 'h') break;
    }
    await reached;
    // The recorder writes within 100 ms; give it ample time, then kill the server without warning.
    await new Promise((r) => setTimeout(r, 1500));
    child!.kill('SIGKILL');
    await new Promise((r) => (child!.exitCode !== null || child!.signalCode !== null ? r(null) : child!.once('exit', r)));

    // Open the database again as a restarted server does (on the embedded database its start sweeps).
    studio = await createStudio(
      Settings.parse({ adminUser: ADMIN.username, adminPassword: ADMIN.password, databaseUrl, dataDir: dataDir ?? os.tmpdir(), clientDir: '/nonexistent', logLevel: 'silent' }),
    );
    // A shared server sweeps only runs older than the run-time limit; ask for all of them here.
    if (databaseUrl) await sweepOrphanedRuns({ db: studio.ctx.db, kind: 'postgres' }, { all: true });

    const db = studio.ctx.db;
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    const nodes = await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId)).orderBy(asc(nodeExecutions.seq));
    expect({ status: run.status, error: run.error, steps: run.steps, finished: run.finishedAt !== null }).toEqual({ status: 'failed', error: RUN_INTERRUPTED, steps: 2, finished: true });
    expect(nodes.map((n) => [n.nodeId, n.status])).toEqual([
      ['s', 'succeeded'],
      ['t', 'succeeded'],
      ['h', 'failed'],
    ]);
    const h = nodes[2];
    expect(h.error).toEqual(RUN_INTERRUPTED);
    expect(h.inputs).toBeTruthy();
    expect(h.finishedAt).not.toBeNull();
  });
});
