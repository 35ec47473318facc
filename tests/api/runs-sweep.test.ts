import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apps, conversations, messages, nodeExecutions, runEvents, runs } from '../../src/server/db/schema';
import { pruneRunEvents, RUN_EVENTS_KEEP_MS, RUN_INTERRUPTED, sweepOrphanedRuns } from '../../src/server/runs/sweep';
import { useStudio } from './harness';
import { createApp, flow } from './runs-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// Runs left `running` by a server that went away end as interrupted: all of them on the embedded
// database (one process owns it), only those older than the run-time limit on a shared server.

const h = useStudio();
let f: Fixture;
let appId: string;

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'sweep');
  appId = await createApp(h, f.u.member.token, f.wsA, 'Sweep', flow([['s', 'start'], ['e', 'end']], [['s', 'e']]));
});

async function orphan(ageMs: number) {
  const db = h.studio.ctx.db;
  const [app] = await db.select().from(apps).where(eq(apps.id, appId));
  const runId = randomUUID();
  const conversationId = randomUUID();
  const createdAt = new Date(Date.now() - ageMs);
  await db.insert(conversations).values({ id: conversationId, tenantId: app.tenantId, workspaceId: app.workspaceId, appId, createdBy: f.u.member.id });
  await db.insert(runs).values({ id: runId, tenantId: app.tenantId, workspaceId: app.workspaceId, appId, mode: 'chatflow', source: 'draft', createdBy: f.u.member.id, conversationId, createdAt });
  // Two nodes ended (one of them skipped: not a step), one was running when the server went away.
  await db.insert(nodeExecutions).values([
    { id: randomUUID(), runId, executionId: 'x1', seq: 1, nodeId: 's', kind: 'start', title: 'Start', status: 'succeeded', startedAt: createdAt, finishedAt: createdAt },
    { id: randomUUID(), runId, executionId: 'x2', seq: 2, nodeId: 'l', kind: 'llm', title: 'LLM', status: 'succeeded', promptTokens: 3, completionTokens: 4, totalTokens: 7, startedAt: createdAt, finishedAt: createdAt },
    { id: randomUUID(), runId, executionId: 'skipped-3', seq: 3, nodeId: 'x', kind: 'end', title: '', status: 'skipped', startedAt: createdAt, finishedAt: createdAt },
    { id: randomUUID(), runId, executionId: 'x4', seq: 4, nodeId: 'e', kind: 'end', title: 'End', status: 'running', startedAt: createdAt },
  ]);
  await db.insert(messages).values({ id: randomUUID(), conversationId, runId, query: 'hi', createdBy: f.u.member.id });
  return runId;
}

const stateOf = async (runId: string) => {
  const db = h.studio.ctx.db;
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  const nodes = await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId));
  const running = nodes.find((n) => n.executionId === 'x4')!;
  const [message] = await db.select().from(messages).where(eq(messages.runId, runId));
  return {
    run: run.status,
    runError: run.error,
    finished: run.finishedAt !== null,
    steps: run.steps,
    tokens: run.totalTokens,
    node: running.status,
    nodeError: running.error,
    message: message.status,
  };
};

describe('sweepOrphanedRuns', () => {
  it('ends every running run on the embedded database, with its nodes and message', async () => {
    const young = await orphan(1000);
    const ended = await sweepOrphanedRuns({ db: h.studio.ctx.db, kind: 'pglite' });
    expect(ended).toBeGreaterThanOrEqual(1);
    expect(await stateOf(young)).toEqual({
      run: 'failed',
      runError: RUN_INTERRUPTED,
      finished: true,
      steps: 2,
      tokens: 7,
      node: 'failed',
      nodeError: RUN_INTERRUPTED,
      message: 'failed',
    });
  });

  it('on a shared server, ends only runs older than the run-time limit', async () => {
    const young = await orphan(1000);
    const old = await orphan(2 * 60 * 60_000);
    await sweepOrphanedRuns({ db: h.studio.ctx.db, kind: 'postgres' });
    expect((await stateOf(young)).run).toBe('running');
    expect((await stateOf(old)).run).toBe('failed');
    // Leave nothing running for the other tests of this file.
    await sweepOrphanedRuns({ db: h.studio.ctx.db, kind: 'pglite' });
    expect((await stateOf(young)).run).toBe('failed');
  });
});

describe('run event log retention', () => {
  it('prunes stream events older than the keep time and keeps recent ones', async () => {
    const db = h.studio.ctx.db;
    const oldRun = randomUUID();
    const newRun = randomUUID();
    const long = new Date(Date.now() - RUN_EVENTS_KEEP_MS - 60_000);
    await db.insert(runEvents).values([
      { runId: oldRun, seq: 0, event: { type: 'run_created', runId: oldRun }, createdAt: long },
      { runId: oldRun, seq: 1, event: { type: 'run_started' }, createdAt: long },
      { runId: newRun, seq: 0, event: { type: 'run_created', runId: newRun } },
    ]);
    expect(await pruneRunEvents(db)).toBe(2);
    const left = await db.select({ runId: runEvents.runId }).from(runEvents).where(inArray(runEvents.runId, [oldRun, newRun]));
    expect(left).toEqual([{ runId: newRun }]);
  });
});
