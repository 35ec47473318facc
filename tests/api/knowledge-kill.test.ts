import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import type { Db } from '../../src/server/db/client';
import { datasetTaskLogs, datasetTasks } from '../../src/server/db/schema';
import { createStudio, type Studio } from '../../src/server/server';
import { Settings } from '../../src/server/settings';
import { ADMIN, useStudio } from './harness';
import { multipartBody, RULE } from './knowledge-kit';
import { startCluster, type Cluster } from './scale-kit';

// A server process killed with SIGKILL in the middle of an ingestion (issue 34): another process
// finishes the task, with exactly one set of segments and vectors (the same as a run that nobody
// killed), the task done and its log saying it was started again.
// On a PostgreSQL server: three server processes behind the loopback proxy (scale-kit), short leases
// so that pg-boss's maintenance gives the dead process's job to another within seconds; this file's
// own studio takes no jobs (WEFT_JOBS_WORK=false), so every task runs in a process that can be killed.
// On the embedded database, one process owns the data directory: the server runs in a child, is
// killed, and the next server on that directory (this file's) takes the job back at its start.

const onServer = !!process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-kill-ingest-'));
const CHILD_ENV = { WEFT_DATA_DIR: dataDir, WEFT_JOBS_POLL_MS: '500', WEFT_JOBS_LEASE_SECONDS: '3', WEFT_JOBS_MAINTENANCE_SECONDS: '1', WEFT_ADMIN_USER: ADMIN.username, WEFT_ADMIN_PASSWORD: ADMIN.password };
const h = onServer ? useStudio({ jobsWork: 'false', dataDir }) : null;
let cluster: Cluster | undefined;
let child: ChildProcess | undefined;
let studio: Studio | undefined;
let base = '';

afterAll(async () => {
  child?.kill('SIGKILL');
  await cluster?.stop();
  await studio?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The embedded database: the template's data directory, and a server process on it. */
async function startChild(): Promise<string> {
  const pgdata = path.join(dataDir, 'pgdata');
  fs.mkdirSync(pgdata, { recursive: true });
  execFileSync('tar', ['-xf', inject('pgTemplate'), '-C', pgdata]);
  const root = path.resolve(import.meta.dirname, '..', '..');
  child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: { ...process.env, ...CHILD_ENV, DATABASE_URL: '', WEFT_PORT: '0', WEFT_HOST: '127.0.0.1', WEFT_LOG_LEVEL: 'silent', WEFT_CLIENT_DIR: '/nonexistent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise<string>((resolve, reject) => {
    child!.stdout!.on('data', (b: Buffer) => {
      output += b.toString();
      const m = output.match(/running at (http:\/\/[^\s/]+)\//);
      if (m) resolve(m[1]);
    });
    child!.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    child!.on('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

beforeAll(async () => {
  if (onServer) {
    cluster = await startCluster(h!, 3, CHILD_ENV);
    base = cluster.url;
  } else base = await startChild();
}, 200_000);

let token = '';
let ws = '';
async function api(method: string, url: string, body?: unknown, raw?: { payload: Buffer; contentType: string }) {
  const r = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(ws ? { 'x-workspace-id': ws } : {}), ...(raw ? { 'content-type': raw.contentType } : body ? { 'content-type': 'application/json' } : {}) },
    body: raw ? new Uint8Array(raw.payload) : body ? JSON.stringify(body) : undefined,
  });
  const json = (await r.json()) as { code: number | string; data: any };
  expect(json.code, JSON.stringify(json)).toBe(0);
  return json.data;
}

/** About `lines` numbered lines of mixed text; every segment is different. */
const bigText = (lines: number) => Array.from({ length: lines }, (_, i) => `line ${i}: the manual explains part ${i} of the product 以及第${i}部分的中文说明。`).join('\n');

async function addUnit(datasetId: string, name: string, text: string) {
  const file = (await api('POST', '/console/files/upload', undefined, await multipartBody({ biz_type: 'dataset' }, { name, bytes: text }))).id as string;
  const [unit] = await api('POST', `/console/datasets/${datasetId}/documents`, { process_rule: RULE, file_ids: [file] });
  return unit as { id: string; task_id: string };
}

async function waitUnit(datasetId: string, id: string, test: (d: any) => boolean, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const d = await api('GET', `/console/datasets/${datasetId}/documents/${id}`);
    if (test(d)) return d;
    if (Date.now() > until) throw new Error(`unit ${id}: still ${d.status} (${d.progress})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const ended = (d: any) => ['completed', 'failed', 'cancelled'].includes(d.status);

async function counts(db: Db, documentId: string) {
  const r = await db.execute(sql`select count(*)::int as segments,
    -- A vector in either column: embedding_v (pgvector) where the server has it, else embedding.
    count(*) filter (where s.embedding is not null or to_jsonb(s) ->> 'embedding_v' is not null)::int as vectors, count(distinct position)::int as positions,
    string_agg(md5(content), ',' order by position) as digest from dataset_segments s where document_id = ${documentId}::uuid`);
  return (r as unknown as { rows: { segments: number; vectors: number; positions: number; digest: string }[] }).rows[0]!;
}

describe('a server process killed with SIGKILL mid-ingestion', () => {
  it('another process finishes the task: one set of segments and vectors, done, retried in its log', { timeout: 120_000 }, async () => {
    token = (await api('POST', '/console/base/login', { tenantId: DEFAULT_TENANT_ID, ...ADMIN })).access_token;
    ws = (await api('POST', '/console/workspaces', { name: 'Killed ingestion' })).id;
    const ds = (await api('POST', '/console/datasets', { name: 'Kill', description: '' })).id as string;
    const text = bigText(1_500);
    // The reference: the same file, ingested by one process that nobody kills.
    const reference = await addUnit(ds, 'reference.txt', text);
    expect((await waitUnit(ds, reference.id, ended)).status).toBe('completed');

    const unit = await addUnit(ds, 'killed.txt', text);
    await waitUnit(ds, unit.id, (d) => d.status === 'indexing' && d.progress >= 0.3);
    if (onServer) {
      // The owner, from the task's record (host:pid:worker).
      const [task] = await h!.studio.ctx.db.select().from(datasetTasks).where(eq(datasetTasks.id, unit.task_id));
      const pid = Number(task!.lockedBy!.split(':')[1]);
      expect(cluster!.pids).toContain(pid);
      process.kill(pid, 'SIGKILL');
      // Ask the survivors from now on.
      cluster!.route(cluster!.pids.findIndex((p) => p !== pid));
    } else {
      child!.kill('SIGKILL');
      await new Promise((r) => (child!.exitCode !== null || child!.signalCode !== null ? r(null) : child!.once('exit', r)));
      studio = await createStudio(Settings.parse({ adminUser: ADMIN.username, adminPassword: ADMIN.password, dataDir, clientDir: '/nonexistent', logLevel: 'silent' }));
      base = await studio.app.listen({ port: 0, host: '127.0.0.1' });
    }
    const done = await waitUnit(ds, unit.id, ended, 60_000);
    expect(done.status, done.error).toBe('completed');

    const db = onServer ? h!.studio.ctx.db : studio!.ctx.db;
    const want = await counts(db, reference.id);
    const got = await counts(db, unit.id);
    expect(want.segments).toBeGreaterThan(100);
    expect(want.vectors).toBe(want.segments);
    expect(got).toEqual(want);
    const [task] = await db.select().from(datasetTasks).where(eq(datasetTasks.id, unit.task_id));
    expect(task).toMatchObject({ status: 'completed', attempts: 2, lockedBy: null, progress: 1 });
    const messages = (await db.select().from(datasetTaskLogs).where(eq(datasetTaskLogs.taskId, unit.task_id)).orderBy(datasetTaskLogs.id)).map((l) => l.message);
    expect(messages.filter((m) => m.startsWith('Started again (attempt 2 of 3)'))).toHaveLength(1);
    expect(messages.filter((m) => m === 'Completed')).toHaveLength(1);
  });
});
