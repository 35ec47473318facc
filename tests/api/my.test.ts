import { beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
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

  it('drops a space the caller left; another tenant and an outsider see nothing; no token is 401', async () => {
    expectOk(await h.call('POST', `/api/v1/console/workspaces/${f.wsA}/exit`, { token: f.u.admin.token }));
    expect(expectOk(await my('admin')).resources).toEqual([]);
    expect(expectOk(await my('foreign')).resources).toEqual([]);
    expect(expectOk(await my('outsider')).resources).toEqual([]);
    expectCode(await h.call('GET', '/api/v1/console/my'), 401, 'AUTH-1001');
  });
});
