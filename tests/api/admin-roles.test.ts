import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { users } from '../../src/server/db/schema';
import { permissionRules, SYSTEM_PERMISSIONS, type SystemPermissionKey } from '../../src/server/security/system-permissions';

// System › Roles (issue 33): the rules served are the ones the guards enforce, holders per tenant,
// and assigning a role with the user form's tenant limits.

const h = useStudio();
const URL = '/api/v1/admin/roles';
const PASSWORD = 'Passw0rd123';
const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';

type Who = 'ta' | 'plain' | 'other' | 'betaUser';
const u = {} as Record<Who, { id: string; token: string }>;
let tenantB = '';
let adminId = '';

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

async function make(who: Who, username: string, role: string, token = h.adminToken, tenantId = DEFAULT_TENANT_ID) {
  const r = await h.call('POST', '/api/v1/admin/users', { token, body: { username, password: PASSWORD, role } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  u[who] = { id: r.body.data.id, token: await h.login(username, PASSWORD, tenantId) };
}

const roleOf = async (id: string) => (await h.studio.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0].role;
const assign = (token: string, userId: string, role: unknown) => h.call('PUT', `${URL}/users/${userId}`, { token, body: { role } });

beforeAll(async () => {
  await make('ta', 'role_ta', 'tenant_admin');
  await make('plain', 'role_plain', 'user');
  await make('other', 'role_other', 'user');
  const b = await h.call('POST', '/api/v1/admin/tenants', { token: h.adminToken, body: { name: 'RoleBeta', admin_username: 'rb_admin', password: PASSWORD } });
  tenantB = b.body.data.id;
  await make('betaUser', 'rb_user', 'user', await h.login('rb_admin', PASSWORD, tenantB), tenantB);
  adminId = (await h.call('GET', '/api/v1/console/base/userinfo', { token: h.adminToken })).body.data.id;
});

describe('GET /admin/roles', () => {
  it('serves the rules the route guards read, and they are what the routes enforce', async () => {
    const r = await h.call('GET', URL, { token: u.ta.token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.permissions).toEqual(permissionRules());
    expect(r.body.data.roles.map((x: { role: string }) => x.role)).toEqual(['super_admin', 'tenant_admin', 'user']);
    const byRole = Object.fromEntries(r.body.data.roles.map((x: { role: string; permissions: string[] }) => [x.role, x.permissions]));
    expect(byRole.user).toEqual([]);
    expect(byRole.super_admin).toEqual(Object.keys(SYSTEM_PERMISSIONS));
    // One call per guard: a tenant admin passes exactly where the served rule names its role.
    const probes: Partial<Record<SystemPermissionKey, string>> = {
      'users.manage': '/api/v1/admin/users',
      'roles.assign': URL,
      'tenants.manage': '/api/v1/admin/tenants',
      'security.manage': '/api/v1/admin/security/network-policy',
      'resource.view': '/api/v1/admin/system/resource',
      'plugins.manage': '/api/v1/admin/plugins',
      'store.review': '/api/v1/admin/store',
    };
    for (const [key, path] of Object.entries(probes)) {
      const rule = r.body.data.permissions.find((p: { key: string }) => p.key === key);
      const res = await h.call('GET', path, { token: u.ta.token });
      expect(res.status, `${key} ${path}`).toBe(rule.roles.includes('tenant_admin') ? 200 : 403);
      expectCode(await h.call('GET', path, { token: u.plain.token }), 403, 'PERMISSION-1000');
    }
  });

  it("counts holders in the caller's tenant; a super admin may name another; what each may give", async () => {
    const mine = (await h.call('GET', URL, { token: u.ta.token })).body.data;
    expect(mine.tenant_id).toBe(DEFAULT_TENANT_ID);
    const count = (d: { roles: { role: string; holders: number }[] }, role: string) => d.roles.find((x) => x.role === role)!.holders;
    expect(count(mine, 'super_admin')).toBeGreaterThanOrEqual(1);
    expect(count(mine, 'tenant_admin')).toBeGreaterThanOrEqual(1);
    expect(mine.assignable).toEqual(['tenant_admin', 'user']);
    const beta = (await h.call('GET', URL, { token: h.adminToken, query: { tenant_id: tenantB } })).body.data;
    expect(beta.roles.map((x: { holders: number }) => x.holders)).toEqual([0, 1, 1]);
    expect(beta.assignable).toEqual(['super_admin', 'tenant_admin', 'user']);
    // A tenant admin cannot look into another tenant; bad input is 400.
    expectCode(await h.call('GET', URL, { token: u.ta.token, query: { tenant_id: tenantB } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { tenant_id: 'nope' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL), 401, 'AUTH-1001');
  });

  it('lists the holders of one role through GET /admin/users?role=', async () => {
    const r = await h.call('GET', '/api/v1/admin/users', { token: u.ta.token, query: { role: 'tenant_admin' } });
    expect(r.body.data.items.map((x: { username: string }) => x.username)).toEqual(['role_ta']);
    expectCode(await h.call('GET', '/api/v1/admin/users', { token: u.ta.token, query: { role: 'boss' } }), 400, 'VALIDATION-1000');
  });
});

describe('PUT /admin/roles/users/:user_id', () => {
  it('lets a tenant admin give tenant_admin and user in its own tenant; the new role applies at once', async () => {
    expectCode(await h.call('GET', '/api/v1/admin/users', { token: u.plain.token }), 403, 'PERMISSION-1000');
    const r = await assign(u.ta.token, u.plain.id, 'tenant_admin');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ id: u.plain.id, role: 'tenant_admin' });
    expect((await h.call('GET', '/api/v1/admin/users', { token: u.plain.token })).status).toBe(200);
    expect((await assign(u.ta.token, u.plain.id, 'user')).body.data.role).toBe('user');
    expect(await roleOf(u.plain.id)).toBe('user');
  });

  it('refuses what the user form refuses and changes nothing', async () => {
    // super_admin is not a tenant admin's to give, nor is a super admin its to change.
    expectCode(await assign(u.ta.token, u.other.id, 'super_admin'), 403, 'PERMISSION-1000');
    expectCode(await assign(u.ta.token, adminId, 'user'), 403, 'PERMISSION-1000');
    // Another tenant's user looks unknown; one's own role stays; bad ids and roles are 400.
    expectCode(await assign(u.ta.token, u.betaUser.id, 'tenant_admin'), 400, 'VALIDATION-1000');
    expectCode(await assign(u.ta.token, u.ta.id, 'user'), 400, 'VALIDATION-1000');
    expectCode(await assign(u.ta.token, MISSING, 'user'), 400, 'VALIDATION-1000');
    expectCode(await assign(u.ta.token, 'not-a-uuid', 'user'), 400, 'VALIDATION-1000');
    expectCode(await assign(u.ta.token, u.other.id, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', `${URL}/users/${u.other.id}`, { token: u.ta.token, body: { role: 'user', extra: 1 } }), 400, 'VALIDATION-1000');
    // A plain user gets 403 whatever it sends.
    expectCode(await assign(u.other.token, u.other.id, 'owner'), 403, 'PERMISSION-1000');
    expect([await roleOf(u.other.id), await roleOf(adminId), await roleOf(u.betaUser.id), await roleOf(u.ta.id)]).toEqual(['user', 'super_admin', 'user', 'tenant_admin']);
  });

  it("lets a super admin give any role in any tenant", async () => {
    expect((await assign(h.adminToken, u.betaUser.id, 'super_admin')).body.data).toMatchObject({ role: 'super_admin', tenant_id: tenantB });
    expect((await assign(h.adminToken, u.betaUser.id, 'user')).body.data.role).toBe('user');
  });
});
