import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { createUser } from '../../src/server/services/users';
import { tenants, users } from '../../src/server/db/schema';

const h = useStudio();
const URL = '/api/v1/console/workspaces';
const PASSWORD = 'Passw0rd123';
const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';

type Key = 'owner' | 'admin' | 'member' | 'extra' | 'plain' | 'outsider' | 'disabled' | 'foreign';
const u = {} as Record<Key, { id: string; token: string; username: string }>;
let tenantB = '';

async function user(key: Key, username: string, opts: { realName?: string; nickname?: string; tenantId?: string } = {}) {
  const tenantId = opts.tenantId ?? DEFAULT_TENANT_ID;
  const row = await createUser(h.studio.ctx.db, { tenantId, username, password: PASSWORD, role: 'user', realName: opts.realName, nickname: opts.nickname });
  u[key] = { id: row.id, username, token: await h.login(username, PASSWORD, tenantId) };
}

interface MemberOut {
  id: string;
  user_id: string;
  name: string;
  serial_number: string;
  account: string;
  role: string;
  nick_name: string;
  avatar: string;
  added_at: string;
}

async function create(token: string, name: string) {
  const r = await h.call('POST', URL, { token, body: { name } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { id: string };
}

async function add(token: string, wsId: string, userIds: string[], role?: 'admin' | 'ordinary_member') {
  return h.call('POST', `${URL}/${wsId}/members`, { token, body: { user_ids: userIds, ...(role ? { role } : {}) } });
}

async function members(wsId: string, token = u.owner.token, query: Record<string, string | number> = {}): Promise<MemberOut[]> {
  const r = await h.call('GET', `${URL}/${wsId}/members`, { token, query });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.items;
}

const memberOf = async (wsId: string, userId: string, token = u.owner.token) =>
  (await members(wsId, token)).find((m) => m.user_id === userId)!;
const roles = async (wsId: string, token = u.owner.token) =>
  Object.fromEntries((await members(wsId, token)).map((m) => [m.account, m.role]));

/** owner (owner), admin (admin), member (ordinary_member). */
async function team(name: string) {
  const ws = await create(u.owner.token, name);
  expect((await add(u.owner.token, ws.id, [u.admin.id], 'admin')).status).toBe(200);
  expect((await add(u.owner.token, ws.id, [u.member.id], 'ordinary_member')).status).toBe(200);
  return ws;
}

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

beforeAll(async () => {
  await user('owner', 'm_owner', { realName: 'Olivia Owner' });
  await user('admin', 'm_admin', { realName: 'Adam Admin', nickname: 'ad' });
  await user('member', 'm_member', { realName: 'Mia Member', nickname: 'mimi' });
  await user('extra', 'm_extra', { realName: 'Ezra Extra' });
  await user('plain', 'm_plain');
  await user('outsider', 'm_outsider');
  await user('disabled', 'm_disabled');
  await h.studio.ctx.db.update(users).set({ status: 0 }).where(eq(users.id, u.disabled.id));
  tenantB = randomUUID();
  await h.studio.ctx.db.insert(tenants).values({ id: tenantB, name: 'Tenant B' });
  await user('foreign', 'm_foreign', { tenantId: tenantB });
});

describe('GET /:workspace_id/members (list)', () => {
  it('lists owner first, then admins, then by time added, with the member fields', async () => {
    const ws = await create(u.owner.token, 'Mem List');
    await add(u.owner.token, ws.id, [u.plain.id]);
    await add(u.owner.token, ws.id, [u.member.id], 'ordinary_member');
    await add(u.owner.token, ws.id, [u.extra.id], 'admin');
    await add(u.owner.token, ws.id, [u.admin.id], 'admin');
    const items = await members(ws.id, u.member.token);
    expect(items.map((m) => [m.account, m.role])).toEqual([
      ['m_owner', 'owner'],
      ['m_extra', 'admin'],
      ['m_admin', 'admin'],
      ['m_plain', 'ordinary_member'],
      ['m_member', 'ordinary_member'],
    ]);
    const mia = items.find((m) => m.account === 'm_member')!;
    const [row] = await h.studio.ctx.db.select().from(users).where(eq(users.id, u.member.id));
    expect(mia).toMatchObject({
      user_id: u.member.id,
      name: 'Mia Member',
      account: 'm_member',
      nick_name: 'mimi',
      serial_number: row.serialNumber,
      role: 'ordinary_member',
      avatar: '',
    });
    expect(mia.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(mia.id).not.toBe(u.member.id);
    expect(Number.isNaN(Date.parse(mia.added_at))).toBe(false);
    // Without a real name the name is the username (createUser fills realName with it; blank it here).
    await h.studio.ctx.db.update(users).set({ realName: '' }).where(eq(users.id, u.plain.id));
    expect((await memberOf(ws.id, u.plain.id)).name).toBe('m_plain');
  });

  it('filters by name (real name, account or nick name, any case) and by role, and pages', async () => {
    const ws = await create(u.owner.token, 'Mem Filter');
    await add(u.owner.token, ws.id, [u.admin.id, u.extra.id], 'admin');
    await add(u.owner.token, ws.id, [u.member.id, u.plain.id]);
    const byName = async (name: string) => (await members(ws.id, u.owner.token, { name })).map((m) => m.account);
    expect(await byName('MIA')).toEqual(['m_member']);
    expect(await byName('m_pl')).toEqual(['m_plain']);
    expect(await byName('MIMI')).toEqual(['m_member']);
    expect(await byName('zzz')).toEqual([]);
    expect(await byName('%')).toEqual([]);
    const admins = await members(ws.id, u.owner.token, { role: 'admin' });
    expect(admins.map((m) => m.role)).toEqual(['admin', 'admin']);
    expect((await members(ws.id, u.owner.token, { role: 'owner' })).map((m) => m.account)).toEqual(['m_owner']);
    expect((await members(ws.id, u.owner.token, { role: 'admin', name: 'adam' })).map((m) => m.account)).toEqual(['m_admin']);

    const p = await h.call('GET', `${URL}/${ws.id}/members`, { token: u.owner.token, query: { page: 2, page_size: 2 } });
    expect(p.body.data).toMatchObject({ total: 5, page: 2, page_size: 2 });
    expect(p.body.data.items.map((m: MemberOut) => m.role)).toEqual(['admin', 'ordinary_member']);
    const d = await h.call('GET', `${URL}/${ws.id}/members`, { token: u.owner.token });
    expect(d.body.data).toMatchObject({ total: 5, page: 1, page_size: 20 });
  });

  it('refuses bad paging and filters', async () => {
    const ws = await create(u.owner.token, 'Mem List Bad');
    const q = (query: Record<string, string | number>) => h.call('GET', `${URL}/${ws.id}/members`, { token: u.owner.token, query });
    expectCode(await q({ page_size: 1001 }), 400, 'VALIDATION-1009');
    expectCode(await q({ page_size: 0 }), 400, 'VALIDATION-1000');
    expectCode(await q({ role: 'boss' }), 400, 'VALIDATION-1000');
    expectCode(await q({ page: -1 }), 400, 'VALIDATION-1000');
  });

  it('answers VALIDATION-1000 for a non-member, another tenant, another workspace or an unknown id', async () => {
    const ws = await team('Mem List Scope');
    const other = await create(u.outsider.token, 'Mem List Scope Other');
    for (const [token, id] of [
      [u.outsider.token, ws.id],
      [u.foreign.token, ws.id],
      [u.member.token, other.id],
      [u.owner.token, MISSING],
      [u.owner.token, 'nope'],
    ]) {
      expectCode(await h.call('GET', `${URL}/${id}/members`, { token }), 400, 'VALIDATION-1000');
    }
  });
});

describe('POST /:workspace_id/members (add)', () => {
  it('lets the owner add members (ordinary_member by default) and answers the new members', async () => {
    const ws = await create(u.owner.token, 'Add Owner');
    const r = await add(u.owner.token, ws.id, [u.member.id, u.member.id, u.extra.id]);
    expect(r.status).toBe(200);
    const added = r.body.data as MemberOut[];
    expect(added.map((m) => [m.user_id, m.role]).sort()).toEqual(
      [
        [u.member.id, 'ordinary_member'],
        [u.extra.id, 'ordinary_member'],
      ].sort(),
    );
    expect(added[0]).toHaveProperty('serial_number');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_member: 'ordinary_member', m_extra: 'ordinary_member' });
    // The new member now sees the workspace.
    const read = await h.call('GET', `${URL}/${ws.id}`, { token: u.member.token });
    expect(read.body.data).toMatchObject({ role_type: 'ordinary_member', member_count: 3 });
  });

  it('lets an admin add ordinary members only; an ordinary member gets 403', async () => {
    const ws = await team('Add Admin');
    expect((await add(u.admin.token, ws.id, [u.plain.id], 'ordinary_member')).status).toBe(200);
    expect((await add(u.admin.token, ws.id, [u.outsider.id])).status).toBe(200);
    expectCode(await add(u.member.token, ws.id, [u.extra.id]), 403, 'PERMISSION-1000');
    expect(await roles(ws.id)).toEqual({
      m_owner: 'owner',
      m_admin: 'admin',
      m_member: 'ordinary_member',
      m_plain: 'ordinary_member',
      m_outsider: 'ordinary_member',
    });
  });

  it('refuses an admin adding anyone as admin (setting roles is the owner\'s, spec 6), adding nobody', async () => {
    const ws = await team('Add Admin Escalation');
    const r = await add(u.admin.token, ws.id, [u.extra.id], 'admin');
    expectCode(r, 403, 'PERMISSION-1000');
    expect(r.body.msg).toMatch(/owner/i);
    // Mixed with a valid ordinary add in the same call: still nothing is added.
    expectCode(await add(u.admin.token, ws.id, [u.extra.id, u.plain.id], 'admin'), 403, 'PERMISSION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
    // The new admin could have read credentials' secret keys: the escalation path is closed end to end.
    expectCode(await h.call('GET', `${URL}/${ws.id}`, { token: u.extra.token }), 400, 'VALIDATION-1000');
    // The owner still adds admins.
    expect((await add(u.owner.token, ws.id, [u.extra.id], 'admin')).status).toBe(200);
    expect((await memberOf(ws.id, u.extra.id)).role).toBe('admin');
  });

  it("lets no admin touch another admin's or the owner's row: role change, removal, transfer", async () => {
    const ws = await team('Admin Versus Admin');
    expect((await add(u.owner.token, ws.id, [u.extra.id], 'admin')).status).toBe(200);
    const ezra = await memberOf(ws.id, u.extra.id);
    const owner = await memberOf(ws.id, u.owner.id);
    const mia = await memberOf(ws.id, u.member.id);
    const put = (memberId: string, role: string) => h.call('PUT', `${URL}/${ws.id}/members/${memberId}`, { token: u.admin.token, body: { role } });
    expectCode(await put(mia.id, 'admin'), 403, 'PERMISSION-1000');
    expectCode(await put(ezra.id, 'ordinary_member'), 403, 'PERMISSION-1000');
    expectCode(await put(owner.id, 'ordinary_member'), 403, 'PERMISSION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${ezra.id}`, { token: u.admin.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${owner.id}`, { token: u.admin.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('PUT', `${URL}/transfer`, { token: u.admin.token, body: { workspace_id: ws.id, member_id: ezra.id } }), 403, 'PERMISSION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_extra: 'admin', m_member: 'ordinary_member' });
  });

  it('refuses unknown, disabled and other-tenant users with VALIDATION-1000 naming them, adding nobody', async () => {
    const ws = await create(u.owner.token, 'Add Bad Users');
    for (const bad of [MISSING, u.disabled.id, u.foreign.id]) {
      const r = await add(u.owner.token, ws.id, [u.extra.id, bad]);
      expectCode(r, 400, 'VALIDATION-1000');
      expect(r.body.data).toEqual({ user_ids: [bad] });
    }
    const all = await add(u.owner.token, ws.id, [MISSING, u.disabled.id, u.foreign.id, u.plain.id]);
    expect(all.body.data.user_ids.sort()).toEqual([MISSING, u.disabled.id, u.foreign.id].sort());
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner' });
  });

  it('refuses users already in the workspace with VALIDATION-1001 naming them, adding nobody', async () => {
    const ws = await team('Add Existing');
    const r = await add(u.owner.token, ws.id, [u.extra.id, u.member.id]);
    expectCode(r, 400, 'VALIDATION-1001');
    expect(r.body.data).toEqual({ user_ids: [u.member.id] });
    const self = await add(u.owner.token, ws.id, [u.owner.id], 'admin');
    expectCode(self, 400, 'VALIDATION-1001');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('refuses malformed bodies with VALIDATION-1000', async () => {
    const ws = await create(u.owner.token, 'Add Bad Body');
    for (const body of [{}, { user_ids: [] }, { user_ids: ['x'] }, { user_ids: [u.extra.id], role: 'owner' }, { user_ids: u.extra.id }, { user_ids: [u.extra.id], x: 1 }]) {
      expectCode(await h.call('POST', `${URL}/${ws.id}/members`, { token: u.owner.token, body }), 400, 'VALIDATION-1000');
    }
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner' });
  });

  it('does not let another tenant, a non-member or a member of another workspace join or add', async () => {
    const ws = await team('Add Scope');
    const other = await create(u.outsider.token, 'Add Scope Other');
    // The other tenant's user cannot add itself, nor be added.
    expectCode(await add(u.foreign.token, ws.id, [u.foreign.id]), 400, 'VALIDATION-1000');
    expectCode(await add(u.owner.token, ws.id, [u.foreign.id]), 400, 'VALIDATION-1000');
    // A same-tenant non-member cannot add itself.
    expectCode(await add(u.outsider.token, ws.id, [u.outsider.id]), 400, 'VALIDATION-1000');
    // The admin of A adding to B.
    expectCode(await add(u.admin.token, other.id, [u.admin.id], 'admin'), 400, 'VALIDATION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
    expect(Object.keys(Object.fromEntries((await members(other.id, u.outsider.token)).map((m) => [m.account, 1])))).toEqual(['m_outsider']);
  });
});

describe('PUT /:workspace_id/members/:member_id (role)', () => {
  it("lets the owner change a member's role and answers the member", async () => {
    const ws = await team('Role Owner');
    const mia = await memberOf(ws.id, u.member.id);
    const r = await h.call('PUT', `${URL}/${ws.id}/members/${mia.id}`, { token: u.owner.token, body: { role: 'admin' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: mia.id, user_id: u.member.id, role: 'admin', account: 'm_member', added_at: mia.added_at });
    const adam = await memberOf(ws.id, u.admin.id);
    await h.call('PUT', `${URL}/${ws.id}/members/${adam.id}`, { token: u.owner.token, body: { role: 'ordinary_member' } });
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'ordinary_member', m_member: 'admin' });
    // The promoted member now may add members.
    expect((await add(u.member.token, ws.id, [u.extra.id])).status).toBe(200);
  });

  it("refuses the owner's own row (use transfer) and a role of owner", async () => {
    const ws = await team('Role Owner Row');
    const me = await memberOf(ws.id, u.owner.id);
    const r = await h.call('PUT', `${URL}/${ws.id}/members/${me.id}`, { token: u.owner.token, body: { role: 'admin' } });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toMatch(/transfer/i);
    const mia = await memberOf(ws.id, u.member.id);
    for (const body of [{ role: 'owner' }, {}, { role: 'admin', x: 1 }]) {
      expectCode(await h.call('PUT', `${URL}/${ws.id}/members/${mia.id}`, { token: u.owner.token, body }), 400, 'VALIDATION-1000');
    }
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('is owner only: admin and ordinary member get 403 and nothing changes', async () => {
    const ws = await team('Role Roles');
    const mia = await memberOf(ws.id, u.member.id);
    const adam = await memberOf(ws.id, u.admin.id);
    expectCode(await h.call('PUT', `${URL}/${ws.id}/members/${mia.id}`, { token: u.admin.token, body: { role: 'admin' } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('PUT', `${URL}/${ws.id}/members/${mia.id}`, { token: u.member.token, body: { role: 'admin' } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('PUT', `${URL}/${ws.id}/members/${adam.id}`, { token: u.admin.token, body: { role: 'ordinary_member' } }), 403, 'PERMISSION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('answers VALIDATION-1000 for a member of another workspace, an unknown member, another tenant and a non-member', async () => {
    const ws = await team('Role Scope');
    const other = await create(u.owner.token, 'Role Scope Other');
    await add(u.owner.token, other.id, [u.extra.id]);
    const ezraInOther = await memberOf(other.id, u.extra.id);
    const mia = await memberOf(ws.id, u.member.id);
    const put = (token: string, wsId: string, memberId: string) =>
      h.call('PUT', `${URL}/${wsId}/members/${memberId}`, { token, body: { role: 'admin' } });
    // A member id of workspace B through workspace A (the caller owns both).
    expectCode(await put(u.owner.token, ws.id, ezraInOther.id), 400, 'VALIDATION-1000');
    expectCode(await put(u.owner.token, ws.id, MISSING), 400, 'VALIDATION-1000');
    expectCode(await put(u.owner.token, ws.id, 'nope'), 400, 'VALIDATION-1000');
    expectCode(await put(u.foreign.token, ws.id, mia.id), 400, 'VALIDATION-1000');
    expectCode(await put(u.outsider.token, ws.id, mia.id), 400, 'VALIDATION-1000');
    expect((await memberOf(other.id, u.extra.id)).role).toBe('ordinary_member');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });
});

describe('DELETE /:workspace_id/members/:member_id (remove)', () => {
  it('lets the owner remove a member, who then loses access', async () => {
    const ws = await team('Rm Owner');
    const adam = await memberOf(ws.id, u.admin.id);
    const r = await h.call('DELETE', `${URL}/${ws.id}/members/${adam.id}`, { token: u.owner.token });
    expect(r.body).toEqual({ code: 0, msg: 'success', data: null });
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_member: 'ordinary_member' });
    expectCode(await h.call('GET', `${URL}/${ws.id}`, { token: u.admin.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${adam.id}`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    // Removed users can be added again.
    expect((await add(u.owner.token, ws.id, [u.admin.id])).status).toBe(200);
  });

  it('refuses removing the owner', async () => {
    const ws = await team('Rm Owner Row');
    const me = await memberOf(ws.id, u.owner.id);
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${me.id}`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('is owner only: admin and ordinary member get 403 and nothing changes', async () => {
    const ws = await team('Rm Roles');
    const mia = await memberOf(ws.id, u.member.id);
    const me = await memberOf(ws.id, u.owner.id);
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${mia.id}`, { token: u.admin.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${me.id}`, { token: u.admin.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${mia.id}`, { token: u.member.token }), 403, 'PERMISSION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('answers VALIDATION-1000 for another workspace, another tenant and a non-member', async () => {
    const ws = await team('Rm Scope');
    const other = await create(u.outsider.token, 'Rm Scope Other');
    await add(u.outsider.token, other.id, [u.extra.id]);
    const ezraId = (await members(other.id, u.outsider.token)).find((m) => m.user_id === u.extra.id)!.id;
    const mia = await memberOf(ws.id, u.member.id);
    // Owner of A removing a member of B, through A and through B.
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${ezraId}`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${URL}/${other.id}/members/${ezraId}`, { token: u.owner.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${mia.id}`, { token: u.foreign.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${URL}/${ws.id}/members/${mia.id}`, { token: u.outsider.token }), 400, 'VALIDATION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
    expect((await members(other.id, u.outsider.token)).length).toBe(2);
  });
});

describe('POST /:workspace_id/exit', () => {
  it('lets an ordinary member and an admin leave', async () => {
    const ws = await team('Exit Ok');
    for (const who of [u.member, u.admin]) {
      const r = await h.call('POST', `${URL}/${ws.id}/exit`, { token: who.token });
      expect(r.body).toEqual({ code: 0, msg: 'success', data: null });
      expectCode(await h.call('GET', `${URL}/${ws.id}`, { token: who.token }), 400, 'VALIDATION-1000');
      const list = await h.call('GET', URL, { token: who.token, query: { name: 'Exit Ok' } });
      expect(list.body.data.items).toEqual([]);
    }
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner' });
  });

  it('refuses the owner with a message to transfer ownership first', async () => {
    const ws = await team('Exit Owner');
    const r = await h.call('POST', `${URL}/${ws.id}/exit`, { token: u.owner.token });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toMatch(/transfer ownership/i);
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('answers VALIDATION-1000 for a non-member, another tenant and an unknown workspace', async () => {
    const ws = await team('Exit Scope');
    expectCode(await h.call('POST', `${URL}/${ws.id}/exit`, { token: u.outsider.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${URL}/${ws.id}/exit`, { token: u.foreign.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${URL}/${MISSING}/exit`, { token: u.member.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${URL}/nope/exit`, { token: u.member.token }), 400, 'VALIDATION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });
});

describe('PUT /transfer', () => {
  const transfer = (token: string, body: unknown) => h.call('PUT', `${URL}/transfer`, { token, body });

  it('makes the member owner and the old owner admin', async () => {
    const ws = await team('Xfer Ok');
    const mia = await memberOf(ws.id, u.member.id);
    const r = await transfer(u.owner.token, { workspace_id: ws.id, member_id: mia.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ id: ws.id, role_type: 'admin', member_count: 3 });
    expect(await roles(ws.id)).toEqual({ m_member: 'owner', m_owner: 'admin', m_admin: 'admin' });
    // Owner rights moved with it.
    expectCode(await h.call('DELETE', `${URL}/${ws.id}`, { token: u.owner.token }), 403, 'PERMISSION-1000');
    expect((await h.call('POST', `${URL}/${ws.id}/exit`, { token: u.owner.token })).status).toBe(200);
    const back = await transfer(u.member.token, { workspace_id: ws.id, member_id: (await memberOf(ws.id, u.admin.id, u.member.token)).id });
    expect(back.body.data.role_type).toBe('admin');
    expect((await members(ws.id, u.admin.token)).map((m) => [m.account, m.role])).toEqual([
      ['m_admin', 'owner'],
      ['m_member', 'admin'],
    ]);
  });

  it('refuses missing or malformed ids with VALIDATION-1000 (schema) and the owner itself', async () => {
    const ws = await team('Xfer Bad');
    const mia = await memberOf(ws.id, u.member.id);
    const me = await memberOf(ws.id, u.owner.id);
    for (const body of [{}, { workspace_id: ws.id }, { member_id: mia.id }, { workspace_id: 'x', member_id: mia.id }, { workspace_id: ws.id, member_id: mia.id, x: 1 }]) {
      expectCode(await transfer(u.owner.token, body), 400, 'VALIDATION-1000');
    }
    expectCode(await transfer(u.owner.token, { workspace_id: ws.id, member_id: me.id }), 400, 'VALIDATION-1000');
    expectCode(await transfer(u.owner.token, { workspace_id: ws.id, member_id: MISSING }), 400, 'VALIDATION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('is owner only: admin and ordinary member get 403 and nothing changes', async () => {
    const ws = await team('Xfer Roles');
    const mia = await memberOf(ws.id, u.member.id);
    const adam = await memberOf(ws.id, u.admin.id);
    expectCode(await transfer(u.admin.token, { workspace_id: ws.id, member_id: adam.id }), 403, 'PERMISSION-1000');
    expectCode(await transfer(u.admin.token, { workspace_id: ws.id, member_id: mia.id }), 403, 'PERMISSION-1000');
    expectCode(await transfer(u.member.token, { workspace_id: ws.id, member_id: mia.id }), 403, 'PERMISSION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
  });

  it('answers VALIDATION-1000 for a member of another workspace, another tenant and a non-member', async () => {
    const ws = await team('Xfer Scope');
    const other = await create(u.owner.token, 'Xfer Scope Other');
    await add(u.owner.token, other.id, [u.extra.id]);
    const ezraInOther = await memberOf(other.id, u.extra.id);
    const mia = await memberOf(ws.id, u.member.id);
    expectCode(await transfer(u.owner.token, { workspace_id: ws.id, member_id: ezraInOther.id }), 400, 'VALIDATION-1000');
    expectCode(await transfer(u.foreign.token, { workspace_id: ws.id, member_id: mia.id }), 400, 'VALIDATION-1000');
    expectCode(await transfer(u.outsider.token, { workspace_id: ws.id, member_id: mia.id }), 400, 'VALIDATION-1000');
    // A member of workspace A (admin there) acting on workspace B where they are not a member.
    expectCode(await transfer(u.admin.token, { workspace_id: other.id, member_id: ezraInOther.id }), 400, 'VALIDATION-1000');
    expect(await roles(ws.id)).toEqual({ m_owner: 'owner', m_admin: 'admin', m_member: 'ordinary_member' });
    expect(await roles(other.id)).toEqual({ m_owner: 'owner', m_extra: 'ordinary_member' });
  });
});
