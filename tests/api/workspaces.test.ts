import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { createUser } from '../../src/server/services/users';
import { tenants, workspaceMembers } from '../../src/server/db/schema';

const h = useStudio();
const URL = '/api/v1/console/workspaces';
const PASSWORD = 'Passw0rd123';
const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';

/** Users of the default tenant and of a second tenant, signed in. */
const u = {} as Record<'owner' | 'admin' | 'member' | 'outsider' | 'foreign', { id: string; token: string }>;
let tenantB = '';

async function user(key: keyof typeof u, username: string, tenantId = DEFAULT_TENANT_ID) {
  const row = await createUser(h.studio.ctx.db, { tenantId, username, password: PASSWORD, role: 'user', realName: `${username} real` });
  u[key] = { id: row.id, token: await h.login(username, PASSWORD, tenantId) };
}

async function create(token: string, body: Record<string, unknown>) {
  const r = await h.call('POST', URL, { token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { id: string; name: string; description: string; icon: string; role_type: string; member_count: number; created_at: string; updated_at: string };
}

async function addMember(token: string, wsId: string, userId: string, role: 'admin' | 'ordinary_member') {
  const r = await h.call('POST', `${URL}/${wsId}/members`, { token, body: { user_ids: [userId], role } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** A workspace owned by `owner` with `admin` as admin and `member` as ordinary member. */
async function team(name: string) {
  const ws = await create(u.owner.token, { name, description: 'd', icon: 'i' });
  await addMember(u.owner.token, ws.id, u.admin.id, 'admin');
  await addMember(u.owner.token, ws.id, u.member.id, 'ordinary_member');
  return ws;
}

const read = async (wsId: string, token = u.owner.token) => (await h.call('GET', `${URL}/${wsId}`, { token })).body.data;
const names = async (token: string, query: Record<string, string | number> = {}) =>
  ((await h.call('GET', URL, { token, query })).body.data.items as { name: string }[]).map((w) => w.name);

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

beforeAll(async () => {
  await user('owner', 'ws_owner');
  await user('admin', 'ws_admin');
  await user('member', 'ws_member');
  await user('outsider', 'ws_outsider');
  tenantB = randomUUID();
  await h.studio.ctx.db.insert(tenants).values({ id: tenantB, name: 'Tenant B' });
  await user('foreign', 'ws_foreign', tenantB);
});

describe('GET /console/workspaces (list)', () => {
  it("lists only the caller's workspaces, newest first, with role_type and member_count", async () => {
    const a = await team('List Alpha');
    const b = await create(u.owner.token, { name: 'List Beta' });
    const c = await create(u.admin.token, { name: 'List Gamma' });
    await addMember(u.admin.token, c.id, u.owner.id, 'ordinary_member');

    const r = await h.call('GET', URL, { token: u.owner.token, query: { name: 'list ' } });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ total: 3, page: 1, page_size: 1000 });
    const items = r.body.data.items as { id: string; role_type: string; member_count: number }[];
    expect(items.map((w) => w.id)).toEqual([c.id, b.id, a.id]);
    expect(items.map((w) => w.role_type)).toEqual(['ordinary_member', 'owner', 'owner']);
    expect(items.map((w) => w.member_count)).toEqual([2, 1, 3]);
    expect(items[2]).toMatchObject({ name: 'List Alpha', description: 'd', icon: 'i' });
    expect(items[2]).toMatchObject({ id: a.id, created_at: a.created_at });

    expect(await names(u.admin.token, { name: 'LIST' })).toEqual(['List Gamma', 'List Alpha']);
    expect(await names(u.member.token, { name: 'list' })).toEqual(['List Alpha']);
    expect(await names(u.outsider.token)).toEqual([]);
  });

  it('filters by name as a case-insensitive substring, wildcards taken literally', async () => {
    await create(u.outsider.token, { name: 'Filter 100% done' });
    await create(u.outsider.token, { name: 'Filter 1000 done' });
    await create(u.outsider.token, { name: 'filter_x' });
    expect(await names(u.outsider.token, { name: 'FILTER' })).toEqual(['filter_x', 'Filter 1000 done', 'Filter 100% done']);
    expect(await names(u.outsider.token, { name: '0%' })).toEqual(['Filter 100% done']);
    expect(await names(u.outsider.token, { name: 'r_' })).toEqual(['filter_x']);
    expect(await names(u.outsider.token, { name: 'nothing-like-this' })).toEqual([]);
    // An empty filter is no filter.
    expect((await names(u.outsider.token, { name: '' })).length).toBe(3);
  });

  it('pages', async () => {
    const p1 = await h.call('GET', URL, { token: u.outsider.token, query: { name: 'filter', page: 1, page_size: 2 } });
    expect(p1.body.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(p1.body.data.items.map((w: { name: string }) => w.name)).toEqual(['filter_x', 'Filter 1000 done']);
    const p2 = await h.call('GET', URL, { token: u.outsider.token, query: { name: 'filter', page: 2, page_size: 2 } });
    expect(p2.body.data.items.map((w: { name: string }) => w.name)).toEqual(['Filter 100% done']);
    const p3 = await h.call('GET', URL, { token: u.outsider.token, query: { name: 'filter', page: 3, page_size: 2 } });
    expect(p3.body.data).toMatchObject({ total: 3, items: [] });
  });

  it('refuses page_size above 1000 with VALIDATION-1009 and other bad paging with VALIDATION-1000', async () => {
    expectCode(await h.call('GET', URL, { token: u.owner.token, query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expect((await h.call('GET', URL, { token: u.owner.token, query: { page_size: 1000 } })).status).toBe(200);
    expectCode(await h.call('GET', URL, { token: u.owner.token, query: { page_size: 0 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: u.owner.token, query: { page: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: u.owner.token, query: { page: 0 } }), 400, 'VALIDATION-1000');
  });

  it('needs a token', async () => {
    expectCode(await h.call('GET', URL), 401, 'AUTH-1001');
  });

  it("never shows another tenant's workspaces", async () => {
    await create(u.foreign.token, { name: 'Foreign Space' });
    expect(await names(u.foreign.token)).toEqual(['Foreign Space']);
    expect(await names(u.owner.token, { name: 'Foreign' })).toEqual([]);
    expect(await names(h.adminToken, { name: 'Foreign' })).toEqual([]);
    // The seeded default workspace of the default tenant is not visible to tenant B either.
    expect(await names(u.foreign.token, { name: 'Default project space' })).toEqual([]);
  });
});

describe('POST /console/workspaces (create)', () => {
  it('creates a workspace with the caller as its only member and owner', async () => {
    const ws = await create(u.member.token, { name: '  Created One  ' });
    expect(ws).toMatchObject({ name: 'Created One', description: '', icon: '', role_type: 'owner', member_count: 1 });
    expect(ws.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ws.created_at).toBe(ws.updated_at);
    const members = await h.call('GET', `${URL}/${ws.id}/members`, { token: u.member.token });
    expect(members.body.data.items).toMatchObject([{ user_id: u.member.id, role: 'owner' }]);
    expect(await read(ws.id, u.member.token)).toEqual(ws);
  });

  it('refuses an id in the body with VALIDATION-1002 and creates nothing', async () => {
    const r = await h.call('POST', URL, { token: u.owner.token, body: { id: randomUUID(), name: 'With Id' } });
    expectCode(r, 400, 'VALIDATION-1002');
    const empty = await h.call('POST', URL, { token: u.owner.token, body: { id: '', name: 'With Id' } });
    expectCode(empty, 400, 'VALIDATION-1002');
    expect(await names(u.owner.token, { name: 'With Id' })).toEqual([]);
  });

  it('refuses bad input with VALIDATION-1000', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(51) }, { name: 7 }, { name: 'Ok', extra: 1 }, { name: 'Ok', description: 'x'.repeat(501) }]) {
      expectCode(await h.call('POST', URL, { token: u.owner.token, body }), 400, 'VALIDATION-1000');
    }
    expect(await names(u.owner.token, { name: 'Ok' })).toEqual([]);
  });

  it('refuses a name already used in the tenant (any case, any owner) with VALIDATION-1001', async () => {
    await create(u.owner.token, { name: 'Unique Name' });
    expectCode(await h.call('POST', URL, { token: u.owner.token, body: { name: 'unique name' } }), 400, 'VALIDATION-1001');
    expectCode(await h.call('POST', URL, { token: u.outsider.token, body: { name: 'UNIQUE NAME' } }), 400, 'VALIDATION-1001');
    expect(await names(u.outsider.token, { name: 'unique' })).toEqual([]);
    // Another tenant may use the same name.
    const other = await create(u.foreign.token, { name: 'Unique Name' });
    expect(other.role_type).toBe('owner');
  });

  it('needs a token', async () => {
    expectCode(await h.call('POST', URL, { body: { name: 'No Token' } }), 401, 'AUTH-1001');
  });
});

describe('PUT /console/workspaces (update)', () => {
  it('lets the owner change name, description and icon; fields left out stay', async () => {
    const ws = await team('Upd Before');
    const r = await h.call('PUT', URL, { token: u.owner.token, body: { id: ws.id, name: 'Upd After', icon: 'new-icon' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: ws.id, name: 'Upd After', description: 'd', icon: 'new-icon', role_type: 'owner', member_count: 3 });
    expect(r.body.data.created_at).toBe(ws.created_at);
    expect(new Date(r.body.data.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(ws.updated_at).getTime());
    const desc = await h.call('PUT', URL, { token: u.owner.token, body: { id: ws.id, description: '' } });
    expect(desc.body.data).toMatchObject({ name: 'Upd After', description: '', icon: 'new-icon' });
    // Renaming to its own name in another case is no conflict.
    const same = await h.call('PUT', URL, { token: u.owner.token, body: { id: ws.id, name: 'UPD AFTER' } });
    expect(same.body.data.name).toBe('UPD AFTER');
    expect((await read(ws.id, u.member.token)).name).toBe('UPD AFTER');
  });

  it('refuses a body without id (VALIDATION-1003), with nothing to change (VALIDATION-1012) or malformed (VALIDATION-1000)', async () => {
    const ws = await create(u.owner.token, { name: 'Upd Bad Input' });
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { name: 'X' } }), 400, 'VALIDATION-1003');
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: '', name: 'X' } }), 400, 'VALIDATION-1003');
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: ws.id } }), 400, 'VALIDATION-1012');
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: 'not-a-uuid', name: 'X' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: ws.id, name: '' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: ws.id, role_type: 'owner' } }), 400, 'VALIDATION-1000');
    expect(await read(ws.id)).toEqual(ws);
  });

  it('refuses a name used by another workspace of the tenant with VALIDATION-1001', async () => {
    await create(u.outsider.token, { name: 'Upd Taken' });
    const ws = await create(u.owner.token, { name: 'Upd Mine' });
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: ws.id, name: 'upd taken' } }), 400, 'VALIDATION-1001');
    expect(await read(ws.id)).toEqual(ws);
  });

  it('is owner only: admin and ordinary member get 403 PERMISSION-1000 and nothing changes', async () => {
    const ws = await team('Upd Roles');
    for (const who of [u.admin, u.member]) {
      expectCode(await h.call('PUT', URL, { token: who.token, body: { id: ws.id, name: 'Hijacked' } }), 403, 'PERMISSION-1000');
    }
    expect((await read(ws.id)).name).toBe('Upd Roles');
  });

  it('treats a non-member, another tenant, another workspace or an unknown id as VALIDATION-1000', async () => {
    const ws = await team('Upd Scope');
    const other = await create(u.outsider.token, { name: 'Upd Scope Other' });
    expectCode(await h.call('PUT', URL, { token: u.outsider.token, body: { id: ws.id, name: 'X1' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', URL, { token: u.foreign.token, body: { id: ws.id, name: 'X2' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', URL, { token: h.adminToken, body: { id: ws.id, name: 'X3' } }), 400, 'VALIDATION-1000');
    // The owner of workspace A acting on workspace B.
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: other.id, name: 'X4' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', URL, { token: u.owner.token, body: { id: MISSING, name: 'X5' } }), 400, 'VALIDATION-1000');
    expect((await read(ws.id)).name).toBe('Upd Scope');
    expect((await read(other.id, u.outsider.token)).name).toBe('Upd Scope Other');
  });
});

describe('GET /console/workspaces/:workspace_id', () => {
  it("answers the workspace with the caller's role for every member", async () => {
    const ws = await team('Get One');
    expect(await read(ws.id, u.owner.token)).toMatchObject({ id: ws.id, name: 'Get One', role_type: 'owner', member_count: 3 });
    expect((await read(ws.id, u.admin.token)).role_type).toBe('admin');
    expect((await read(ws.id, u.member.token)).role_type).toBe('ordinary_member');
  });

  it('answers VALIDATION-1000 for a non-member, another tenant, a malformed or an unknown id', async () => {
    const ws = await team('Get Scope');
    for (const [token, id] of [
      [u.outsider.token, ws.id],
      [u.foreign.token, ws.id],
      [u.owner.token, MISSING],
      [u.owner.token, 'not-a-uuid'],
    ]) {
      const r = await h.call('GET', `${URL}/${id}`, { token });
      expectCode(r, 400, 'VALIDATION-1000');
      expect(r.body.msg).toMatch(/does not exist or you have no permission/);
    }
  });
});

describe('DELETE /console/workspaces/:workspace_id', () => {
  it('lets the owner delete; the memberships go with it', async () => {
    const ws = await team('Del One');
    const r = await h.call('DELETE', `${URL}/${ws.id}`, { token: u.owner.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 0, msg: 'success', data: null });
    expectCode(await h.call('GET', `${URL}/${ws.id}`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    expect(await names(u.admin.token, { name: 'Del One' })).toEqual([]);
    const rows = await h.studio.ctx.db.select().from(workspaceMembers).where(eq(workspaceMembers.workspaceId, ws.id));
    expect(rows).toEqual([]);
    expectCode(await h.call('DELETE', `${URL}/${ws.id}`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    // The name is free again.
    await create(u.owner.token, { name: 'Del One' });
  });

  it('is owner only: admin and ordinary member get 403 and nothing changes', async () => {
    const ws = await team('Del Roles');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}`, { token: u.admin.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}`, { token: u.member.token }), 403, 'PERMISSION-1000');
    expect(await read(ws.id)).toMatchObject({ id: ws.id, member_count: 3 });
  });

  it('answers VALIDATION-1000 for a non-member, another tenant, another workspace and a malformed id', async () => {
    const ws = await team('Del Scope');
    const other = await create(u.outsider.token, { name: 'Del Scope Other' });
    expectCode(await h.call('DELETE', `${URL}/${ws.id}`, { token: u.outsider.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}`, { token: u.foreign.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${URL}/${other.id}`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${URL}/not-a-uuid`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    expect(await read(ws.id)).toMatchObject({ member_count: 3 });
    expect(await read(other.id, u.outsider.token)).toMatchObject({ member_count: 1 });
  });
});

describe('OpenAPI', () => {
  it('documents every workspace route under the console: workspaces tag', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    const expected: [string, string][] = [
      ['/api/v1/console/workspaces/', 'get'],
      ['/api/v1/console/workspaces/', 'post'],
      ['/api/v1/console/workspaces/', 'put'],
      ['/api/v1/console/workspaces/transfer', 'put'],
      ['/api/v1/console/workspaces/{workspace_id}', 'get'],
      ['/api/v1/console/workspaces/{workspace_id}', 'delete'],
      ['/api/v1/console/workspaces/{workspace_id}/members', 'get'],
      ['/api/v1/console/workspaces/{workspace_id}/members', 'post'],
      ['/api/v1/console/workspaces/{workspace_id}/members/{member_id}', 'put'],
      ['/api/v1/console/workspaces/{workspace_id}/members/{member_id}', 'delete'],
      ['/api/v1/console/workspaces/{workspace_id}/exit', 'post'],
    ];
    for (const [path, method] of expected) {
      const op = doc.paths[path]?.[method] ?? doc.paths[path.replace(/\/$/, '')]?.[method];
      expect(op, `${method} ${path}`).toBeTruthy();
      expect(op.tags).toEqual(['console: workspaces']);
      expect(op.summary).toBeTruthy();
    }
  });
});
