import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { START_PASS_DELAY_S } from '../../src/server/jobs/passes';
import { rowsOf } from '../../src/server/knowledge/queue';
import { cachedDraftPlan } from '../../src/server/runs/app-flow';
import { runEventLog } from '../../src/server/runs/event-log';
import { warmRuns } from '../../src/server/runs/warm';
import { useStudio } from './harness';
import { createApp, flow, parseSse, RUNS, saveDraft, textInput } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// A run reads the app's draft and the caller's membership; on the embedded database that read is
// cached (it is on the way to the first token). Whatever changes it must be seen by the next run.

const h = useStudio();
let f: Fixture;

const greeting = (text: string) =>
  flow(
    [
      ['s', 'start', { variables: [textInput('name')] }],
      ['t', 'template-transform', { inputs: [{ name: 'name', selector: ['s', 'name'] }], template: `${text} {{ name }}` }],
      ['e', 'end', { outputs: [{ name: 'out', selector: ['t', 'output'] }] }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );

async function runAs(token: string, appId: string) {
  const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token, workspaceId: f.wsA, body: { inputs: { name: 'Ada' } } });
  if (r.status !== 200) return r;
  const finished = parseSse(r.raw.body).find((e) => e.type === 'run_finished') as { outputs?: Record<string, unknown> } | undefined;
  return { ...r, out: finished?.outputs?.out };
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'draft-cache');
});

describe('the draft a run reads', () => {
  it('a saved draft is what the next run runs', async () => {
    const appId = await createApp(h, f.u.admin.token, f.wsA, 'Greeting', greeting('Hello'));
    expect((await runAs(f.u.admin.token, appId)) as { out?: unknown }).toMatchObject({ status: 200, out: 'Hello Ada' });
    await saveDraft(h, f.u.admin.token, f.wsA, appId, greeting('Goodbye'));
    expect((await runAs(f.u.admin.token, appId)) as { out?: unknown }).toMatchObject({ status: 200, out: 'Goodbye Ada' });
  });

  it('a member removed from the space cannot run its apps any more', async () => {
    const appId = await createApp(h, f.u.admin.token, f.wsA, 'Members only', greeting('Hi'));
    expect((await runAs(f.u.member.token, appId)) as { out?: unknown }).toMatchObject({ status: 200, out: 'Hi Ada' });
    const members = expectOk(await h.call('GET', `/api/v1/console/workspaces/${f.wsA}/members`, { token: f.u.owner.token, query: { page: 1, page_size: 50 } }));
    const row = (members.items as { id: string; user_id: string }[]).find((m) => m.user_id === f.u.member.id);
    expect(row).toBeDefined();
    expectOk(await h.call('DELETE', `/api/v1/console/workspaces/${f.wsA}/members/${row!.id}`, { token: f.u.owner.token }));
    expectCode(await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token: f.u.member.token, workspaceId: f.wsA, body: { inputs: { name: 'Ada' } } }), 400, 'VALIDATION-1000');
  });

  it('a deleted app cannot be run', async () => {
    const appId = await createApp(h, f.u.admin.token, f.wsA, 'Short-lived', greeting('Hey'));
    expect((await runAs(f.u.admin.token, appId)) as { out?: unknown }).toMatchObject({ status: 200, out: 'Hey Ada' });
    expectOk(await h.call('DELETE', `/api/v1/console/apps/${appId}`, { token: f.u.admin.token, workspaceId: f.wsA }));
    expectCode(await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token: f.u.admin.token, workspaceId: f.wsA, body: { inputs: { name: 'Ada' } } }), 400, 'VALIDATION-1000');
  });
});

describe('warming the run path after a start (issue 32)', () => {
  const rowCounts = async () =>
    rowsOf(
      await h.studio.ctx.db.execute(sql`SELECT (SELECT count(*) FROM runs)::int AS runs, (SELECT count(*) FROM node_executions)::int AS nodes,
        (SELECT count(*) FROM run_events)::int AS events, (SELECT count(*) FROM conversations)::int AS conversations`),
    )[0];
  const revisionOf = async (appId: string) => expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/workflow`, { token: f.u.admin.token, workspaceId: f.wsA })).revision as number;

  it('runs the engine through a code node and compiles the latest drafts, writing nothing', async () => {
    const appId = await createApp(h, f.u.admin.token, f.wsA, 'Warm me', greeting('Warm'));
    const revision = await revisionOf(appId);
    expect(cachedDraftPlan(h.studio.ctx, appId, revision)).toBeUndefined();
    // The earlier tests' runs' events are written by the event log a few ms after their answers: count
    // after they landed (they did not always on the PostgreSQL server: events 27 → 36 across the warm-up).
    await runEventLog(h.studio.ctx).flush();
    const before = await rowCounts();
    const failures: unknown[] = [];
    await warmRuns(h.studio.ctx, (e) => failures.push(e));
    expect(failures).toEqual([]);
    expect(cachedDraftPlan(h.studio.ctx, appId, revision)).toBeDefined();
    expect(await rowCounts()).toEqual(before);
    // The next run uses that plan and answers as before.
    expect((await runAs(f.u.admin.token, appId)) as { out?: unknown }).toMatchObject({ status: 200, out: 'Warm Ada' });
  });

  it("keeps the start's first background passes out of the first seconds", async () => {
    const rows = rowsOf<{ name: string; delay: number }>(
      await h.studio.ctx.db.execute(sql`SELECT name, extract(epoch FROM start_after - created_on)::float8 AS delay FROM pgboss.job WHERE singleton_key = 'start' ORDER BY name`),
    );
    expect(rows.map((r) => r.name)).toEqual(['knowledge-refresh', 'overview-keep']);
    for (const r of rows) expect(Number(r.delay)).toBeGreaterThanOrEqual(START_PASS_DELAY_S);
  });

  it('starts once the server listens', async () => {
    const appId = await createApp(h, f.u.admin.token, f.wsA, 'Warm on listen', greeting('Listen'));
    const revision = await revisionOf(appId);
    await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
    for (let i = 0; i < 250 && !cachedDraftPlan(h.studio.ctx, appId, revision); i++) await new Promise((r) => setTimeout(r, 20));
    expect(cachedDraftPlan(h.studio.ctx, appId, revision)).toBeDefined();
  });
});
