import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { datasetDocuments, datasetSegments, datasetTaskLogs, datasetTasks } from '../../src/server/db/schema';
import { jobsOf } from '../../src/server/jobs/boss';
import { clientAdapter } from '../../src/server/jobs/db-adapter';
import { enqueueTask, MAX_ATTEMPTS, runQueuedTasksNow } from '../../src/server/knowledge/queue';
import { segmentText } from '../../src/server/knowledge/segment';
import { createStudio, type Studio } from '../../src/server/server';
import { Settings } from '../../src/server/settings';
import { ADMIN, DEFAULT_TENANT_ID, serverDatabaseUrl, type Harness } from './harness';
import { addUnits, createBase, RULE, startPageServer, uploadOk, waitFor, waitUnit } from './knowledge-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The knowledge queue on pg-boss: a server closed in the middle of an ingestion gives the task back, and
// the next server on the same data directory finishes it exactly once; a process that died (its job's
// lease expired) is taken over, a task whose process keeps dying fails (dead-letter queue); stop
// mid-task removes the partial segments, cancel-queue cancels the job; a long task of one knowledge base
// does not hold up a short one of another.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-queue-'));
// The local page server of the URL units (127.0.0.1) is open to the outbound policy.
let settings = Settings.parse({ adminUser: ADMIN.username, adminPassword: ADMIN.password, dataDir: dir, clientDir: '/nonexistent', logLevel: 'silent', outboundAllow: '127.0.0.1' });
// On a PostgreSQL server (DATABASE_URL): a database of this file's own, shared by the successive servers.
let dropDatabase: (() => Promise<void>) | undefined;
let studio: Studio;
const h = {} as Harness;
let f: Fixture;
let ds: string;

async function open(first: boolean) {
  if (first && process.env.DATABASE_URL) {
    const made = await serverDatabaseUrl(process.env.DATABASE_URL);
    dropDatabase = made.drop;
    settings = { ...settings, databaseUrl: made.url };
  }
  studio = await createStudio(settings, first && !settings.databaseUrl ? { loadDataDir: fs.readFileSync(inject('pgTemplate')) } : {});
  h.studio = studio;
}

beforeAll(async () => {
  await open(true);
  // This file is about the queue, not vector search: without the nearest-neighbour index (an operator
  // may drop it; retrieval then searches exactly) its units of 1,100 segments are stored several times
  // faster, so a restart test does not take minutes on a loaded machine.
  await studio.ctx.db.execute(sql`DROP INDEX IF EXISTS dataset_segments_hnsw_256`);
  h.call = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.workspaceId) headers['x-workspace-id'] = opts.workspaceId;
    const query = opts.query ? Object.fromEntries(Object.entries(opts.query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])) : undefined;
    const raw = await h.studio.app.inject({ method: method as never, url, headers, query, payload: opts.body as never });
    let body;
    try {
      body = raw.json();
    } catch {
      body = { code: 'NOT_JSON', msg: raw.body, data: null };
    }
    return { status: raw.statusCode, body, raw };
  };
  h.login = async (username, password, tenantId = DEFAULT_TENANT_ID) => {
    const r = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId, username, password } });
    if (r.status !== 200) throw new Error(`login failed ${JSON.stringify(r.body)}`);
    return r.body.data.access_token as string;
  };
  f = await setUpWorkspaces(h, 'queue');
  ds = await createBase(h, f.u.member.token, f.wsA, 'Queue');
}, 120_000);

afterAll(async () => {
  await studio?.close();
  await dropDatabase?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** About `lines` numbered lines of mixed text; every segment is different. */
const bigText = (lines: number, tag: string) =>
  Array.from({ length: lines }, (_, i) => `${tag} line ${i}: the manual explains part ${i} of the product 以及第${i}部分的中文说明。`).join('\n');

const segmentCount = (documentId: string) =>
  studio.ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(datasetSegments)
    .where(eq(datasetSegments.documentId, documentId))
    .then((r) => Number(r[0]!.n));

describe('restart during ingestion', () => {
  it('gives the task back on close and the next server finishes it exactly once', async () => {
    const text = bigText(8_000, 'restart');
    const expected = segmentText(text, RULE).map((d) => d.content);
    const file = await uploadOk(h, f.u.member.token, f.wsA, 'big.txt', text);
    const [unit] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file] });
    // Close in the middle of vectorising: some segments are already stored.
    await waitFor(h, f.u.member.token, f.wsA, ds, unit.id, (d) => d.status === 'indexing', 60_000);
    const until = Date.now() + 30_000;
    while ((await segmentCount(unit.id)) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const partial = await segmentCount(unit.id);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expected.length);
    await studio.close();

    await open(false);
    const f2 = { ...f, u: { ...f.u, member: { ...f.u.member, token: await h.login('queue_member', 'Passw0rd123') } } };
    const done = await waitUnit(h, f2.u.member.token, f2.wsA, ds, unit.id, 120_000);
    expect(done.status, done.error).toBe('completed');
    const rows = await studio.ctx.db.select({ content: datasetSegments.content, position: datasetSegments.position }).from(datasetSegments).where(eq(datasetSegments.documentId, unit.id)).orderBy(datasetSegments.position);
    expect(rows.length).toBe(expected.length);
    expect(rows.map((r) => r.content)).toEqual(expected);
    expect(new Set(rows.map((r) => r.position)).size).toBe(rows.length);
    const [task] = await studio.ctx.db.select().from(datasetTasks).where(eq(datasetTasks.id, unit.task_id));
    expect(task).toMatchObject({ status: 'completed', attempts: 2, lockedBy: null, progress: 1 });
    const logs = await studio.ctx.db.select().from(datasetTaskLogs).where(eq(datasetTaskLogs.taskId, unit.task_id)).orderBy(datasetTaskLogs.id);
    const messages = logs.map((l) => l.message);
    expect(messages).toContain('The server stopped; the task goes back to the queue');
    expect(messages.filter((m) => m === 'Completed').length).toBe(1);
    // Nothing stuck: no task queued or running.
    const open_ = await studio.ctx.db.select().from(datasetTasks).where(inArray(datasetTasks.status, ['queued', 'running']));
    expect(open_).toEqual([]);
    f.u.member.token = f2.u.member.token;
  }, 240_000);
});

describe('dead processes', () => {
  it('takes over a task whose lease expired, and fails one that died too often', async () => {
    const leased = 'Leased text that is long enough to be cut into two segments.\n\n租约文本。';
    const file = await uploadOk(h, f.u.member.token, f.wsA, 'lease.txt', leased);
    const [unit] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file] });
    await waitUnit(h, f.u.member.token, f.wsA, ds, unit.id);
    const [doc] = await studio.ctx.db.select().from(datasetDocuments).where(eq(datasetDocuments.id, unit.id));
    // As if another process had taken the task's job and died on its attempt `attempts` (pg-boss counts
    // retries from 0): the job active with a lease that has run out, the task running under that process.
    const dead = async (attempts: number) => {
      // One transaction: the worker must not see the job while it is still queued.
      return studio.ctx.db.transaction(async (tx) => {
        const t = await enqueueTask(studio.ctx, { tenantId: doc!.tenantId, workspaceId: f.wsA, datasetId: ds, documentId: doc!.id, type: 'normal', createdBy: f.u.member.id }, tx);
        await tx.execute(sql`update pgboss.job set state = 'active', started_on = now() - interval '1 hour', expire_in = interval '1 second', retry_count = ${attempts - 1}::int where id = ${t.id}::uuid`);
        await tx
          .update(datasetTasks)
          .set({ status: 'running', lockedBy: 'dead-host:1:x', lockedUntil: new Date(Date.now() - 1000), attempts })
          .where(eq(datasetTasks.id, t.id));
        return t.id;
      });
    };
    // pg-boss's maintenance (every WEFT_JOBS_MAINTENANCE_SECONDS, in any process) expires such jobs: run it now.
    const expire = () => (jobsOf(studio.ctx.db)!.boss as unknown as { expire(): Promise<void> }).expire();
    const retried = await dead(1);
    await expire();
    await runQueuedTasksNow(studio.ctx);
    const [r] = await studio.ctx.db.select().from(datasetTasks).where(eq(datasetTasks.id, retried));
    expect(r).toMatchObject({ status: 'completed', attempts: 2 });
    expect(await segmentCount(unit.id)).toBe(segmentText(leased, RULE).length);
    const logs = await studio.ctx.db.select().from(datasetTaskLogs).where(eq(datasetTaskLogs.taskId, retried));
    expect(logs.map((l) => l.message)).toContain("Started again (attempt 2 of 3): the previous attempt's server stopped before it ended");
    const exhausted = await dead(MAX_ATTEMPTS);
    await expire();
    await runQueuedTasksNow(studio.ctx);
    const [x] = await studio.ctx.db.select().from(datasetTasks).where(eq(datasetTasks.id, exhausted));
    expect(x!.status).toBe('failed');
    expect(x!.error).toContain('too many times');
    const shown = expectOk(await h.call('GET', `/api/v1/console/datasets/${ds}/documents/${unit.id}`, { token: f.u.member.token, workspaceId: f.wsA }));
    expect(shown).toMatchObject({ status: 'failed', task_id: exhausted });
  });
});

describe('a job completing during a stop', () => {
  it('is not lost: its completion after the stop changes nothing, and its lease gives it to a worker again', async () => {
    const boss = jobsOf(studio.ctx.db)!.boss;
    // A queue of this test's own: no worker of the server takes its jobs.
    const queue = 'test-stop-race';
    await boss.createQueue(queue, { name: queue, policy: 'standard', retryLimit: 1, retryDelay: 0, expireInSeconds: 60 });
    const id = await boss.send(queue, { n: 1 });
    const [taken] = await boss.fetch(queue);
    expect(taken!.id).toBe(id);
    // pg-boss's worker completes a job without awaiting it: after the stop, through the closed adapter.
    const closed = clientAdapter({ db: studio.ctx.db, kind: settings.databaseUrl ? 'postgres' : 'pglite' });
    closed.close();
    await expect(boss.complete(queue, id!, {}, { db: closed })).resolves.toMatchObject({ affected: 0 });
    expect(await boss.getJobById(queue, id!)).toMatchObject({ state: 'active' });
    // Its lease runs out (as if its 60 s had passed) and the maintenance, in any process, retries it.
    await studio.ctx.db.execute(sql`update pgboss.job set started_on = now() - interval '2 minutes' where name = ${queue} and id = ${id}::uuid`);
    await (boss as unknown as { expire(): Promise<void> }).expire();
    const [again] = await boss.fetch(queue, { includeMetadata: true });
    expect(again).toMatchObject({ id, retryCount: 1 });
    await boss.complete(queue, id!);
    expect(await boss.getJobById(queue, id!)).toMatchObject({ state: 'completed' });
  });
});

describe('stop and cancel', () => {
  it('stops a task mid-vectorising (partial segments removed) and cancels the queued one behind it', async () => {
    const text = bigText(8_000, 'stop');
    const [a, b] = [await uploadOk(h, f.u.member.token, f.wsA, 'stop-a.txt', text), await uploadOk(h, f.u.member.token, f.wsA, 'stop-b.txt', 'small one')];
    const [ua, ub] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [a, b] });
    await waitFor(h, f.u.member.token, f.wsA, ds, ua.id, (d) => d.status === 'indexing', 60_000);
    const queued = expectOk(await h.call('GET', `/api/v1/console/datasets/${ds}/documents/${ub.id}`, { token: f.u.member.token, workspaceId: f.wsA }));
    expect(queued).toMatchObject({ status: 'queued', queue_position: 1 });
    expectOk(await h.call('POST', `/api/v1/console/datasets/${ds}/tasks/${ub.task_id}/cancel-queue`, { token: f.u.member.token, workspaceId: f.wsA }));
    expectOk(await h.call('POST', `/api/v1/console/datasets/${ds}/tasks/${ua.task_id}/stop`, { token: f.u.member.token, workspaceId: f.wsA }));
    const stopped = await waitUnit(h, f.u.member.token, f.wsA, ds, ua.id);
    expect(stopped).toMatchObject({ status: 'cancelled', segment_count: 0 });
    expect(await segmentCount(ua.id)).toBe(0);
    expect((await waitUnit(h, f.u.member.token, f.wsA, ds, ub.id)).status).toBe('cancelled');
    await runQueuedTasksNow(studio.ctx);
    expect(await segmentCount(ub.id)).toBe(0);
    const [tb] = await studio.ctx.db.select().from(datasetTasks).where(eq(datasetTasks.id, ub.task_id));
    expect(tb).toMatchObject({ status: 'cancelled', attempts: 0 });
  }, 120_000);

  it('keeps a task deleted with its unit from doing anything', async () => {
    const file = await uploadOk(h, f.u.member.token, f.wsA, 'gone.txt', bigText(6_000, 'gone'));
    const [u] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file] });
    await waitFor(h, f.u.member.token, f.wsA, ds, u.id, (d) => d.status === 'indexing', 60_000);
    expectOk(await h.call('DELETE', `/api/v1/console/datasets/${ds}/documents/${u.id}`, { token: f.u.member.token, workspaceId: f.wsA }));
    await runQueuedTasksNow(studio.ctx);
    expect(await segmentCount(u.id)).toBe(0);
    expect((await studio.ctx.db.select().from(datasetTasks).where(eq(datasetTasks.id, u.task_id))).length).toBe(0);
  }, 60_000);
});

describe('two knowledge bases', () => {
  it('a long ingestion on one base does not hold up a short one on another', async () => {
    const pages = await startPageServer(() => '<html><body><p>Slow page text.</p></body></html>');
    try {
      const [busy, other] = [await createBase(h, f.u.member.token, f.wsA, 'Busy base'), await createBase(h, f.u.member.token, f.wsA, 'Other base')];
      // Held until released (the page server answers /slow after 20 s on its own).
      const [slow] = await addUnits(h, f.u.member.token, f.wsA, busy, { url: pages.url('/slow'), name: 'Slow page' });
      await waitFor(h, f.u.member.token, f.wsA, busy, slow.id, (d) => d.status === 'parsing');
      const [next] = await addUnits(h, f.u.member.token, f.wsA, busy, { url: pages.url('/page'), name: 'Behind it' });
      const file = await uploadOk(h, f.u.member.token, f.wsA, 'short.txt', 'A short unit of another base.');
      const [short] = await addUnits(h, f.u.member.token, f.wsA, other, { file_ids: [file] });
      expect((await waitUnit(h, f.u.member.token, f.wsA, other, short.id)).status).toBe('completed');
      // Done while the long one was still running, and its own base's next unit still waited behind it.
      const status = async (id: string) => (await studio.ctx.db.select({ s: datasetTasks.status }).from(datasetTasks).where(eq(datasetTasks.id, id)))[0]!.s;
      expect(await status(slow.task_id)).toBe('running');
      expect(await status(next.task_id)).toBe('queued');
      pages.release();
      expect((await waitUnit(h, f.u.member.token, f.wsA, busy, slow.id)).status).toBe('completed');
      expect((await waitUnit(h, f.u.member.token, f.wsA, busy, next.id)).status).toBe('completed');
    } finally {
      pages.release();
      await pages.close();
    }
  }, 60_000);
});
