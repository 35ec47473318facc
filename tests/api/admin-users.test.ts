import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN, DEFAULT_TENANT_ID, useStudio } from './harness';
import { refreshTokens, users } from '../../src/server/db/schema';

const h = useStudio();
const URL = '/api/v1/admin/users';
const PASSWORD = 'Passw0rd123';
const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';

interface AdminUserOut {
  id: string;
  tenant_id: string;
  username: string;
  nickname: string;
  realName: string;
  email: string;
  phone: string;
  role: string;
  status: number;
  serial_number: string;
  orgs: { id: string; name: string; treeNames: string; isMaster: boolean }[];
}

type Who = 'ta' | 'plain' | 'target' | 'betaAdmin' | 'betaUser';
const u = {} as Record<Who, { id: string; token: string; username: string }>;
const org = {} as Record<'root' | 'rd' | 'sales' | 'bRoot', string>;
let tenantB = '';
let adminId = '';

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

async function create(token: string, body: Record<string, unknown>) {
  return h.call('POST', URL, { token, body: { password: PASSWORD, ...body } });
}

async function make(who: Who, username: string, body: Record<string, unknown> = {}, token = h.adminToken, tenantId = DEFAULT_TENANT_ID) {
  const r = await create(token, { username, ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  u[who] = { id: r.body.data.id, username, token: await h.login(username, PASSWORD, tenantId) };
}

const row = async (id: string) => (await h.studio.ctx.db.select().from(users).where(eq(users.id, id)))[0];
const userCount = async () => Number((await h.studio.ctx.db.select({ n: sql<number>`count(*)::int` }).from(users))[0].n);
const liveRefreshTokens = async (userId: string) =>
  (await h.studio.ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, userId))).filter((t) => !t.revokedAt).length;

beforeAll(async () => {
  const tree = await h.call('GET', '/api/v1/admin/orgs/tree', { token: h.adminToken });
  org.root = tree.body.data[0].id;
  org.rd = (await h.call('POST', '/api/v1/admin/orgs', { token: h.adminToken, body: { name: 'R&D', parentId: null } })).body.data.id;
  org.sales = (await h.call('POST', '/api/v1/admin/orgs', { token: h.adminToken, body: { name: 'Sales', parentId: null } })).body.data.id;
  await make('ta', 'ta', { role: 'tenant_admin', realName: 'Tina Admin' });
  await make('plain', 'plain', { realName: 'Paul Plain', nickname: 'pp' });
  await make('target', 'target', { realName: 'Tom Target' });
  const b = await h.call('POST', '/api/v1/admin/tenants', { token: h.adminToken, body: { name: 'Beta', admin_username: 'beta_admin', password: PASSWORD } });
  tenantB = b.body.data.id;
  const betaAdminToken = await h.login('beta_admin', PASSWORD, tenantB);
  u.betaAdmin = { id: '', token: betaAdminToken, username: 'beta_admin' };
  org.bRoot = (await h.call('GET', '/api/v1/admin/orgs/tree', { token: betaAdminToken })).body.data[0].id;
  await make('betaUser', 'beta_user', { realName: 'Betty Beta' }, betaAdminToken, tenantB);
  adminId = (await h.call('GET', '/api/v1/console/base/userinfo', { token: h.adminToken })).body.data.id;
  u.betaAdmin.id = (await h.call('GET', '/api/v1/console/base/userinfo', { token: betaAdminToken })).body.data.id;
});

describe('GET /admin/users', () => {
  it("lists the caller's tenant, newest first, with organisations, and pages", async () => {
    const r = await h.call('GET', URL, { token: u.ta.token });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 4, page: 1, page_size: 20 });
    const items = r.body.data.items as AdminUserOut[];
    expect(items.map((x) => x.username)).toEqual(['target', 'plain', 'ta', 'admin']);
    expect(items[0]).toMatchObject({ tenant_id: DEFAULT_TENANT_ID, role: 'user', status: 1, orgs: [{ id: org.root, name: 'Default tenant', treeNames: 'Default tenant', isMaster: true }] });
    expect(items[0]).not.toHaveProperty('password_hash');
    expect(items[0]).not.toHaveProperty('passwordHash');
    const p2 = await h.call('GET', URL, { token: u.ta.token, query: { page: 2, page_size: 3 } });
    expect(p2.body.data).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(p2.body.data.items.map((x: AdminUserOut) => x.username)).toEqual(['admin']);
  });

  it('filters by name (username, realName, nickname; any case) and status', async () => {
    const names = async (query: Record<string, string | number>) =>
      (await h.call('GET', URL, { token: h.adminToken, query })).body.data.items.map((x: AdminUserOut) => x.username);
    expect(await names({ name: 'TINA' })).toEqual(['ta']);
    expect(await names({ name: 'PP' })).toEqual(['plain']);
    expect(await names({ name: 'targ' })).toEqual(['target']);
    expect(await names({ name: '_' })).toEqual([]);
    expect(await names({ status: 0 })).toEqual([]);
    expect((await names({ status: 1 })).length).toBe(4);
  });

  it('lets a super admin list another tenant by tenant_id; a tenant admin only its own', async () => {
    const b = await h.call('GET', URL, { token: h.adminToken, query: { tenant_id: tenantB } });
    expect(b.body.data.items.map((x: AdminUserOut) => x.username)).toEqual(['beta_user', 'beta_admin']);
    const own = await h.call('GET', URL, { token: u.betaAdmin.token });
    expect(own.body.data.items.map((x: AdminUserOut) => x.username)).toEqual(['beta_user', 'beta_admin']);
    const ownById = await h.call('GET', URL, { token: u.betaAdmin.token, query: { tenant_id: tenantB } });
    expect(ownById.body.data.total).toBe(2);
    expectCode(await h.call('GET', URL, { token: u.betaAdmin.token, query: { tenant_id: DEFAULT_TENANT_ID } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: u.ta.token, query: { tenant_id: tenantB } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { tenant_id: MISSING } }), 400, 'VALIDATION-1000');
  });

  it('refuses bad paging and filters, plain users and missing tokens', async () => {
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { page_size: 0 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { status: 2 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { tenant_id: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: u.plain.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', URL, { token: u.plain.token, query: { page_size: 5000 } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', URL), 401, 'AUTH-1001');
  });
});

describe('POST /admin/users', () => {
  it('creates a user with organisations (the first is the master) who can sign in', async () => {
    const r = await create(u.ta.token, {
      username: 'NewGuy',
      realName: 'New Guy',
      nickname: 'ng',
      email: 'ng@example.com',
      phone: '+49 30 1234567',
      org_ids: [org.sales, org.rd],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({
      username: 'NewGuy',
      realName: 'New Guy',
      nickname: 'ng',
      email: 'ng@example.com',
      phone: '+49 30 1234567',
      role: 'user',
      status: 1,
      tenant_id: DEFAULT_TENANT_ID,
      orgs: [
        { id: org.sales, treeNames: 'Default tenant/Sales', isMaster: true },
        { id: org.rd, treeNames: 'Default tenant/R&D', isMaster: false },
      ],
    });
    expect(r.body.data.serial_number).toMatch(/^E\d{6}$/);
    const token = await h.login('newguy', PASSWORD);
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token })).body.data.username).toBe('NewGuy');
    // A tenant admin may create another tenant admin.
    const ta2 = await create(u.ta.token, { username: 'ta2', role: 'tenant_admin' });
    expect(ta2.body.data.role).toBe('tenant_admin');
  });

  it('lets a super admin create in another tenant; the same username may exist in each tenant', async () => {
    const r = await create(h.adminToken, { username: 'target', tenant_id: tenantB, org_ids: [org.bRoot] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ tenant_id: tenantB, orgs: [{ id: org.bRoot, treeNames: 'Beta' }] });
    await h.login('target', PASSWORD, tenantB);
  });

  it('refuses duplicates (any case), an id, bad fields and foreign organisations, creating nothing', async () => {
    const before = await userCount();
    expectCode(await create(u.ta.token, { username: 'TARGET' }), 400, 'VALIDATION-1001');
    expectCode(await create(u.ta.token, { username: 'fresh', id: MISSING }), 400, 'VALIDATION-1002');
    expectCode(await create(u.ta.token, { username: 'fresh', password: 'short1' }), 400, 'VALIDATION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', password: 'onlyletters' }), 400, 'VALIDATION-1000');
    expectCode(await create(u.ta.token, { username: 'bad name!' }), 400, 'VALIDATION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', email: 'nope' }), 400, 'VALIDATION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', role: 'god' }), 400, 'VALIDATION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', extra: 1 }), 400, 'VALIDATION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', org_ids: [org.bRoot] }), 400, 'VALIDATION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', org_ids: [MISSING] }), 400, 'VALIDATION-1000');
    expectCode(await create(h.adminToken, { username: 'fresh', tenant_id: tenantB, org_ids: [org.rd] }), 400, 'VALIDATION-1000');
    expectCode(await create(h.adminToken, { username: 'fresh', tenant_id: MISSING }), 400, 'VALIDATION-1000');
    expect(await userCount()).toBe(before);
  });

  it('refuses plain users (403), super admins made by a tenant admin (403) and other tenants (VALIDATION-1000)', async () => {
    const before = await userCount();
    expectCode(await create(u.plain.token, { username: 'fresh' }), 403, 'PERMISSION-1000');
    expectCode(await create(u.plain.token, { username: '!' }), 403, 'PERMISSION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', role: 'super_admin' }), 403, 'PERMISSION-1000');
    expectCode(await create(u.ta.token, { username: 'fresh', tenant_id: tenantB }), 400, 'VALIDATION-1000');
    expectCode(await create(u.betaAdmin.token, { username: 'fresh', tenant_id: DEFAULT_TENANT_ID }), 400, 'VALIDATION-1000');
    expect(await userCount()).toBe(before);
    const sa = await create(h.adminToken, { username: 'sa2', role: 'super_admin' });
    expect(sa.body.data.role).toBe('super_admin');
  });
});

describe('GET /admin/users/:user_id', () => {
  it('answers one user; another tenant, an unknown or a malformed id is VALIDATION-1000', async () => {
    const r = await h.call('GET', `${URL}/${u.target.id}`, { token: u.ta.token });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: u.target.id, username: 'target', realName: 'Tom Target' });
    expect((await h.call('GET', `${URL}/${u.betaUser.id}`, { token: h.adminToken })).body.data.tenant_id).toBe(tenantB);
    expectCode(await h.call('GET', `${URL}/${u.betaUser.id}`, { token: u.ta.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${URL}/${u.target.id}`, { token: u.betaAdmin.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${URL}/${MISSING}`, { token: h.adminToken }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${URL}/nope`, { token: h.adminToken }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${URL}/${u.target.id}`, { token: u.plain.token }), 403, 'PERMISSION-1000');
  });
});

describe('PUT /admin/users/:user_id', () => {
  it('changes profile fields, role and organisations; fields left out stay', async () => {
    const r = await h.call('PUT', `${URL}/${u.target.id}`, {
      token: u.ta.token,
      body: { nickname: 'tt', email: 'tom@example.com', org_ids: [org.rd, org.rd, org.sales] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ nickname: 'tt', email: 'tom@example.com', realName: 'Tom Target', role: 'user' });
    expect(r.body.data.orgs.map((o: { id: string; isMaster: boolean }) => [o.id, o.isMaster])).toEqual([
      [org.rd, true],
      [org.sales, false],
    ]);
    const promoted = await h.call('PUT', `${URL}/${u.target.id}`, { token: u.ta.token, body: { role: 'tenant_admin' } });
    expect(promoted.body.data.role).toBe('tenant_admin');
    // The new role applies at once, on the token the user already holds.
    expect((await h.call('GET', URL, { token: u.target.token })).status).toBe(200);
    await h.call('PUT', `${URL}/${u.target.id}`, { token: u.ta.token, body: { role: 'user' } });
    expectCode(await h.call('GET', URL, { token: u.target.token }), 403, 'PERMISSION-1000');
    // Empty org_ids puts the user back into the root organisation.
    const reset = await h.call('PUT', `${URL}/${u.target.id}`, { token: u.ta.token, body: { org_ids: [] } });
    expect(reset.body.data.orgs.map((o: { id: string }) => o.id)).toEqual([org.root]);
    // A super admin edits a user of another tenant.
    const b = await h.call('PUT', `${URL}/${u.betaUser.id}`, { token: h.adminToken, body: { realName: 'Betty B.' } });
    expect(b.body.data.realName).toBe('Betty B.');
  });

  it('refuses an empty body, bad fields, foreign organisations and changing your own role', async () => {
    const put = (token: string, id: string, body: unknown) => h.call('PUT', `${URL}/${id}`, { token, body });
    expectCode(await put(u.ta.token, u.target.id, {}), 400, 'VALIDATION-1012');
    expectCode(await put(u.ta.token, u.target.id, { email: 'x' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.target.id, { username: 'renamed' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.target.id, { org_ids: [org.bRoot] }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.ta.id, { role: 'user' }), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, adminId, { role: 'tenant_admin' }), 400, 'VALIDATION-1000');
    expect((await row(u.ta.id)).role).toBe('tenant_admin');
    expect((await row(adminId)).role).toBe('super_admin');
    // Editing your own profile fields (same role) is fine.
    expect((await put(u.ta.token, u.ta.id, { nickname: 'tina', role: 'tenant_admin' })).status).toBe(200);
  });

  it('refuses plain users, promotions to super admin and changes to a super admin by a tenant admin, and other tenants', async () => {
    const put = (token: string, id: string, body: unknown) => h.call('PUT', `${URL}/${id}`, { token, body });
    const before = await row(u.target.id);
    expectCode(await put(u.plain.token, u.target.id, { nickname: 'hacked' }), 403, 'PERMISSION-1000');
    expectCode(await put(u.ta.token, u.target.id, { role: 'super_admin' }), 403, 'PERMISSION-1000');
    expectCode(await put(u.ta.token, adminId, { nickname: 'hacked' }), 403, 'PERMISSION-1000');
    expectCode(await put(u.betaAdmin.token, u.target.id, { nickname: 'hacked' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.betaUser.id, { nickname: 'hacked' }), 400, 'VALIDATION-1000');
    const after = await row(u.target.id);
    expect(after).toEqual(before);
    expect((await row(u.betaUser.id)).nickname).toBe('');
    expect((await row(adminId)).nickname).not.toBe('hacked');
  });
});

describe('PUT /admin/users/:user_id/status', () => {
  it('disabling ends the sessions at once; enabling lets the user back in', async () => {
    const login = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: 'target', password: PASSWORD } });
    const { access_token, refresh_token } = login.body.data;
    const r = await h.call('PUT', `${URL}/${u.target.id}/status`, { token: u.ta.token, body: { status: 0 } });
    expect(r.status).toBe(200);
    expect(r.body.data.status).toBe(0);
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token: access_token })).status).toBe(401);
    expectCode(await h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token } }), 401, 'AUTH-1004');
    expect(await liveRefreshTokens(u.target.id)).toBe(0);
    expectCode(await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: 'target', password: PASSWORD } }), 403, 'AUTH-1003');
    const listed = await h.call('GET', URL, { token: u.ta.token, query: { status: 0 } });
    expect(listed.body.data.items.map((x: AdminUserOut) => x.username)).toEqual(['target']);
    const on = await h.call('PUT', `${URL}/${u.target.id}/status`, { token: u.ta.token, body: { status: 1 } });
    expect(on.body.data.status).toBe(1);
    u.target.token = await h.login('target', PASSWORD);
  });

  it('refuses disabling yourself, bad values, plain users, a super admin by a tenant admin and other tenants', async () => {
    const put = (token: string, id: string, body: unknown) => h.call('PUT', `${URL}/${id}/status`, { token, body });
    expectCode(await put(u.ta.token, u.ta.id, { status: 0 }), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, adminId, { status: 0 }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.target.id, { status: 2 }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.target.id, {}), 400, 'VALIDATION-1000');
    expectCode(await put(u.plain.token, u.target.id, { status: 0 }), 403, 'PERMISSION-1000');
    expectCode(await put(u.ta.token, adminId, { status: 0 }), 403, 'PERMISSION-1000');
    expectCode(await put(u.ta.token, u.betaUser.id, { status: 0 }), 400, 'VALIDATION-1000');
    expectCode(await put(u.betaAdmin.token, u.target.id, { status: 0 }), 400, 'VALIDATION-1000');
    for (const id of [u.ta.id, adminId, u.target.id, u.betaUser.id]) expect((await row(id)).status).toBe(1);
    // Nobody's session ended.
    for (const token of [u.ta.token, u.target.token, h.adminToken]) {
      expect((await h.call('GET', '/api/v1/console/base/userinfo', { token })).status).toBe(200);
    }
    // Enabling yourself is harmless.
    expect((await put(u.ta.token, u.ta.id, { status: 1 })).status).toBe(200);
  });
});

describe('PUT /admin/users/:user_id/password', () => {
  it("sets another user's password and ends their sessions", async () => {
    const login = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: 'target', password: PASSWORD } });
    const r = await h.call('PUT', `${URL}/${u.target.id}/password`, { token: u.ta.token, body: { password: 'Changed123' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token: login.body.data.access_token })).status).toBe(401);
    expectCode(await h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: login.body.data.refresh_token } }), 401, 'AUTH-1004');
    expectCode(await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: 'target', password: PASSWORD } }), 400, 'AUTH-1002');
    await h.login('target', 'Changed123');
    await h.call('PUT', `${URL}/${u.target.id}/password`, { token: h.adminToken, body: { password: PASSWORD } });
    u.target.token = await h.login('target', PASSWORD);
  });

  it('refuses your own id, weak passwords, plain users, a super admin by a tenant admin and other tenants', async () => {
    const put = (token: string, id: string, body: unknown) => h.call('PUT', `${URL}/${id}/password`, { token, body });
    const hashes = async () => Promise.all([u.ta.id, adminId, u.target.id, u.betaUser.id].map(async (id) => (await row(id)).passwordHash));
    const before = await hashes();
    expectCode(await put(u.ta.token, u.ta.id, { password: 'Another123' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.target.id, { password: 'weak' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, u.target.id, { password: 'Another123', extra: 1 }), 400, 'VALIDATION-1000');
    expectCode(await put(u.plain.token, u.target.id, { password: 'Another123' }), 403, 'PERMISSION-1000');
    expectCode(await put(u.ta.token, adminId, { password: 'Another123' }), 403, 'PERMISSION-1000');
    expectCode(await put(u.ta.token, u.betaUser.id, { password: 'Another123' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.betaAdmin.token, u.target.id, { password: 'Another123' }), 400, 'VALIDATION-1000');
    expect(await hashes()).toEqual(before);
    await h.login(ADMIN.username, ADMIN.password);
    await h.login('beta_user', PASSWORD, tenantB);
  });
});

describe('PUT /admin/users/password (own)', () => {
  it('changes your own password with the old one; refuses a wrong old one, a mismatch and plain users', async () => {
    const put = (token: string, body: unknown) => h.call('PUT', `${URL}/password`, { token, body });
    expectCode(await put(u.ta.token, { old_password: 'wrong-pass1', new_password: 'Tina12345', confirm_password: 'Tina12345' }), 400, 'AUTH-1005');
    expectCode(await put(u.ta.token, { old_password: PASSWORD, new_password: 'Tina12345', confirm_password: 'Other12345' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.ta.token, { old_password: PASSWORD, new_password: 'weak', confirm_password: 'weak' }), 400, 'VALIDATION-1000');
    expectCode(await put(u.plain.token, { old_password: PASSWORD, new_password: 'Tina12345', confirm_password: 'Tina12345' }), 403, 'PERMISSION-1000');
    await h.login('ta', PASSWORD);
    await h.login('plain', PASSWORD);
    const r = await put(u.ta.token, { old_password: PASSWORD, new_password: 'Tina12345', confirm_password: 'Tina12345' });
    expect(r.status).toBe(200);
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token: u.ta.token })).status).toBe(401);
    u.ta.token = await h.login('ta', 'Tina12345');
  });
});

