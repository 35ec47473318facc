import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useStudio, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, MISSING, setUpWorkspaces, type Who } from './workspace-fixture';
import { appDrafts, apps } from '../../src/server/db/schema';
import { draftSecretValues } from '../../src/server/services/apps';
import { createEdge, createEmptyFlow, type FlowDocumentInput } from '../../schemas/flow';
import { AppDetail, AppDraft } from '../../schemas/app';

const h = useStudio();
const URL = '/api/v1/console/apps';
let f: Fixture;

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> & { ws?: string | null } = {}) {
  const { ws, ...rest } = opts;
  return h.call(method, url, { ...rest, token: f.u[who].token, workspaceId: ws === null ? undefined : (ws ?? f.wsA) });
}

interface AppOut {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  type: string;
  icon: Record<string, string>;
  status: string;
  created_by: string;
  created_by_name: string;
  created_at: string;
  updated_at: string;
  draft_revision: number;
}

const icon = { icon: 'bot', iconColor: '#2563eb' };

async function create(body: Record<string, unknown>, who: Who = 'owner', ws?: string): Promise<AppOut> {
  return expectOk(await call('POST', URL, who, { body: { description: 'An app', type: 'workflow', icon, ...body }, ws }));
}

const get = async (id: string, who: Who = 'owner', ws?: string | null) => call('GET', `${URL}/${id}`, who, { ws });
const draftOf = async (id: string, who: Who = 'owner') => expectOk(await call('GET', `${URL}/${id}/workflow`, who));
const names = async (query: Record<string, string | number> = {}, who: Who = 'owner', ws?: string) =>
  (expectOk(await call('GET', URL, who, { query, ws })).items as AppOut[]).map((a) => a.name);
const save = (who: Who, app_id: string, base_revision: number, document: unknown, ws?: string) =>
  call('PUT', `${URL}/workflow`, who, { body: { app_id, base_revision, document }, ws });

/** The empty workflow with one more node between start and end. */
function withStep(title: string): FlowDocumentInput {
  const doc = createEmptyFlow('workflow');
  return {
    ...doc,
    nodes: [...doc.nodes, { id: 'step', kind: 'echo', kindVersion: 1, title, position: { x: 200, y: 400 }, config: { text: title } }],
    edges: [createEdge('start', 'step'), createEdge('step', 'end')],
  };
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'apps');
});

describe('POST /console/apps (create)', () => {
  it('creates an active app of each type, its draft the empty flow of that type at revision 1', async () => {
    for (const [type, kinds] of [
      ['workflow', ['start', 'end']],
      ['chatflow', ['start', 'answer']],
      ['agent', ['start', 'agent', 'answer']],
      ['agent_team', ['start', 'agent', 'answer']],
    ] as const) {
      const a = await create({ name: `Create ${type}`, description: ` About ${type} `, type, icon: { iconPath: '/f/1.png', iconId: 'f1' } });
      expect(a).toMatchObject({
        workspace_id: f.wsA,
        name: `Create ${type}`,
        description: `About ${type}`,
        type,
        icon: { iconPath: '/f/1.png', iconId: 'f1' },
        status: 'active',
        created_by: f.u.owner.id,
        created_by_name: 'apps_owner',
        draft_revision: 1,
      });
      const draft = await draftOf(a.id);
      expect(draft).toMatchObject({ app_id: a.id, revision: 1, updated_by: { id: f.u.owner.id, name: 'apps_owner' }, secrets_set: [] });
      expect(draft.document).toEqual(createEmptyFlow(type));
    }
  });

  it('lets every member build: admin and ordinary member create too', async () => {
    expect((await create({ name: 'By admin' }, 'admin')).created_by).toBe(f.u.admin.id);
    expect((await create({ name: 'By member' }, 'member')).created_by).toBe(f.u.member.id);
  });

  it('refuses an id (VALIDATION-1002), missing or bad fields (VALIDATION-1000) and creates nothing', async () => {
    expectCode(await call('POST', URL, 'owner', { body: { id: MISSING, name: 'Bad 0', description: 'd', type: 'workflow', icon } }), 400, 'VALIDATION-1002');
    for (const body of [
      { description: 'd', type: 'workflow', icon },
      { name: 'Bad 1', type: 'workflow', icon },
      { name: 'Bad 2', description: '  ', type: 'workflow', icon },
      { name: 'Bad 3', description: 'd', icon },
      { name: 'Bad 4', description: 'd', type: 'chat', icon },
      { name: 'Bad 5', description: 'd', type: 'workflow' },
      { name: 'Bad 6', description: 'd', type: 'workflow', icon: {} },
      { name: 'Bad 7', description: 'd', type: 'workflow', icon: { iconColor: '#fff' } },
      { name: 'Bad 8', description: 'd', type: 'workflow', icon: { icon: 'x', extra: 1 } },
      { name: 'Bad 9', description: 'd', type: 'workflow', icon, status: 'active' },
      { name: 'x'.repeat(51), description: 'd', type: 'workflow', icon },
    ]) {
      expectCode(await call('POST', URL, 'owner', { body }), 400, 'VALIDATION-1000');
    }
    expect(await names({ name: 'Bad' })).toEqual([]);
  });

  it('refuses a name the workspace already has (any case) with VALIDATION-1001; another workspace may use it', async () => {
    await create({ name: 'Unique App' });
    expectCode(await call('POST', URL, 'member', { body: { name: 'unique app', description: 'd', type: 'chatflow', icon } }), 400, 'VALIDATION-1001');
    expect(await names({ name: 'unique app' })).toEqual(['Unique App']);
    await create({ name: 'Unique App' }, 'owner', f.wsB);
  });

  it('needs the header (VALIDATION-1008), membership (VALIDATION-1000) and a token (AUTH-1001)', async () => {
    const body = { name: 'Scoped', description: 'd', type: 'workflow', icon };
    expectCode(await call('POST', URL, 'owner', { body, ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('POST', URL, 'outsider', { body }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'foreign', { body }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'owner', { body, ws: 'not-a-uuid' }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', URL, { body, workspaceId: f.wsA }), 401, 'AUTH-1001');
    expect(await names({ name: 'Scoped' })).toEqual([]);
  });
});

describe('GET /console/apps (list)', () => {
  it('lists the apps of the header workspace, newest first, filtered by name, type and status', async () => {
    const a = await create({ name: 'List Alpha', type: 'chatflow' });
    const b = await create({ name: 'List Beta', type: 'workflow' }, 'member');
    const c = await create({ name: 'List Gamma 100%', type: 'chatflow' });
    await create({ name: 'List Elsewhere' }, 'owner', f.wsB);
    expectOk(await call('PUT', `${URL}/${b.id}/status/inactive`, 'owner'));

    const r = expectOk(await call('GET', URL, 'member', { query: { name: 'list ' } }));
    expect(r).toMatchObject({ total: 3, page: 1, page_size: 20 });
    expect((r.items as AppOut[]).map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(r.items[2]).toEqual(a);
    expect(await names({ name: 'LIST', type: 'chatflow' })).toEqual(['List Gamma 100%', 'List Alpha']);
    expect(await names({ name: 'list', status: 'inactive' })).toEqual(['List Beta']);
    expect(await names({ name: 'list', status: 'active', type: 'workflow' })).toEqual([]);
    expect(await names({ name: '0%' })).toEqual(['List Gamma 100%']);
    expect(await names({ name: 'List' }, 'owner', f.wsB)).toEqual(['List Elsewhere']);
  });

  it('pages', async () => {
    const p1 = expectOk(await call('GET', URL, 'owner', { query: { name: 'List', page: 1, page_size: 2 } }));
    expect(p1).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(p1.items.map((x: AppOut) => x.name)).toEqual(['List Gamma 100%', 'List Beta']);
    const p2 = expectOk(await call('GET', URL, 'owner', { query: { name: 'List', page: 2, page_size: 2 } }));
    expect(p2.items.map((x: AppOut) => x.name)).toEqual(['List Alpha']);
  });

  it('refuses page_size above 1000 (VALIDATION-1009) and bad filters (VALIDATION-1000)', async () => {
    expectCode(await call('GET', URL, 'owner', { query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectOk(await call('GET', URL, 'owner', { query: { page_size: 1000 } }));
    expectCode(await call('GET', URL, 'owner', { query: { type: 'chat' } }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'owner', { query: { status: 'paused' } }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'owner', { query: { page: 0 } }), 400, 'VALIDATION-1000');
  });

  it('needs the header, membership in the tenant, and a token', async () => {
    expectCode(await call('GET', URL, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('GET', URL, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'admin', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { workspaceId: f.wsA }), 401, 'AUTH-1001');
  });
});

describe('PUT /console/apps (update)', () => {
  it('changes name, description and icon for any member; fields left out stay', async () => {
    const a = await create({ name: 'Upd Before', type: 'chatflow' });
    const r = expectOk(await call('PUT', URL, 'member', { body: { id: a.id, name: 'Upd After', icon: { icon: 'brain', iconColor: '#16a34a' } } }));
    expect(r).toMatchObject({ id: a.id, name: 'Upd After', description: 'An app', type: 'chatflow', icon: { icon: 'brain', iconColor: '#16a34a' } });
    expect(r.created_at).toBe(a.created_at);
    expect(expectOk(await call('PUT', URL, 'admin', { body: { id: a.id, description: 'New text' } }))).toMatchObject({ name: 'Upd After', description: 'New text' });
    // Its own name in another case is no conflict.
    expect(expectOk(await call('PUT', URL, 'owner', { body: { id: a.id, name: 'UPD AFTER' } })).name).toBe('UPD AFTER');
  });

  it('refuses no id (1003), nothing to change (1012), a type change, bad fields and a taken name (1001)', async () => {
    const a = await create({ name: 'Upd Bad' });
    await create({ name: 'Upd Taken' });
    expectCode(await call('PUT', URL, 'owner', { body: { name: 'X' } }), 400, 'VALIDATION-1003');
    expectCode(await call('PUT', URL, 'owner', { body: { id: a.id } }), 400, 'VALIDATION-1012');
    expectCode(await call('PUT', URL, 'owner', { body: { id: a.id, type: 'chatflow' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: a.id, name: '' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: a.id, description: '' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: a.id, icon: {} } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: a.id, name: 'upd taken' } }), 400, 'VALIDATION-1001');
    expect(expectOk(await get(a.id))).toMatchObject({ name: 'Upd Bad', type: 'workflow', description: 'An app' });
  });

  it('answers VALIDATION-1000 for another workspace, a non-member, another tenant or an unknown id; 1008 without header', async () => {
    const a = await create({ name: 'Upd Scope' });
    const inB = await create({ name: 'Upd Scope B' }, 'owner', f.wsB);
    expectCode(await call('PUT', URL, 'owner', { body: { id: inB.id, name: 'X1' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'outsider', { body: { id: a.id, name: 'X2' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'outsider', { body: { id: a.id, name: 'X2' }, ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'foreign', { body: { id: a.id, name: 'X3' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: MISSING, name: 'X4' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: a.id, name: 'X5' }, ws: null }), 400, 'VALIDATION-1008');
    expect(expectOk(await get(a.id)).name).toBe('Upd Scope');
    expect(expectOk(await get(inB.id, 'owner', f.wsB)).name).toBe('Upd Scope B');
  });
});

describe('GET /console/apps/:app_id', () => {
  it('answers the app with its draft to every member', async () => {
    const a = await create({ name: 'Get One', type: 'chatflow' });
    for (const who of ['owner', 'admin', 'member'] as const) {
      const r = expectOk(await get(a.id, who));
      expect(r).toMatchObject({ ...a, draft: { app_id: a.id, revision: 1, document: createEmptyFlow('chatflow') } });
    }
  });

  it("uses the app's own workspace when no header is sent (the app guard), still for members only", async () => {
    const inB = await create({ name: 'Get Guard' }, 'owner', f.wsB);
    expect(expectOk(await get(inB.id, 'owner', null))).toMatchObject({ id: inB.id, workspace_id: f.wsB });
    expectCode(await get(inB.id, 'admin', null), 400, 'VALIDATION-1000');
    expectCode(await get(inB.id, 'foreign', null), 400, 'VALIDATION-1000');
    expectCode(await get('not-a-uuid', 'owner', null), 400, 'VALIDATION-1000');
  });

  it('answers VALIDATION-1000 for an app of another workspace than the header, a non-member, a malformed or unknown id', async () => {
    const a = await create({ name: 'Get Scope' });
    expectCode(await get(a.id, 'owner', f.wsB), 400, 'VALIDATION-1000');
    expectCode(await get(a.id, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await get(a.id, 'outsider', f.wsC), 400, 'VALIDATION-1000');
    expectCode(await get(a.id, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await get(MISSING), 400, 'VALIDATION-1000');
    expectCode(await get('nope'), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${URL}/${a.id}`), 401, 'AUTH-1001');
  });
});

describe('GET of a stored draft', () => {
  it('answers the draft as stored, even one a later rule would refuse (not checked again on the way out), and documents its schema', async () => {
    const a = await create({ name: 'Stored Draft' });
    // What is answered unchecked is exactly what the schema lets through (nothing it would strip or add).
    const fresh = expectOk(await get(a.id));
    expect(AppDetail.parse(fresh)).toEqual(fresh);
    const freshDraft = await draftOf(a.id);
    expect(AppDraft.parse(freshDraft)).toEqual(freshDraft);
    // A title longer than today's 200 characters, as if saved under an older rule: the answer is
    // not re-validated (it was on the way in), so the editor still opens the app rather than a 500.
    const doc = { ...createEmptyFlow('workflow') };
    doc.nodes = doc.nodes.map((n, i) => (i === 0 ? { ...n, title: 't'.repeat(250) } : n));
    await h.studio.ctx.db.update(appDrafts).set({ document: doc as never }).where(eq(appDrafts.appId, a.id));
    expect(expectOk(await get(a.id)).draft.document).toEqual(doc);
    expect((await draftOf(a.id)).document).toEqual(doc);
    // The OpenAPI document still describes the answers in full.
    const api = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    for (const path of ['/api/v1/console/apps/{app_id}', '/api/v1/console/apps/{app_id}/workflow']) {
      const data = api.paths[path].get.responses['200'].content['application/json'].schema.properties.data;
      const draft = path.endsWith('workflow') ? data : data.properties.draft;
      expect(Object.keys(draft.properties.document.properties)).toEqual(expect.arrayContaining(['schemaVersion', 'mode', 'nodes', 'edges']));
    }
  });
});

describe('PUT /console/apps/:app_id/status/:status', () => {
  it('sets inactive and active again (any member)', async () => {
    const a = await create({ name: 'Status One' });
    expect(expectOk(await call('PUT', `${URL}/${a.id}/status/inactive`, 'member')).status).toBe('inactive');
    expect(expectOk(await get(a.id)).status).toBe('inactive');
    expect(expectOk(await call('PUT', `${URL}/${a.id}/status/active`, 'admin')).status).toBe('active');
  });

  it('refuses an unknown status, another workspace, a non-member and no header', async () => {
    const a = await create({ name: 'Status Bad' });
    expectCode(await call('PUT', `${URL}/${a.id}/status/paused`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/${a.id}/status/1`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/${a.id}/status/inactive`, 'owner', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/${a.id}/status/inactive`, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/${MISSING}/status/inactive`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/${a.id}/status/inactive`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect(expectOk(await get(a.id)).status).toBe('active');
  });
});

describe('DELETE /console/apps/:app_id', () => {
  it('lets owner and admin delete; the draft goes with the app and the name is free again', async () => {
    const a = await create({ name: 'Del One' }, 'member');
    const b = await create({ name: 'Del Two' });
    expect(await call('DELETE', `${URL}/${a.id}`, 'admin')).toMatchObject({ status: 200, body: { code: 0, msg: 'success', data: null } });
    expectOk(await call('DELETE', `${URL}/${b.id}`, 'owner'));
    expectCode(await get(a.id), 400, 'VALIDATION-1000');
    expect(await h.studio.ctx.db.select().from(appDrafts).where(eq(appDrafts.appId, a.id))).toEqual([]);
    expectCode(await call('DELETE', `${URL}/${a.id}`, 'owner'), 400, 'VALIDATION-1000');
    await create({ name: 'Del One' });
  });

  it('is refused to an ordinary member with 403, and nothing changes', async () => {
    const a = await create({ name: 'Del Roles' }, 'member');
    expectCode(await call('DELETE', `${URL}/${a.id}`, 'member'), 403, 'PERMISSION-1000');
    expect(expectOk(await get(a.id)).id).toBe(a.id);
  });

  it('answers VALIDATION-1000 for another workspace, a non-member, another tenant; 1008 without header', async () => {
    const a = await create({ name: 'Del Scope' });
    expectCode(await call('DELETE', `${URL}/${a.id}`, 'owner', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${a.id}`, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${a.id}`, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/not-a-uuid`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${a.id}`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect(expectOk(await get(a.id)).id).toBe(a.id);
  });
});

describe('GET /console/apps/:app_id/workflow', () => {
  it('answers the draft to every member, scoped like the rest', async () => {
    const a = await create({ name: 'Draft Get', type: 'agent' });
    for (const who of ['owner', 'admin', 'member'] as const) expect((await draftOf(a.id, who)).document.mode).toBe('agent');
    expectCode(await call('GET', `${URL}/${a.id}/workflow`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('GET', `${URL}/${a.id}/workflow`, 'owner', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${a.id}/workflow`, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${MISSING}/workflow`, 'owner'), 400, 'VALIDATION-1000');
  });
});

describe('PUT /console/apps/workflow (save the draft)', () => {
  it('saves as the next revision, for any member, and answers who and when', async () => {
    const a = await create({ name: 'Save One' });
    const r = expectOk(await save('member', a.id, 1, withStep('First')));
    expect(r).toMatchObject({ app_id: a.id, revision: 2, updated_by: { id: f.u.member.id, name: 'apps_member' }, secrets_set: [] });
    const draft = await draftOf(a.id);
    expect(draft).toMatchObject({ revision: 2, updated_at: r.updated_at, updated_by: { id: f.u.member.id } });
    expect(draft.document.nodes.map((n: { id: string }) => n.id)).toEqual(['start', 'end', 'step']);
    expect(draft.document.nodes[2]).toEqual({ id: 'step', kind: 'echo', kindVersion: 1, title: 'First', position: { x: 200, y: 400 }, config: { text: 'First' } });
    const app = expectOk(await get(a.id));
    expect(app.draft_revision).toBe(2);
    expect(app.updated_at).toBe(r.updated_at);
  });

  it('refuses a save from an outdated base with 409 CONFLICT-1000 and the current revision; re-sending on it overwrites', async () => {
    const a = await create({ name: 'Save Conflict' });
    // Two tabs opened revision 1; the admin saves first.
    const first = expectOk(await save('admin', a.id, 1, withStep('From tab A')));
    expect(first.revision).toBe(2);
    const late = await save('member', a.id, 1, withStep('From tab B'));
    expectCode(late, 409, 'CONFLICT-1000');
    expect(late.body.data).toEqual({ app_id: a.id, revision: 2, updated_at: first.updated_at, updated_by: { id: f.u.admin.id, name: 'apps_admin' } });
    expect(late.body.msg).toMatch(/apps_admin.*revision 2/);
    // Nothing changed.
    let draft = await draftOf(a.id);
    expect(draft).toMatchObject({ revision: 2, updated_by: { id: f.u.admin.id } });
    expect(draft.document.nodes[2].title).toBe('From tab A');
    // Overwrite: the same document again on the current revision.
    const over = expectOk(await save('member', a.id, late.body.data.revision, withStep('From tab B')));
    expect(over).toMatchObject({ revision: 3, updated_by: { id: f.u.member.id } });
    draft = await draftOf(a.id);
    expect(draft.document.nodes[2].title).toBe('From tab B');
    // A base from the future is just as outdated.
    expectCode(await save('owner', a.id, 9, withStep('Future')), 409, 'CONFLICT-1000');
  });

  it('lets exactly one of two simultaneous saves from the same base win', async () => {
    const a = await create({ name: 'Save Race' });
    const results = await Promise.all([save('owner', a.id, 1, withStep('Racer A')), save('admin', a.id, 1, withStep('Racer B'))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.data.revision).toBe(2);
    expect(loser.body.data.updated_by).toEqual(winner.body.data.updated_by);
    expect((await draftOf(a.id)).revision).toBe(2);
  });

  it('answers an identical save (a retry) with the stored revision, without a conflict or a new revision', async () => {
    const a = await create({ name: 'Save Retry' });
    const saved = expectOk(await save('owner', a.id, 1, withStep('Same')));
    // The answer was lost; the client retries from the old base.
    expect(expectOk(await save('owner', a.id, 1, withStep('Same')))).toEqual(saved);
    expect(expectOk(await save('owner', a.id, 2, withStep('Same')))).toEqual(saved);
    expect((await draftOf(a.id)).revision).toBe(2);
  });

  it('refuses an invalid document (bad mode, edge to a missing node, duplicate ids, view state) and changes nothing', async () => {
    const a = await create({ name: 'Save Invalid' });
    expectOk(await save('owner', a.id, 1, withStep('Good')));
    const good = withStep('Good');
    const bad: [string, unknown][] = [
      ['mode of another type', { ...createEmptyFlow('chatflow') }],
      ['unknown mode', { ...good, mode: 'chat' }],
      ['edge to a missing node', { ...good, edges: [...good.edges, createEdge('step', 'ghost')] }],
      ['duplicate node ids', { ...good, nodes: [...good.nodes, good.nodes[2]] }],
      ['view state', { ...good, nodes: good.nodes.map((n) => ({ ...n, selected: true })) }],
      ['a conversation variable in a workflow', { ...good, variables: { conversation: [{ id: 'c', name: 'x', type: 'string', value: '' }] } }],
      ['no nodes list', { ...good, nodes: undefined }],
    ];
    for (const [what, document] of bad) {
      const r = await save('owner', a.id, 2, document);
      expect(r.status, what).toBe(400);
      expect(r.body.code, what).toBe('VALIDATION-1000');
    }
    const mismatch = await save('owner', a.id, 2, createEmptyFlow('chatflow'));
    expect(mismatch.body.msg).toBe("The flow's mode chatflow does not match the app's type workflow");
    const missing = await save('owner', a.id, 2, { ...good, edges: [...good.edges, createEdge('step', 'ghost')] });
    expect(missing.body.data).toEqual([expect.objectContaining({ message: expect.stringContaining('ends at a missing node "ghost"') })]);
    const dup = await save('owner', a.id, 2, { ...good, nodes: [...good.nodes, good.nodes[2]] });
    expect(JSON.stringify(dup.body.data)).toContain('Duplicate node id \\"step\\"');
    const draft = await draftOf(a.id);
    expect(draft.revision).toBe(2);
    expect(draft.document.nodes.map((n: { id: string }) => n.id)).toEqual(['start', 'end', 'step']);
  });

  it('refuses a document over the limits with a clear message', async () => {
    const a = await create({ name: 'Save Large' });
    const big = withStep('Big');
    big.nodes[2] = { ...big.nodes[2], config: { text: 'x'.repeat(5 * 1024 * 1024) } };
    const r = await save('owner', a.id, 1, big);
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toMatch(/^The flow document is too large: 5 MB \(\d+ bytes\), at most 5 MB \(5242880 bytes\)$/);
    expect(r.body.data).toMatchObject({ max_bytes: 5 * 1024 * 1024 });
    expect(r.body.data.bytes).toBeGreaterThan(5 * 1024 * 1024);
    const many = createEmptyFlow('workflow');
    for (let i = 0; i < 5001; i++) many.nodes.push({ id: `n${i}`, kind: 'echo', kindVersion: 1, title: '', position: { x: i, y: 0 }, config: {} });
    const r2 = await save('owner', a.id, 1, many);
    expectCode(r2, 400, 'VALIDATION-1000');
    expect(r2.body.msg).toContain('A flow holds at most 5000 nodes');
    expect((await draftOf(a.id)).revision).toBe(1);
  });

  it('refuses bad bodies, other workspaces, non-members and a missing header', async () => {
    const a = await create({ name: 'Save Scope' });
    const inB = await create({ name: 'Save Scope B' }, 'owner', f.wsB);
    const doc = withStep('Scope');
    expectCode(await call('PUT', `${URL}/workflow`, 'owner', { body: { app_id: a.id, document: doc } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/workflow`, 'owner', { body: { base_revision: 1, document: doc } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/workflow`, 'owner', { body: { app_id: a.id, base_revision: 0, document: doc } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/workflow`, 'owner', { body: { app_id: a.id, base_revision: 1, document: doc, force: true } }), 400, 'VALIDATION-1000');
    expectCode(await save('owner', inB.id, 1, doc), 400, 'VALIDATION-1000');
    expectCode(await save('owner', MISSING, 1, doc), 400, 'VALIDATION-1000');
    expectCode(await save('outsider', a.id, 1, doc), 400, 'VALIDATION-1000');
    expectCode(await save('outsider', a.id, 1, doc, f.wsC), 400, 'VALIDATION-1000');
    expectCode(await save('foreign', a.id, 1, doc), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', `${URL}/workflow`, 'owner', { body: { app_id: a.id, base_revision: 1, document: doc }, ws: null }), 400, 'VALIDATION-1008');
    expectCode(await h.call('PUT', `${URL}/workflow`, { body: { app_id: a.id, base_revision: 1, document: doc }, workspaceId: f.wsA }), 401, 'AUTH-1001');
    expect((await draftOf(a.id)).revision).toBe(1);
    expect(expectOk(await call('GET', `${URL}/${inB.id}/workflow`, 'owner', { ws: f.wsB })).revision).toBe(1);
  });

  it('keeps secret environment values write-only and encrypted, beside the document', async () => {
    const a = await create({ name: 'Save Secrets' });
    const env = (token?: string) => [
      { id: 'e1', name: 'API_URL', type: 'string', value: 'https://api.example' },
      { id: 'e2', name: 'API_TOKEN', type: 'secret', ...(token === undefined ? {} : { value: token }) },
    ];
    const doc = (token?: string): FlowDocumentInput => ({ ...withStep('Env'), variables: { env: env(token) as never } });

    const r = expectOk(await save('owner', a.id, 1, doc('tok-123')));
    expect(r).toMatchObject({ revision: 2, secrets_set: ['e2'] });
    const draft = await draftOf(a.id);
    expect(draft.secrets_set).toEqual(['e2']);
    expect(draft.document.variables.env).toEqual([
      { id: 'e1', name: 'API_URL', type: 'string', value: 'https://api.example', description: '' },
      { id: 'e2', name: 'API_TOKEN', type: 'secret', description: '' },
    ]);
    expect(JSON.stringify(expectOk(await get(a.id)))).not.toContain('tok-123');
    const [row] = await h.studio.ctx.db.select().from(appDrafts).where(eq(appDrafts.appId, a.id));
    expect(JSON.stringify(row.document)).not.toContain('tok-123');
    expect(row.secretEnv.e2).toMatch(/^v1:/);
    expect(row.secretEnv.e2).not.toContain('tok-123');
    expect(await draftSecretValues(h.studio.ctx, a.id)).toEqual({ e2: 'tok-123' });

    // Sent without a value: kept, and no change. Sent with the same value: no change either.
    expect(expectOk(await save('owner', a.id, 2, doc())).revision).toBe(2);
    expect(expectOk(await save('owner', a.id, 2, doc('tok-123'))).revision).toBe(2);
    // A new value is a change.
    expect(expectOk(await save('owner', a.id, 2, doc('tok-456')))).toMatchObject({ revision: 3, secrets_set: ['e2'] });
    expect(await draftSecretValues(h.studio.ctx, a.id)).toEqual({ e2: 'tok-456' });
    // Removing the variable removes its value.
    expect(expectOk(await save('owner', a.id, 3, withStep('Env')))).toMatchObject({ revision: 4, secrets_set: [] });
    expect(await draftSecretValues(h.studio.ctx, a.id)).toEqual({});
  });

  it('saves every mode with its variables', async () => {
    const a = await create({ name: 'Save Chat', type: 'chatflow' });
    const doc = {
      ...createEmptyFlow('chatflow'),
      variables: { env: [{ id: 'n', name: 'LIMIT', type: 'number', value: 5 }], conversation: [{ id: 'c', name: 'topics', type: 'array[string]', value: ['a'] }] },
      notes: 'Ask first, answer second.',
    };
    expect(expectOk(await save('member', a.id, 1, doc)).revision).toBe(2);
    const draft = await draftOf(a.id);
    expect(draft.document.variables.conversation).toEqual([{ id: 'c', name: 'topics', type: 'array[string]', value: ['a'], description: '' }]);
    expect(draft.document.notes).toBe('Ask first, answer second.');
    const [row] = await h.studio.ctx.db.select().from(apps).where(eq(apps.id, a.id));
    expect(row.type).toBe('chatflow');
  });
});

describe('OpenAPI', () => {
  it('documents every app route under the console: apps tag', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    const expected: [string, string][] = [
      ['/api/v1/console/apps/', 'get'],
      ['/api/v1/console/apps/', 'post'],
      ['/api/v1/console/apps/', 'put'],
      ['/api/v1/console/apps/workflow', 'put'],
      ['/api/v1/console/apps/{app_id}', 'get'],
      ['/api/v1/console/apps/{app_id}', 'delete'],
      ['/api/v1/console/apps/{app_id}/workflow', 'get'],
      ['/api/v1/console/apps/{app_id}/status/{status}', 'put'],
    ];
    for (const [path, method] of expected) {
      const op = doc.paths[path]?.[method] ?? doc.paths[path.replace(/\/$/, '')]?.[method];
      expect(op, `${method} ${path}`).toBeTruthy();
      expect(op.tags).toEqual(['console: apps']);
      expect(op.summary).toBeTruthy();
    }
  });
});
