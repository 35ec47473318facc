import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { orgs, tenants, users } from '../../src/server/db/schema';

const h = useStudio();
const URL = '/api/v1/admin/tenants';
const PASSWORD = 'Passw0rd123';
const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';

interface TenantOut {
  id: string;
  name: string;
  status: number;
  is_default: boolean;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

const tok = {} as Record<'ta' | 'plain' | 'acmeAdmin', string>;
let acme: TenantOut;

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

const create = (token: string, body: Record<string, unknown>) => h.call('POST', URL, { token, body });
const tenantCount = async () => Number((await h.studio.ctx.db.select({ n: sql<number>`count(*)::int` }).from(tenants)).at(0)!.n);
const tenantRow = async (id: string) => (await h.studio.ctx.db.select().from(tenants).where(eq(tenants.id, id)))[0];
const rootOf = async (id: string) => (await h.studio.ctx.db.select().from(orgs).where(and(eq(orgs.tenantId, id), isNull(orgs.parentId))))[0];

beforeAll(async () => {
  for (const [username, role] of [
    ['ta', 'tenant_admin'],
    ['plain', 'user'],
  ] as const) {
    const r = await h.call('POST', '/api/v1/admin/users', { token: h.adminToken, body: { username, password: PASSWORD, role } });
    expect(r.status).toBe(200);
    tok[username] = await h.login(username, PASSWORD);
  }
  const r = await create(h.adminToken, { name: 'Acme', admin_username: 'acme_admin', password: PASSWORD });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  acme = r.body.data;
  tok.acmeAdmin = await h.login('acme_admin', PASSWORD, acme.id);
});

describe('POST /admin/tenants', () => {
  it('creates the tenant, its root organisation and its first tenant admin', async () => {
    expect(acme).toMatchObject({ name: 'Acme', status: 1, is_default: false, created_by: 'admin', updated_by: 'admin' });
    expect(Number.isNaN(Date.parse(acme.created_at))).toBe(false);
    const root = await rootOf(acme.id);
    expect(root.name).toBe('Acme');
    const me = await h.call('GET', '/api/v1/console/base/userinfo', { token: tok.acmeAdmin });
    expect(me.body.data).toMatchObject({ username: 'acme_admin', role: 'tenant_admin', tenant_id: acme.id, tenant_name: 'Acme' });
    // The new tenant admin manages its tenant and sits in the root organisation.
    const list = await h.call('GET', '/api/v1/admin/users', { token: tok.acmeAdmin });
    expect(list.body.data.items).toHaveLength(1);
    expect(list.body.data.items[0].orgs).toEqual([{ id: root.id, name: 'Acme', treeNames: 'Acme', isMaster: true }]);
    // The tenant shows on the sign-in list.
    const pub = await h.call('GET', '/api/v1/common/tenants/default/list');
    expect(pub.body.data.map((t: TenantOut) => t.name)).toContain('Acme');
  });

  it('refuses a duplicate name (any case), an id and bad fields, creating nothing', async () => {
    const before = await tenantCount();
    const userCount = async () => Number((await h.studio.ctx.db.select({ n: sql<number>`count(*)::int` }).from(users))[0].n);
    const usersBefore = await userCount();
    const body = { name: 'Fresh', admin_username: 'fresh_admin', password: PASSWORD };
    expectCode(await create(h.adminToken, { ...body, name: 'ACME' }), 400, 'VALIDATION-1001');
    expectCode(await create(h.adminToken, { ...body, name: 'default TENANT' }), 400, 'VALIDATION-1001');
    expectCode(await create(h.adminToken, { ...body, id: MISSING }), 400, 'VALIDATION-1002');
    expectCode(await create(h.adminToken, { ...body, name: '' }), 400, 'VALIDATION-1000');
    expectCode(await create(h.adminToken, { ...body, name: 'x'.repeat(65) }), 400, 'VALIDATION-1000');
    expectCode(await create(h.adminToken, { name: 'Fresh', password: PASSWORD }), 400, 'VALIDATION-1000');
    expectCode(await create(h.adminToken, { ...body, admin_username: 'bad name' }), 400, 'VALIDATION-1000');
    expectCode(await create(h.adminToken, { ...body, password: 'short' }), 400, 'VALIDATION-1000');
    expectCode(await create(h.adminToken, { ...body, status: 0 }), 400, 'VALIDATION-1000');
    expect(await tenantCount()).toBe(before);
    expect(await userCount()).toBe(usersBefore);
  });

  it('is for super admins only: a tenant admin and a user get 403 and nothing is created', async () => {
    const before = await tenantCount();
    const body = { name: 'Rogue', admin_username: 'rogue', password: PASSWORD };
    expectCode(await create(tok.ta, body), 403, 'PERMISSION-1000');
    expectCode(await create(tok.acmeAdmin, body), 403, 'PERMISSION-1000');
    expectCode(await create(tok.plain, body), 403, 'PERMISSION-1000');
    expectCode(await create(tok.plain, { bad: 1 }), 403, 'PERMISSION-1000');
    expectCode(await h.call('POST', URL, { body }), 401, 'AUTH-1001');
    expect(await tenantCount()).toBe(before);
  });
});

describe('GET /admin/tenants', () => {
  it('lists the default tenant first, filters by name and status, and pages', async () => {
    await create(h.adminToken, { name: 'Zeta Corp', admin_username: 'zeta_admin', password: PASSWORD });
    const r = await h.call('GET', URL, { token: h.adminToken });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 3, page: 1, page_size: 20 });
    expect(r.body.data.items.map((t: TenantOut) => t.name)).toEqual(['Default tenant', 'Acme', 'Zeta Corp']);
    expect(r.body.data.items[0]).toMatchObject({ id: DEFAULT_TENANT_ID, is_default: true, status: 1 });
    const byName = await h.call('GET', URL, { token: h.adminToken, query: { name: 'ZETA' } });
    expect(byName.body.data.items.map((t: TenantOut) => t.name)).toEqual(['Zeta Corp']);
    const p = await h.call('GET', URL, { token: h.adminToken, query: { page: 2, page_size: 2 } });
    expect(p.body.data).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(p.body.data.items.map((t: TenantOut) => t.name)).toEqual(['Zeta Corp']);
    expect((await h.call('GET', URL, { token: h.adminToken, query: { status: 0 } })).body.data.total).toBe(0);
  });

  it('refuses bad paging (VALIDATION-1009 above 1000), tenant admins and users', async () => {
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { page: 0 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: h.adminToken, query: { status: 'on' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { token: tok.ta }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', URL, { token: tok.acmeAdmin }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', URL, { token: tok.plain }), 403, 'PERMISSION-1000');
  });
});

describe('GET /admin/tenants/:tenant_id', () => {
  it('answers one tenant; unknown or malformed ids are VALIDATION-1000; others get 403', async () => {
    const r = await h.call('GET', `${URL}/${acme.id}`, { token: h.adminToken });
    expect(r.body.data).toEqual(acme);
    expectCode(await h.call('GET', `${URL}/${MISSING}`, { token: h.adminToken }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${URL}/nope`, { token: h.adminToken }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${URL}/${acme.id}`, { token: tok.acmeAdmin }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', `${URL}/${DEFAULT_TENANT_ID}`, { token: tok.ta }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', `${URL}/${acme.id}`, { token: tok.plain }), 403, 'PERMISSION-1000');
  });
});

describe('PUT /admin/tenants/:tenant_id', () => {
  it('renames the tenant and its root organisation and records who did it', async () => {
    const r = await h.call('PUT', `${URL}/${acme.id}`, { token: h.adminToken, body: { name: 'Acme Ltd' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: acme.id, name: 'Acme Ltd', updated_by: 'admin', created_by: 'admin' });
    expect(Date.parse(r.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(acme.updated_at));
    expect((await rootOf(acme.id)).name).toBe('Acme Ltd');
    // A root organisation renamed by its admin keeps its own name.
    const root = await rootOf(acme.id);
    await h.call('PUT', `/api/v1/admin/orgs/${root.id}`, { token: tok.acmeAdmin, body: { name: 'Acme Group' } });
    await h.call('PUT', `${URL}/${acme.id}`, { token: h.adminToken, body: { name: 'Acme' } });
    expect((await rootOf(acme.id)).name).toBe('Acme Group');
    // Same name in another case is a rename of itself, not a duplicate.
    expect((await h.call('PUT', `${URL}/${acme.id}`, { token: h.adminToken, body: { name: 'ACME' } })).status).toBe(200);
    await h.call('PUT', `${URL}/${acme.id}`, { token: h.adminToken, body: { name: 'Acme' } });
  });

  it('refuses duplicates, bad input, unknown ids, tenant admins and users, changing nothing', async () => {
    const before = await tenantRow(acme.id);
    const put = (token: string, id: string, body: unknown) => h.call('PUT', `${URL}/${id}`, { token, body });
    expectCode(await put(h.adminToken, acme.id, { name: 'zeta corp' }), 400, 'VALIDATION-1001');
    expectCode(await put(h.adminToken, acme.id, { name: '  ' }), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, acme.id, {}), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, acme.id, { name: 'Acme', status: 0 }), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, MISSING, { name: 'Ghost' }), 400, 'VALIDATION-1000');
    expectCode(await put(tok.acmeAdmin, acme.id, { name: 'Mine' }), 403, 'PERMISSION-1000');
    expectCode(await put(tok.ta, acme.id, { name: 'Mine' }), 403, 'PERMISSION-1000');
    expectCode(await put(tok.plain, acme.id, { name: 'Mine' }), 403, 'PERMISSION-1000');
    expect(await tenantRow(acme.id)).toEqual(before);
  });
});

describe('PUT /admin/tenants/:tenant_id/status', () => {
  it("disabling a tenant ends its users' sessions and sign-ins; enabling lets them back", async () => {
    const r = await h.call('PUT', `${URL}/${acme.id}/status`, { token: h.adminToken, body: { status: 0 } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 0, updated_by: 'admin' });
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token: tok.acmeAdmin })).status).toBe(401);
    expectCode(
      await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: acme.id, username: 'acme_admin', password: PASSWORD } }),
      403,
      'AUTH-1003',
    );
    const pub = await h.call('GET', '/api/v1/common/tenants/default/list');
    expect(pub.body.data.map((t: TenantOut) => t.id)).not.toContain(acme.id);
    expect((await h.call('GET', URL, { token: h.adminToken, query: { status: 0 } })).body.data.items.map((t: TenantOut) => t.id)).toEqual([acme.id]);
    const on = await h.call('PUT', `${URL}/${acme.id}/status`, { token: h.adminToken, body: { status: 1 } });
    expect(on.body.data.status).toBe(1);
    tok.acmeAdmin = await h.login('acme_admin', PASSWORD, acme.id);
  });

  it('refuses disabling the default tenant, bad values, unknown ids, tenant admins and users', async () => {
    const put = (token: string, id: string, body: unknown) => h.call('PUT', `${URL}/${id}/status`, { token, body });
    expectCode(await put(h.adminToken, DEFAULT_TENANT_ID, { status: 0 }), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, acme.id, { status: 3 }), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, acme.id, { status: '0' }), 400, 'VALIDATION-1000');
    expectCode(await put(h.adminToken, MISSING, { status: 0 }), 400, 'VALIDATION-1000');
    expectCode(await put(tok.acmeAdmin, acme.id, { status: 0 }), 403, 'PERMISSION-1000');
    expectCode(await put(tok.ta, acme.id, { status: 0 }), 403, 'PERMISSION-1000');
    expectCode(await put(tok.plain, acme.id, { status: 0 }), 403, 'PERMISSION-1000');
    expect((await tenantRow(DEFAULT_TENANT_ID)).status).toBe(1);
    expect((await tenantRow(acme.id)).status).toBe(1);
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token: tok.acmeAdmin })).status).toBe(200);
    // Enabling the default tenant is harmless.
    expect((await put(h.adminToken, DEFAULT_TENANT_ID, { status: 1 })).status).toBe(200);
  });

  it("refuses a super admin disabling its own (non-default) tenant", async () => {
    const sa = await h.call('POST', '/api/v1/admin/users', {
      token: h.adminToken,
      body: { username: 'acme_root', password: PASSWORD, role: 'super_admin', tenant_id: acme.id },
    });
    expect(sa.status).toBe(200);
    const token = await h.login('acme_root', PASSWORD, acme.id);
    expectCode(await h.call('PUT', `${URL}/${acme.id}/status`, { token, body: { status: 0 } }), 400, 'VALIDATION-1000');
    expect((await tenantRow(acme.id)).status).toBe(1);
  });
});
