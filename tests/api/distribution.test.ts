import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { DistributionList } from '../../schemas/distribution';
import { appDistributions, runs } from '../../src/server/db/schema';
import { createToolService } from '../../src/server/tools/runtime';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { cancel, DIST, distribute, echoFlow, platformOf, publish } from './portal-kit';
import { createApp, flow, saveDraft } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// App distribution (issue 21): GET, POST, PUT /console/apps/{app_id}/distribution and DELETE
// .../distribution/{id}. Every member reads; only the project space's owner writes (PERMISSION-1000
// for admins and members, nothing changed); versions of this app only; `tool` for workflow apps,
// pinned to the distributed version.

const h = useStudio();
let f: Fixture;
let chatApp = '';
let workflowApp = '';
let v1 = '';
let v2 = '';
let w1 = '';

const as = (who: 'owner' | 'admin' | 'member' | 'outsider' | 'foreign') => ({ token: f.u[who].token, workspaceId: f.wsA });
const owner = () => as('owner');
const chatDoc = flow(
  [
    ['s', 'start'],
    ['a', 'answer', { answer: 'You said {{#sys.query#}}' }],
  ],
  [['s', 'a']],
  'chatflow',
);
const list = async (appId: string, who: Parameters<typeof as>[0] = 'owner') => expectOk(await h.call('GET', DIST(appId), as(who))) as DistributionList;
const rowsOf = (appId: string) => h.studio.ctx.db.select().from(appDistributions).where(eq(appDistributions.appId, appId));

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'dist');
  chatApp = await createApp(h, f.u.member.token, f.wsA, 'Helpdesk', chatDoc);
  workflowApp = await createApp(h, f.u.member.token, f.wsA, 'Echo', echoFlow('v1 says {{ word }}'));
});

describe('reading the distribution', () => {
  it('lists every platform, not distributed, with what blocks each caller; a never-published app is blocked with no_version', async () => {
    const mine = await list(chatApp);
    expect(mine.platforms.map((p) => [p.platform, p.state, p.blocked])).toEqual([
      ['current_project', 'not_distributed', 'no_version'],
      ['portal', 'not_distributed', 'no_version'],
      ['store', 'not_distributed', 'no_version'],
      ['tool', 'not_distributed', 'mode'],
    ]);
    expect(mine).toMatchObject({ latest_version: null, is_owner: true });
    v1 = (await publish(h, owner(), chatApp, 'v1')).id;
    const published = await list(chatApp);
    expect(published.platforms.map((p) => p.blocked)).toEqual([null, null, null, 'mode']);
    expect(published.latest_version).toMatchObject({ id: v1, version: 'v1' });
    for (const who of ['admin', 'member'] as const) {
      const theirs = await list(chatApp, who);
      expect(theirs.is_owner).toBe(false);
      expect(theirs.platforms.every((p) => p.blocked === 'not_owner')).toBe(true);
    }
  });

  it('answers VALIDATION-1000 to a non-member, another tenant and a missing app', async () => {
    expectCode(await h.call('GET', DIST(chatApp), as('outsider')), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', DIST(chatApp), as('foreign')), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', DIST(MISSING), owner()), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', DIST(chatApp), { token: f.u.owner.token }), 400, 'VALIDATION-1008');
  });
});

describe('only the owner distributes, moves and cancels', () => {
  it('refuses admins and members with PERMISSION-1000 on POST, PUT and DELETE, changing nothing', async () => {
    for (const who of ['admin', 'member'] as const) {
      expectCode(await h.call('POST', DIST(chatApp), { ...as(who), body: { platform: 'portal' } }), 403, 'PERMISSION-1000');
    }
    expect(await rowsOf(chatApp)).toEqual([]);
    const done = await distribute(h, owner(), chatApp, 'portal', v1);
    const d = platformOf(done, 'portal');
    expect(d).toMatchObject({ state: 'distributed', newer_version_available: false, blocked: null });
    expect(d.distribution).toMatchObject({ version: { id: v1, version: 'v1' }, distributed_by: f.u.owner.id, distributed_by_name: 'dist_owner', cancelled_at: null, review_state: null, tool_id: null });
    const before = await rowsOf(chatApp);
    v2 = (await publish(h, owner(), chatApp, 'v2')).id;
    for (const who of ['admin', 'member'] as const) {
      expectCode(await h.call('PUT', DIST(chatApp), { ...as(who), body: { id: d.distribution!.id, version_id: v2 } }), 403, 'PERMISSION-1000');
      expectCode(await h.call('DELETE', `${DIST(chatApp)}/${d.distribution!.id}`, as(who)), 403, 'PERMISSION-1000');
    }
    expect(await rowsOf(chatApp)).toEqual(before);
    // Outsiders and other tenants do not even see the app.
    expectCode(await h.call('POST', DIST(chatApp), { ...as('outsider'), body: { platform: 'store' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${DIST(chatApp)}/${d.distribution!.id}`, as('foreign')), 400, 'VALIDATION-1000');
    expect(await rowsOf(chatApp)).toEqual(before);
  });

  it("refuses a version of another app, an unknown platform, a second distribution and the tool platform for a chatflow", async () => {
    const otherVersion = (w1 = (await publish(h, owner(), workflowApp, 'w1')).id);
    const before = await rowsOf(chatApp);
    expectCode(await h.call('POST', DIST(chatApp), { ...owner(), body: { platform: 'store', version_id: otherVersion } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', DIST(chatApp), { ...owner(), body: { platform: 'elsewhere' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', DIST(chatApp), { ...owner(), body: { platform: 'portal' } }), 400, 'VALIDATION-1001');
    const tool = await h.call('POST', DIST(chatApp), { ...owner(), body: { platform: 'tool' } });
    expectCode(tool, 400, 'VALIDATION-1000');
    expect(tool.body.data).toMatchObject({ blocked: 'mode' });
    const portal = platformOf(await list(chatApp), 'portal');
    expectCode(await h.call('PUT', DIST(chatApp), { ...owner(), body: { id: portal.distribution!.id, version_id: otherVersion } }), 400, 'VALIDATION-1000');
    expect(await rowsOf(chatApp)).toEqual(before);
  });

  it('says a newer version is available, moves the distribution to it, and will not delete a served version', async () => {
    const portal = platformOf(await list(chatApp), 'portal');
    expect(portal).toMatchObject({ newer_version_available: true, distribution: { version: { id: v1 } } });
    const moved = platformOf(expectOk(await h.call('PUT', DIST(chatApp), { ...owner(), body: { id: portal.distribution!.id, version_id: v2 } })), 'portal');
    expect(moved).toMatchObject({ state: 'distributed', newer_version_available: false, distribution: { id: portal.distribution!.id, version: { id: v2, version: 'v2' } } });
    const del = await h.call('DELETE', `/api/v1/console/apps/${chatApp}/publish/${v2}`, owner());
    expectCode(del, 400, 'VALIDATION-1000');
    expect(del.body.msg).toContain('portal');
    // The version no distribution serves can go.
    expectOk(await h.call('DELETE', `/api/v1/console/apps/${chatApp}/publish/${v1}`, owner()));
  });

  it('cancels (the record stays with who and when), refuses a second cancel, and distributes again on the same record', async () => {
    const portal = platformOf(await list(chatApp), 'portal');
    const cancelled = platformOf(expectOk(await h.call('DELETE', `${DIST(chatApp)}/${portal.distribution!.id}`, owner())), 'portal');
    expect(cancelled).toMatchObject({ state: 'cancelled', newer_version_available: false, distribution: { id: portal.distribution!.id, cancelled_by_name: 'dist_owner', cancelled_at: expect.any(String) } });
    expectCode(await h.call('DELETE', `${DIST(chatApp)}/${portal.distribution!.id}`, owner()), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', DIST(chatApp), { ...owner(), body: { id: portal.distribution!.id, version_id: v2 } }), 400, 'VALIDATION-1000');
    const again = platformOf(await distribute(h, owner(), chatApp, 'portal'), 'portal');
    expect(again).toMatchObject({ state: 'distributed', distribution: { id: portal.distribution!.id, version: { id: v2 }, cancelled_at: null, cancelled_by_name: null } });
  });

  it('records a store submission as awaiting release', async () => {
    const store = platformOf(await distribute(h, owner(), chatApp, 'store'), 'store');
    expect(store).toMatchObject({ state: 'distributed', distribution: { review_state: 'awaiting_release', review_reason: null } });
  });

  it('blocks an inactive app (inactive) and refuses to distribute it', async () => {
    expectOk(await h.call('PUT', `/api/v1/console/apps/${chatApp}/status/inactive`, owner()));
    expect(platformOf(await list(chatApp), 'current_project').blocked).toBe('inactive');
    expectCode(await h.call('POST', DIST(chatApp), { ...owner(), body: { platform: 'current_project' } }), 400, 'VALIDATION-1000');
    expectOk(await h.call('PUT', `/api/v1/console/apps/${chatApp}/status/active`, owner()));
    expect(platformOf(await list(chatApp), 'current_project').blocked).toBeNull();
  });
});

describe('the tool platform: the workflow tool runs the distributed version', () => {
  const service = () => createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId: f.wsB, userId: f.u.member.id });
  const call = (toolId: string, args: Record<string, unknown>) =>
    service()
      .call({ provider: toolId, name: 'run' }, args, { signal: AbortSignal.timeout(10_000) })
      .then(
        (ok) => ({ ok, error: null }),
        (error: { code?: string; message: string }) => ({ ok: null, error }),
      );

  it('makes the space\'s workflow tool pinned to the version, moves it with the distribution and disables it on cancel', async () => {
    const made = platformOf(await distribute(h, owner(), workflowApp, 'tool', w1), 'tool');
    const toolId = made.distribution!.tool_id!;
    expect(toolId).toEqual(expect.any(String));
    const tool = expectOk(await h.call('GET', `/api/v1/console/tools/${toolId}`, as('member')));
    expect(tool).toMatchObject({ type: 'workflow', name: 'Echo', workflow_app_id: workflowApp });

    // A newer version changes nothing until the owner moves the distribution.
    await saveDraft(h, f.u.member.token, f.wsA, workflowApp, echoFlow('v2 says {{ word }}'));
    const w2 = (await publish(h, owner(), workflowApp, 'w2')).id;
    expect((await call(toolId, { word: 'hi' })).ok).toMatchObject({ json: [{ said: 'v1 says hi' }] });
    const [ran] = await h.studio.ctx.db.select().from(runs).where(and(eq(runs.appId, workflowApp), eq(runs.source, 'tool')));
    expect(ran).toMatchObject({ versionId: w1, status: 'succeeded' });
    const log = expectOk(await h.call('GET', `/api/v1/console/apps/${workflowApp}/runs`, { ...as('member'), query: { source: 'tool' } }));
    expect(log.list[0]).toMatchObject({ source: 'tool', version: 'w1' });

    expectOk(await h.call('PUT', DIST(workflowApp), { ...owner(), body: { id: made.distribution!.id, version_id: w2 } }));
    expect((await call(toolId, { word: 'hi' })).ok).toMatchObject({ json: [{ said: 'v2 says hi' }] });

    await cancel(h, owner(), workflowApp, 'tool');
    const refused = await call(toolId, { word: 'hi' });
    expect(refused.error).toMatchObject({ code: 'TOOL-WORKFLOW-CANCELLED' });
    expect(refused.error!.message).toContain('cancelled');

    // Distributing again brings the same tool back, at the version chosen.
    const again = platformOf(await distribute(h, owner(), workflowApp, 'tool', w1), 'tool');
    expect(again.distribution!.tool_id).toBe(toolId);
    expect((await call(toolId, { word: 'yo' })).ok).toMatchObject({ json: [{ said: 'v1 says yo' }] });
  });
});
