import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { users } from '../../src/server/db/schema';
import { ROOT_ORG_ID } from '../../schemas/common';

const h = useStudio();
const URL = '/api/v1/console/users';
const PASSWORD = 'Passw0rd123';
const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';

/*
 * Tenant A (default):   Default tenant (root)   admin, plain
 *                        ├─ R&D                 dave
 *                        │  ├─ Platform         alice (master), bob
 *                        │  └─ Web              carol
 *                        ├─ Sales               alice, erin, frank (disabled)
 *                        └─ Empty
 * Tenant B (Beta):       Beta (root) beta_admin ─ Ops: oscar
 */
const org = {} as Record<'root' | 'rd' | 'platform' | 'web' | 'sales' | 'empty' | 'bRoot' | 'bOps', string>;
type Who = 'plain' | 'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'frank' | 'betaAdmin' | 'oscar';
const u = {} as Record<Who, { id: string; token: string }>;
let adminId = '';
let tenantB = '';

interface PUser {
  id: string;
  name: string;
  username: string;
  orgs: { id: string; treeNames: string; parentIds: string[]; isMaster: boolean }[];
  parentIdList: string[];
  isMultiOrg: boolean;
  masterOrgTreeName: string;
}
interface POrg {
  id: string;
  name: string;
  treeNames: string;
  parentIds: string[];
  hasEmpNum: number;
  hasOrgNum: number;
  children: POrg[];
}

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

async function mkOrg(token: string, name: string, parentId: string | null) {
  const r = await h.call('POST', '/api/v1/admin/orgs', { token, body: { name, parentId } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id as string;
}

async function mkUser(who: Who, username: string, realName: string, orgIds: string[], token = h.adminToken, tenantId = DEFAULT_TENANT_ID, nickname = '') {
  const r = await h.call('POST', '/api/v1/admin/users', { token, body: { username, password: PASSWORD, realName, nickname, org_ids: orgIds } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  u[who] = { id: r.body.data.id, token: await h.login(username, PASSWORD, tenantId) };
}

beforeAll(async () => {
  org.root = (await h.call('GET', '/api/v1/admin/orgs/tree', { token: h.adminToken })).body.data[0].id;
  org.rd = await mkOrg(h.adminToken, 'R&D', null);
  org.platform = await mkOrg(h.adminToken, 'Platform', org.rd);
  org.web = await mkOrg(h.adminToken, 'Web', org.rd);
  org.sales = await mkOrg(h.adminToken, 'Sales', null);
  org.empty = await mkOrg(h.adminToken, 'Empty', null);
  await mkUser('plain', 'plain', 'Paul Plain', []);
  await mkUser('alice', 'alice', 'Alice Anders', [org.platform, org.sales], h.adminToken, DEFAULT_TENANT_ID, 'ally');
  await mkUser('bob', 'bob', 'Bob Brown', [org.platform]);
  await mkUser('carol', 'carol', 'Carol Chen', [org.web]);
  await mkUser('dave', 'dave', 'Dave Davis', [org.rd]);
  await mkUser('erin', 'erin', 'Erin Evans', [org.sales]);
  await mkUser('frank', 'frank', 'Frank Fischer', [org.sales]);
  await h.call('PUT', `/api/v1/admin/users/${u.frank.id}/status`, { token: h.adminToken, body: { status: 0 } });
  adminId = (await h.call('GET', '/api/v1/console/base/userinfo', { token: h.adminToken })).body.data.id;

  const b = await h.call('POST', '/api/v1/admin/tenants', { token: h.adminToken, body: { name: 'Beta', admin_username: 'beta_admin', password: PASSWORD } });
  tenantB = b.body.data.id;
  const betaToken = await h.login('beta_admin', PASSWORD, tenantB);
  u.betaAdmin = { id: '', token: betaToken };
  org.bRoot = (await h.call('GET', '/api/v1/admin/orgs/tree', { token: betaToken })).body.data[0].id;
  org.bOps = await mkOrg(betaToken, 'Ops', null);
  await mkUser('oscar', 'oscar', 'Oscar Anders', [org.bOps], betaToken, tenantB);
});

describe('POST /console/users/update-password', () => {
  it('changes your own password like /base/update_password', async () => {
    const token = await h.login('bob', PASSWORD);
    const r = await h.call('POST', `${URL}/update-password`, {
      token,
      body: { old_password: PASSWORD, new_password: 'Bobpass123', confirm_password: 'Bobpass123' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token })).status).toBe(401);
    const fresh = await h.login('bob', 'Bobpass123');
    await h.call('POST', `${URL}/update-password`, {
      token: fresh,
      body: { old_password: 'Bobpass123', new_password: PASSWORD, confirm_password: PASSWORD },
    });
    u.bob.token = await h.login('bob', PASSWORD);
  });

  it('refuses a wrong old password, a mismatch, a weak password and no token, changing nothing', async () => {
    const [before] = await h.studio.ctx.db.select().from(users).where(eq(users.id, u.carol.id));
    const post = (body: unknown, token: string | undefined = u.carol.token) => h.call('POST', `${URL}/update-password`, { token, body });
    expectCode(await post({ old_password: 'wrong-pass1', new_password: 'Carol12345', confirm_password: 'Carol12345' }), 400, 'AUTH-1005');
    expectCode(await post({ old_password: PASSWORD, new_password: 'Carol12345', confirm_password: 'Carol99999' }), 400, 'VALIDATION-1000');
    expectCode(await post({ old_password: PASSWORD, new_password: 'weak', confirm_password: 'weak' }), 400, 'VALIDATION-1000');
    expectCode(await post({}), 400, 'VALIDATION-1000');
    expectCode(await post({ old_password: PASSWORD, new_password: 'Carol12345', confirm_password: 'Carol12345' }, ''), 401, 'AUTH-1001');
    const [after] = await h.studio.ctx.db.select().from(users).where(eq(users.id, u.carol.id));
    expect(after).toEqual(before);
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token: u.carol.token })).status).toBe(200);
  });
});

describe('GET /console/users', () => {
  it("lists the enabled users of the caller's tenant by name, as picker users, and pages", async () => {
    const r = await h.call('GET', URL, { token: u.plain.token });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 7, page: 1, page_size: 20 });
    expect(r.body.data.items.map((x: PUser) => x.username)).toEqual(['admin', 'alice', 'bob', 'carol', 'dave', 'erin', 'plain']);
    const alice = r.body.data.items[1] as PUser;
    expect(alice).toMatchObject({ name: 'Alice Anders', isMultiOrg: true, masterOrgTreeName: 'Default tenant/R&D/Platform' });
    const byName = await h.call('GET', URL, { token: u.plain.token, query: { name: 'ANDERS' } });
    expect(byName.body.data.items.map((x: PUser) => x.username)).toEqual(['alice']);
    const byNick = await h.call('GET', URL, { token: u.plain.token, query: { name: 'ally' } });
    expect(byNick.body.data.items.map((x: PUser) => x.username)).toEqual(['alice']);
    const page = await h.call('GET', URL, { token: u.plain.token, query: { page: 2, page_size: 3 } });
    expect(page.body.data).toMatchObject({ total: 7, page: 2, page_size: 3 });
    expect(page.body.data.items.map((x: PUser) => x.username)).toEqual(['carol', 'dave', 'erin']);
    // Frank is disabled.
    expect((await h.call('GET', URL, { token: u.plain.token, query: { name: 'frank' } })).body.data.total).toBe(0);
  });

  it('shows a tenant B user only tenant B', async () => {
    const r = await h.call('GET', URL, { token: u.oscar.token, query: { name: 'anders' } });
    expect(r.body.data.items.map((x: PUser) => x.username)).toEqual(['oscar']);
    expect((await h.call('GET', URL, { token: u.oscar.token })).body.data.total).toBe(2);
  });

  it('refuses bad paging and no token', async () => {
    expectCode(await h.call('GET', URL, { token: u.plain.token, query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectCode(await h.call('GET', URL, { token: u.plain.token, query: { page: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL), 401, 'AUTH-1001');
  });
});

describe('POST /console/users/users-by-ids', () => {
  it('answers enabled users of the tenant in the order given; unknown, disabled and foreign ids are left out', async () => {
    const r = await h.call('POST', `${URL}/users-by-ids`, { token: u.plain.token, body: { userIds: [u.dave.id, u.frank.id, u.oscar.id, MISSING, u.alice.id] } });
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: PUser) => x.username)).toEqual(['dave', 'alice']);
    expect(r.body.data[0]).toMatchObject({
      orgs: [{ id: org.rd, treeNames: 'Default tenant/R&D', parentIds: [org.root], isMaster: true }],
      parentIdList: [org.root, org.rd],
      isMultiOrg: false,
    });
    const b = await h.call('POST', `${URL}/users-by-ids`, { token: u.oscar.token, body: { userIds: [u.dave.id, u.oscar.id] } });
    expect(b.body.data.map((x: PUser) => x.username)).toEqual(['oscar']);
    expect((await h.call('POST', `${URL}/users-by-ids`, { token: u.plain.token, body: { userIds: [] } })).body.data).toEqual([]);
    expectCode(await h.call('POST', `${URL}/users-by-ids`, { token: u.plain.token, body: { userIds: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${URL}/users-by-ids`, { body: { userIds: [] } }), 401, 'AUTH-1001');
  });
});

describe('POST /console/users/orgs-with-users', () => {
  it('answers the direct child organisations and a page of direct users', async () => {
    const r = await h.call('POST', `${URL}/orgs-with-users`, { token: u.plain.token, body: { orgId: org.rd } });
    expect(r.status).toBe(200);
    expect(r.body.data.orgs.map((o: POrg) => [o.name, o.treeNames, o.parentIds, o.hasEmpNum, o.hasOrgNum])).toEqual([
      ['Platform', 'Default tenant/R&D/Platform', [org.root, org.rd], 2, 0],
      ['Web', 'Default tenant/R&D/Web', [org.root, org.rd], 1, 0],
    ]);
    expect(r.body.data.users).toMatchObject({ total: 1, page: 1, page_size: 80 });
    expect(r.body.data.users.items.map((x: PUser) => x.username)).toEqual(['dave']);
    const root = await h.call('POST', `${URL}/orgs-with-users`, { token: u.plain.token, body: { orgId: ROOT_ORG_ID, page_size: 1 } });
    expect(root.body.data.orgs.map((o: POrg) => [o.name, o.hasEmpNum])).toEqual([
      ['R&D', 4],
      ['Sales', 2],
      ['Empty', 0],
    ]);
    expect(root.body.data.users).toMatchObject({ total: 2, page_size: 1 });
    const p2 = await h.call('POST', `${URL}/orgs-with-users`, { token: u.plain.token, body: { orgId: org.root, page: 2, page_size: 1 } });
    expect(p2.body.data.users.items.map((x: PUser) => x.username)).toEqual(['plain']);
  });

  it('refuses bad input and another tenant\'s organisation', async () => {
    const post = (token: string, body: unknown) => h.call('POST', `${URL}/orgs-with-users`, { token, body });
    expectCode(await post(u.plain.token, { orgId: org.bOps }), 400, 'VALIDATION-1000');
    expectCode(await post(u.oscar.token, { orgId: org.rd }), 400, 'VALIDATION-1000');
    expectCode(await post(u.plain.token, { orgId: 'x' }), 400, 'VALIDATION-1000');
    expectCode(await post(u.plain.token, { orgId: org.rd, page_size: 1001 }), 400, 'VALIDATION-1009');
    const b = await post(u.oscar.token, { orgId: org.bRoot });
    expect(b.body.data.orgs.map((o: POrg) => o.name)).toEqual(['Ops']);
    expect(b.body.data.users.items.map((x: PUser) => x.username)).toEqual(['beta_admin']);
  });
});

describe('POST /console/users/search-orgs-and-users', () => {
  it('finds organisations and users by part of a name, any case, in the caller\'s tenant only', async () => {
    const r = await h.call('POST', `${URL}/search-orgs-and-users`, { token: u.plain.token, body: { nameLike: 'AND' } });
    expect(r.status).toBe(200);
    // Names containing 'and': Alice Anders, Oscar Anders (tenant B); no organisation.
    expect(r.body.data.orgs).toEqual([]);
    expect(r.body.data.users.items.map((x: PUser) => x.username)).toEqual(['alice']);
    const orgsHit = await h.call('POST', `${URL}/search-orgs-and-users`, { token: u.plain.token, body: { nameLike: 'e', page_size: 2 } });
    expect(orgsHit.body.data.orgs.map((o: POrg) => o.treeNames)).toEqual([
      'Default tenant',
      'Default tenant/Empty',
      'Default tenant/R&D/Web',
      'Default tenant/Sales',
    ]);
    expect(orgsHit.body.data.users).toMatchObject({ page: 1, page_size: 2 });
    expect(orgsHit.body.data.users.items).toHaveLength(2);
    const b = await h.call('POST', `${URL}/search-orgs-and-users`, { token: u.oscar.token, body: { nameLike: 'o' } });
    expect(b.body.data.orgs.map((o: POrg) => o.name)).toEqual(['Ops']);
    expect(b.body.data.users.items.map((x: PUser) => x.username)).toEqual(['oscar']);
    expectCode(await h.call('POST', `${URL}/search-orgs-and-users`, { token: u.plain.token, body: {} }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${URL}/search-orgs-and-users`, { token: u.plain.token, body: { nameLike: 'x'.repeat(65) } }), 400, 'VALIDATION-1000');
  });
});

describe('POST /console/users/users-ensure-status', () => {
  const ensure = (token: string, orgUsers: { orgId: string; userIds: string[] }[]) =>
    h.call('POST', `${URL}/users-ensure-status`, { token, body: { orgUsers } });

  it('compares the selection with every enabled user under the organisation, sub-organisations included', async () => {
    const r = await ensure(u.plain.token, [
      { orgId: org.rd, userIds: [u.alice.id, u.bob.id, u.carol.id, u.dave.id] },
      { orgId: org.platform, userIds: [u.alice.id] },
      { orgId: org.web, userIds: [] },
      // Frank is disabled: alice and erin are all of Sales.
      { orgId: org.sales, userIds: [u.alice.id, u.erin.id] },
      // Users outside the organisation do not count.
      { orgId: org.empty, userIds: [u.alice.id] },
      { orgId: org.root, userIds: [u.alice.id, u.bob.id, u.carol.id, u.dave.id, u.erin.id, u.plain.id, adminId] },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      [org.rd]: 'all',
      [org.platform]: 'half',
      [org.web]: 'none',
      [org.sales]: 'all',
      [org.empty]: 'none',
      [org.root]: 'all',
    });
    const more = await ensure(u.plain.token, [
      { orgId: org.rd, userIds: [u.carol.id] },
      { orgId: org.rd.replace(/.$/, (c) => (c === '0' ? '1' : '0')), userIds: [u.carol.id] },
      { orgId: org.sales, userIds: [u.frank.id] },
      { orgId: org.root, userIds: [u.dave.id, u.dave.id] },
    ]);
    expect(more.body.data[org.rd]).toBe('half');
    expect(more.body.data[org.sales]).toBe('none');
    expect(more.body.data[org.root]).toBe('half');
    expect(Object.values(more.body.data)).toHaveLength(4);
  });

  it("treats another tenant's organisations and users as unknown", async () => {
    const a = await ensure(u.oscar.token, [{ orgId: org.rd, userIds: [u.alice.id, u.bob.id, u.carol.id, u.dave.id] }]);
    expect(a.body.data).toEqual({ [org.rd]: 'none' });
    const b = await ensure(u.plain.token, [{ orgId: org.bOps, userIds: [u.oscar.id] }]);
    expect(b.body.data).toEqual({ [org.bOps]: 'none' });
    const own = await ensure(u.oscar.token, [{ orgId: org.bOps, userIds: [u.oscar.id] }]);
    expect(own.body.data).toEqual({ [org.bOps]: 'all' });
  });

  it('refuses bad input and no token', async () => {
    expectCode(await h.call('POST', `${URL}/users-ensure-status`, { token: u.plain.token, body: {} }), 400, 'VALIDATION-1000');
    expectCode(await ensure(u.plain.token, [{ orgId: 'x', userIds: [] }]), 400, 'VALIDATION-1000');
    expectCode(await ensure(u.plain.token, [{ orgId: org.rd, userIds: ['y'] }]), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${URL}/users-ensure-status`, { body: { orgUsers: [] } }), 401, 'AUTH-1001');
    expect((await ensure(u.plain.token, [])).body.data).toEqual({});
  });
});
