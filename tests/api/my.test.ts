import { beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
import { echoFlow } from './portal-kit';
import { createApp, parseSse, RUNS } from './runs-kit';
import { expectCode, expectOk, type Fixture, setUpWorkspaces, type Who } from './workspace-fixture';

// GET /console/my (issue 33): the caller's own items in the spaces they still belong to, tenant-checked.

const h = useStudio();
let f: Fixture;
const my = (who: Who) => h.call('GET', '/api/v1/console/my', { token: f.u[who].token });
const post = async (who: Who, ws: string, url: string, body: Record<string, unknown>) => expectOk(await h.call('POST', url, { token: f.u[who].token, workspaceId: ws, body })).id as string;

let ownerPrompt = '';
let ownerToolA = '';
let ownerToolB = '';
let adminPrompt = '';

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'mine');
  ownerPrompt = await post('owner', f.wsA, '/api/v1/console/prompts', { name: 'Owner prompt', content: 'Hi' });
  ownerToolA = await post('owner', f.wsA, '/api/v1/console/tools', { name: 'Owner tool A' });
  ownerToolB = await post('owner', f.wsB, '/api/v1/console/tools', { name: 'Owner tool B' });
  adminPrompt = await post('admin', f.wsA, '/api/v1/console/prompts', { name: 'Admin prompt', content: 'Yo' });
});

describe('GET /console/my', () => {
  it("lists only what the caller made, with its project space, across the spaces they belong to", async () => {
    const d = expectOk(await my('owner'));
    const ids = d.resources.map((r: { id: string }) => r.id).sort();
    expect(ids).toEqual([ownerPrompt, ownerToolA, ownerToolB].sort());
    expect(d.resources.find((r: { id: string }) => r.id === ownerToolB)).toMatchObject({ kind: 'tool', subtype: 'custom', workspace_id: f.wsB, workspace_name: 'mine B' });
    expect(d.counts).toEqual({ app: 0, dataset: 0, prompt: 1, tool: 2 });
    // Approvals are a typed hook for the approval flows: null, never a made-up list.
    expect(d).toMatchObject({ submissions: [], runs: [], approvals: { submitted: [], to_approve: [] } });
    const a = expectOk(await my('admin'));
    expect(a.resources.map((r: { id: string }) => r.id)).toEqual([adminPrompt]);
  });

  it('lists their store submissions with the review state, and their recent runs with the app and its space', async () => {
    const owner = { token: f.u.owner.token, workspaceId: f.wsA };
    const item = expectOk(await h.call('POST', '/api/v1/console/store/prompts/publish', { ...owner, body: { id: ownerPrompt } }));
    const appId = await createApp(h, f.u.owner.token, f.wsA, 'Echo mine', echoFlow('says {{ word }}'));
    const events = parseSse((await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { ...owner, body: { inputs: { word: 'hi' } } })).raw.body);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished' });
    const d = expectOk(await my('owner'));
    expect(d.submissions).toEqual([expect.objectContaining({ id: item.id, type: 'prompt', name: 'Owner prompt', review_state: 'awaiting_release', workspace_id: f.wsA })]);
    expect(d.runs).toEqual([expect.objectContaining({ id: (events[0] as { runId: string }).runId, app_id: appId, app_name: 'Echo mine', app_type: 'workflow', workspace_id: f.wsA, status: 'succeeded' })]);
    expect(d.counts.app).toBe(1);
    // Another member of the same space sees none of it.
    const other = expectOk(await my('member'));
    expect([other.submissions, other.runs]).toEqual([[], []]);
  });

  it('drops a space the caller left; another tenant and an outsider see nothing; no token is 401', async () => {
    expectOk(await h.call('POST', `/api/v1/console/workspaces/${f.wsA}/exit`, { token: f.u.admin.token }));
    expect(expectOk(await my('admin')).resources).toEqual([]);
    expect(expectOk(await my('foreign')).resources).toEqual([]);
    expect(expectOk(await my('outsider')).resources).toEqual([]);
    expectCode(await h.call('GET', '/api/v1/console/my'), 401, 'AUTH-1001');
  });
});
