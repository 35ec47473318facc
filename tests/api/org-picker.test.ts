import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { orgUsers, orgs, users } from '../../src/server/db/schema';
import { ROOT_ORG_ID } from '../../schemas/common';

const h = useStudio();
const PASSWORD = 'Passw0rd123';
const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';
const ORG = '/api/v1/common/org';
const ADMIN_ORGS = '/api/v1/admin/orgs';

/*
 * Tenant A (default):        Default tenant (root)
 *                             ├─ R&D           dave
 *                             │  ├─ Platform   alice (master), bob
 *                             │  └─ Web        carol
 *                             ├─ Sales         alice, erin, frank (disabled)
 *                             ├─ Support       85 generated users (paging)
 *                             └─ Empty
 * root users: admin, ta (tenant admin of A), plain.
 * Tenant B (Beta):            Beta (root) ─ Ops: bob_b;  root: beta_admin
 */
const org = {} as Record<'root' | 'rd' | 'platform' | 'web' | 'sales' | 'support' | 'empty' | 'bRoot' | 'bOps', string>;
type Who = 'ta' | 'plain' | 'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'frank' | 'betaAdmin' | 'bobB';
const u = {} as Record<Who, { id: string; token: string }>;
let tenantB = '';

interface PUser {
  id: string;
  name: string;
  realName: string;
  username: string;
  avatar: string;
  orgs: { id: string; treeNames: string; parentIds: string[]; isMaster: boolean }[];
  parentIdList: string[];
  isMultiOrg: boolean;
  masterOrgTreeName: string;
}
interface POrg {
  id: string;
  name: string;
  treeNames: string;
  parentId: string | null;
  parentIds: string[];
  hasEmpNum: number;
  hasOrgNum: number;
  children: POrg[];
  empList: PUser[];
}

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

async function mkOrg(token: string, name: string, parentId: string | null, extra: Record<string, unknown> = {}) {
  const r = await h.call('POST', ADMIN_ORGS, { token, body: { name, parentId, ...extra } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id as string;
}

async function mkUser(who: Who, username: string, orgIds: string[], opts: { realName?: string; nickname?: string; token?: string; tenantId?: string; role?: string } = {}) {
  const r = await h.call('POST', '/api/v1/admin/users', {
    token: opts.token ?? h.adminToken,
    body: { username, password: PASSWORD, realName: opts.realName ?? '', nickname: opts.nickname ?? '', org_ids: orgIds, role: opts.role ?? 'user' },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  u[who] = { id: r.body.data.id, token: await h.login(username, PASSWORD, opts.tenantId ?? DEFAULT_TENANT_ID) };
}

const flatten = (list: POrg[]): POrg[] => list.flatMap((o) => [o, ...flatten(o.children)]);
const orgCount = async () => Number((await h.studio.ctx.db.select({ n: sql<number>`count(*)::int` }).from(orgs))[0].n);

beforeAll(async () => {
  const tree = await h.call('GET', `${ADMIN_ORGS}/tree`, { token: h.adminToken });
  org.root = tree.body.data[0].id;
  org.rd = await mkOrg(h.adminToken, 'R&D', null);
  org.platform = await mkOrg(h.adminToken, 'Platform', org.rd);
  org.web = await mkOrg(h.adminToken, 'Web', org.rd);
  org.sales = await mkOrg(h.adminToken, 'Sales', org.root);
  org.support = await mkOrg(h.adminToken, 'Support', null);
  org.empty = await mkOrg(h.adminToken, 'Empty', null);

  await mkUser('ta', 'ta', [], { role: 'tenant_admin', realName: 'Tina Admin' });
  await mkUser('plain', 'plain', [], { realName: 'Paul Plain' });
  await mkUser('alice', 'alice', [org.platform, org.sales], { realName: 'Alice Anders', nickname: 'ally' });
  await mkUser('bob', 'bob', [org.platform], { realName: 'Bob Brown' });
  await mkUser('carol', 'carol', [org.web], { realName: 'Carol Chen' });
  await mkUser('dave', 'dave', [org.rd], { realName: 'Dave Davis' });
  await mkUser('erin', 'erin', [org.sales], { realName: 'Erin Platt' });
  await mkUser('frank', 'frank', [org.sales], { realName: 'Frank Platform' });
  expect((await h.call('PUT', `/api/v1/admin/users/${u.frank.id}/status`, { token: h.adminToken, body: { status: 0 } })).status).toBe(200);

  // 85 support staff, inserted directly (hashing 85 passwords would only slow the test down).
  const db = h.studio.ctx.db;
  const staff = Array.from({ length: 85 }, (_, i) => ({
    id: randomUUID(),
    tenantId: DEFAULT_TENANT_ID,
    username: `support${String(i).padStart(3, '0')}`,
    passwordHash: 'x',
    realName: `Support ${String(i).padStart(3, '0')}`,
    serialNumber: `S${i}`,
  }));
  await db.insert(users).values(staff);
  await db.insert(orgUsers).values(staff.map((s) => ({ orgId: org.support, userId: s.id, isMaster: true })));

  const b = await h.call('POST', '/api/v1/admin/tenants', { token: h.adminToken, body: { name: 'Beta', admin_username: 'beta_admin', password: PASSWORD } });
  expect(b.status, JSON.stringify(b.body)).toBe(200);
  tenantB = b.body.data.id;
  const betaAdminToken = await h.login('beta_admin', PASSWORD, tenantB);
  u.betaAdmin = { id: '', token: betaAdminToken };
  const bTree = await h.call('GET', `${ADMIN_ORGS}/tree`, { token: betaAdminToken });
  org.bRoot = bTree.body.data[0].id;
  org.bOps = await mkOrg(betaAdminToken, 'Ops', null);
  // Same name as an A user: must never show up in A's picker and vice versa.
  await mkUser('bobB', 'bob_b', [org.bOps], { token: betaAdminToken, tenantId: tenantB, realName: 'Bob Platform' });
});

describe('admin orgs: tree, create, rename, delete', () => {
  it('lists the whole tree with nested children, counting disabled users too', async () => {
    const r = await h.call('GET', `${ADMIN_ORGS}/tree`, { token: h.adminToken });
    expect(r.status).toBe(200);
    const roots = r.body.data as POrg[];
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ id: org.root, name: 'Default tenant', parentId: null, parentIds: [], treeNames: 'Default tenant', hasOrgNum: 4 });
    expect(roots[0].children.map((c) => c.name)).toEqual(['R&D', 'Sales', 'Support', 'Empty']);
    const sales = flatten(roots).find((o) => o.id === org.sales)!;
    expect(sales.hasEmpNum).toBe(3); // alice, erin and the disabled frank
    const ta = await h.call('GET', `${ADMIN_ORGS}/tree`, { token: u.ta.token });
    expect(ta.body.data[0].id).toBe(org.root);
  });

  it('lets a super admin read another tenant by tenant_id; a tenant admin gets VALIDATION-1000, a user 403', async () => {
    const r = await h.call('GET', `${ADMIN_ORGS}/tree`, { token: h.adminToken, query: { tenant_id: tenantB } });
    expect(r.body.data[0]).toMatchObject({ id: org.bRoot, name: 'Beta' });
    expect(r.body.data[0].children.map((c: POrg) => c.name)).toEqual(['Ops']);
    expectCode(await h.call('GET', `${ADMIN_ORGS}/tree`, { token: u.ta.token, query: { tenant_id: tenantB } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${ADMIN_ORGS}/tree`, { token: u.betaAdmin.token, query: { tenant_id: DEFAULT_TENANT_ID } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${ADMIN_ORGS}/tree`, { token: h.adminToken, query: { tenant_id: MISSING } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${ADMIN_ORGS}/tree`, { token: u.plain.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', `${ADMIN_ORGS}/tree`), 401, 'AUTH-1001');
  });

  it('creates under a parent or the root and answers the new organisation', async () => {
    const r = await h.call('POST', ADMIN_ORGS, { token: u.ta.token, body: { name: 'Infra', parentId: org.platform } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: 'Infra',
      parentId: org.platform,
      parentIds: [org.root, org.rd, org.platform],
      treeNames: 'Default tenant/R&D/Platform/Infra',
      hasEmpNum: 0,
      hasOrgNum: 0,
      children: [],
      empList: [],
    });
    const top = await h.call('POST', ADMIN_ORGS, { token: h.adminToken, body: { name: 'Legal' } });
    expect(top.body.data).toMatchObject({ parentId: org.root, treeNames: 'Default tenant/Legal' });
    // A super admin creates in another tenant under its root or under one of its orgs.
    const inB = await h.call('POST', ADMIN_ORGS, { token: h.adminToken, body: { name: 'Finance', parentId: null, tenant_id: tenantB } });
    expect(inB.body.data).toMatchObject({ parentId: org.bRoot, treeNames: 'Beta/Finance' });
    const underB = await h.call('POST', ADMIN_ORGS, { token: h.adminToken, body: { name: 'Audit', parentId: inB.body.data.id } });
    expect(underB.body.data.treeNames).toBe('Beta/Finance/Audit');
    for (const id of [r.body.data.id, top.body.data.id, underB.body.data.id, inB.body.data.id]) {
      expect((await h.call('DELETE', `${ADMIN_ORGS}/${id}`, { token: h.adminToken })).status).toBe(200);
    }
  });

  it('refuses bad input, duplicates among siblings, foreign parents and plain users, creating nothing', async () => {
    const before = await orgCount();
    const post = (token: string, body: unknown) => h.call('POST', ADMIN_ORGS, { token, body });
    expectCode(await post(h.adminToken, { name: 'platform', parentId: org.rd }), 400, 'VALIDATION-1001');
    expectCode(await post(h.adminToken, { name: 'a/b', parentId: org.rd }), 400, 'VALIDATION-1000');
    expectCode(await post(h.adminToken, { name: '  ', parentId: org.rd }), 400, 'VALIDATION-1000');
    expectCode(await post(h.adminToken, { name: 'x'.repeat(65) }), 400, 'VALIDATION-1000');
    expectCode(await post(h.adminToken, { id: MISSING, name: 'With id' }), 400, 'VALIDATION-1002');
    expectCode(await post(h.adminToken, { name: 'Extra', color: 'red' }), 400, 'VALIDATION-1000');
    expectCode(await post(h.adminToken, { name: 'Lost', parentId: MISSING }), 400, 'VALIDATION-1000');
    expectCode(await post(u.ta.token, { name: 'Sneaky', parentId: org.bOps }), 400, 'VALIDATION-1000');
    expectCode(await post(u.ta.token, { name: 'Sneaky', tenant_id: tenantB }), 400, 'VALIDATION-1000');
    expectCode(await post(u.betaAdmin.token, { name: 'Sneaky', parentId: org.rd }), 400, 'VALIDATION-1000');
    expectCode(await post(h.adminToken, { name: 'Mixed', parentId: org.rd, tenant_id: tenantB }), 400, 'VALIDATION-1000');
    expectCode(await post(u.plain.token, { name: 'Mine', parentId: org.rd }), 403, 'PERMISSION-1000');
    expectCode(await post(u.plain.token, { bad: true }), 403, 'PERMISSION-1000');
    expect(await orgCount()).toBe(before);
    // The same name under another parent is fine.
    const ok = await post(h.adminToken, { name: 'Platform', parentId: org.sales });
    expect(ok.status).toBe(200);
    await h.call('DELETE', `${ADMIN_ORGS}/${ok.body.data.id}`, { token: h.adminToken });
  });

  it('renames; refuses a sibling duplicate, a foreign org and a plain user', async () => {
    const r = await h.call('PUT', `${ADMIN_ORGS}/${org.web}`, { token: u.ta.token, body: { name: 'Web Apps' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Web Apps', treeNames: 'Default tenant/R&D/Web Apps', hasEmpNum: 1 });
    expectCode(await h.call('PUT', `${ADMIN_ORGS}/${org.web}`, { token: u.ta.token, body: { name: 'PLATFORM' } }), 400, 'VALIDATION-1001');
    expectCode(await h.call('PUT', `${ADMIN_ORGS}/${org.web}`, { token: u.ta.token, body: { name: '' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', `${ADMIN_ORGS}/${org.web}`, { token: u.betaAdmin.token, body: { name: 'Hijack' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', `${ADMIN_ORGS}/nope`, { token: u.ta.token, body: { name: 'X' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', `${ADMIN_ORGS}/${org.web}`, { token: u.plain.token, body: { name: 'Mine' } }), 403, 'PERMISSION-1000');
    const [row] = await h.studio.ctx.db.select().from(orgs).where(eq(orgs.id, org.web));
    expect(row.name).toBe('Web Apps');
    await h.call('PUT', `${ADMIN_ORGS}/${org.web}`, { token: u.ta.token, body: { name: 'Web' } });
  });

  it('deletes only an empty, non-root organisation of the caller', async () => {
    const before = await orgCount();
    for (const id of [org.rd, org.sales, org.root]) {
      expectCode(await h.call('DELETE', `${ADMIN_ORGS}/${id}`, { token: h.adminToken }), 400, 'VALIDATION-1000');
    }
    expectCode(await h.call('DELETE', `${ADMIN_ORGS}/${org.empty}`, { token: u.betaAdmin.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${ADMIN_ORGS}/${MISSING}`, { token: h.adminToken }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${ADMIN_ORGS}/${org.empty}`, { token: u.plain.token }), 403, 'PERMISSION-1000');
    expect(await orgCount()).toBe(before);
    const tmp = await mkOrg(u.ta.token, 'Temporary', org.empty);
    expect((await h.call('DELETE', `${ADMIN_ORGS}/${tmp}`, { token: u.ta.token })).status).toBe(200);
    expect(await orgCount()).toBe(before);
  });
});

describe('common/org picker', () => {
  it('tree-list: the whole tree with treeNames, parentIds, hasEmpNum (enabled, distinct) and hasOrgNum', async () => {
    const r = await h.call('POST', `${ORG}/tree-list`, { token: u.plain.token, body: {} });
    expect(r.status).toBe(200);
    const roots = r.body.data as POrg[];
    expect(roots).toHaveLength(1);
    const all = flatten(roots);
    expect(all.every((o) => o.empList.length === 0)).toBe(true);
    const by = (id: string) => all.find((o) => o.id === id)!;
    // root: admin, ta, plain, alice, bob, carol, dave, erin, 85 support (frank is disabled)
    expect(by(org.root)).toMatchObject({ parentId: null, parentIds: [], hasEmpNum: 93, hasOrgNum: 4, treeNames: 'Default tenant' });
    expect(by(org.rd)).toMatchObject({ parentId: org.root, parentIds: [org.root], treeNames: 'Default tenant/R&D', hasEmpNum: 4, hasOrgNum: 2 });
    expect(by(org.platform)).toMatchObject({
      parentId: org.rd,
      parentIds: [org.root, org.rd],
      treeNames: 'Default tenant/R&D/Platform',
      hasEmpNum: 2,
      hasOrgNum: 0,
      children: [],
    });
    expect(by(org.web).hasEmpNum).toBe(1);
    expect(by(org.sales).hasEmpNum).toBe(2);
    expect(by(org.support).hasEmpNum).toBe(85);
    expect(by(org.empty).hasEmpNum).toBe(0);
    expect(by(org.rd).children.map((c) => c.name)).toEqual(['Platform', 'Web']);
  });

  it('tree-list of a tenant B user holds only B', async () => {
    const r = await h.call('POST', `${ORG}/tree-list`, { token: u.bobB.token });
    const all = flatten(r.body.data);
    expect(all.map((o) => o.name).sort()).toEqual(['Beta', 'Ops']);
    expect(all.find((o) => o.id === org.bRoot)!.hasEmpNum).toBe(2);
  });

  it('by-orgId: the org, its direct children and a page of direct users (80 by default)', async () => {
    const rd = await h.call('POST', `${ORG}/by-orgId`, { token: u.plain.token, body: { orgId: org.rd } });
    expect(rd.status).toBe(200);
    expect(rd.body.data).toMatchObject({ id: org.rd, hasEmpNum: 4, hasOrgNum: 2, empTotal: 1, page: 1, page_size: 80 });
    expect(rd.body.data.children.map((c: POrg) => [c.name, c.hasEmpNum, c.children.length])).toEqual([
      ['Platform', 2, 0],
      ['Web', 1, 0],
    ]);
    expect(rd.body.data.empList.map((e: PUser) => e.username)).toEqual(['dave']);

    const p1 = await h.call('POST', `${ORG}/by-orgId`, { token: u.plain.token, body: { orgId: org.support } });
    expect(p1.body.data).toMatchObject({ empTotal: 85, page: 1, page_size: 80 });
    expect(p1.body.data.empList).toHaveLength(80);
    expect(p1.body.data.empList[0].username).toBe('support000');
    const p2 = await h.call('POST', `${ORG}/by-orgId`, { token: u.plain.token, body: { orgId: org.support, page: 2 } });
    expect(p2.body.data.empList.map((e: PUser) => e.username)).toEqual(['support080', 'support081', 'support082', 'support083', 'support084']);

    // Disabled users are not listed.
    const sales = await h.call('POST', `${ORG}/by-orgId`, { token: u.plain.token, body: { orgId: org.sales } });
    expect(sales.body.data.empList.map((e: PUser) => e.username)).toEqual(['alice', 'erin']);
    // The all-zero root id stands for the tenant's root organisation.
    const root = await h.call('POST', `${ORG}/by-orgId`, { token: u.plain.token, body: { orgId: ROOT_ORG_ID } });
    expect(root.body.data).toMatchObject({ id: org.root, hasOrgNum: 4 });
    expect(root.body.data.empList.map((e: PUser) => e.username)).toEqual(['admin', 'plain', 'ta']);
    const bRoot = await h.call('POST', `${ORG}/by-orgId`, { token: u.bobB.token, body: { orgId: ROOT_ORG_ID } });
    expect(bRoot.body.data.id).toBe(org.bRoot);
  });

  it('by-orgId refuses bad input and another tenant\'s organisation', async () => {
    const call = (token: string, body: unknown) => h.call('POST', `${ORG}/by-orgId`, { token, body });
    expectCode(await call(u.plain.token, { orgId: 'nope' }), 400, 'VALIDATION-1000');
    expectCode(await call(u.plain.token, {}), 400, 'VALIDATION-1000');
    expectCode(await call(u.plain.token, { orgId: org.rd, page_size: 1001 }), 400, 'VALIDATION-1009');
    expectCode(await call(u.plain.token, { orgId: org.rd, page: 0 }), 400, 'VALIDATION-1000');
    expectCode(await call(u.plain.token, { orgId: MISSING }), 400, 'VALIDATION-1000');
    expectCode(await call(u.bobB.token, { orgId: org.rd }), 400, 'VALIDATION-1000');
    expectCode(await call(u.plain.token, { orgId: org.bOps }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${ORG}/by-orgId`, { body: { orgId: org.rd } }), 401, 'AUTH-1001');
  });

  it('by-orgIds answers the known orgs of the caller\'s tenant in the order given', async () => {
    const r = await h.call('POST', `${ORG}/by-orgIds`, { token: u.plain.token, body: { orgIds: [org.web, MISSING, org.bOps, org.rd, org.web] } });
    expect(r.status).toBe(200);
    expect(r.body.data.map((o: POrg) => [o.id, o.treeNames, o.hasEmpNum, o.children.length])).toEqual([
      [org.web, 'Default tenant/R&D/Web', 1, 0],
      [org.rd, 'Default tenant/R&D', 4, 0],
    ]);
    expect((await h.call('POST', `${ORG}/by-orgIds`, { token: u.bobB.token, body: { orgIds: [org.rd, org.bOps] } })).body.data.map((o: POrg) => o.id)).toEqual([org.bOps]);
    expectCode(await h.call('POST', `${ORG}/by-orgIds`, { token: u.plain.token, body: { orgIds: ['x'] } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${ORG}/by-orgIds`, { token: u.plain.token, body: {} }), 400, 'VALIDATION-1000');
  });

  it('search: orgs and a page of enabled users whose names contain nameLike, any case', async () => {
    const r = await h.call('POST', `${ORG}/search`, { token: u.plain.token, body: { nameLike: 'PLAT' } });
    expect(r.status).toBe(200);
    expect(r.body.data.orgs.map((o: POrg) => o.treeNames)).toEqual(['Default tenant/R&D/Platform']);
    // Erin Platt matches; Frank Platform is disabled; Bob Platform is in tenant B.
    expect(r.body.data.users).toMatchObject({ total: 1, page: 1, page_size: 80 });
    expect(r.body.data.users.items.map((x: PUser) => x.username)).toEqual(['erin']);
    const nick = await h.call('POST', `${ORG}/search`, { token: u.plain.token, body: { nameLike: 'ALLY' } });
    expect(nick.body.data.users.items.map((x: PUser) => x.username)).toEqual(['alice']);
    const paged = await h.call('POST', `${ORG}/search`, { token: u.plain.token, body: { nameLike: 'support', page: 3, page_size: 40 } });
    expect(paged.body.data.orgs.map((o: POrg) => o.name)).toEqual(['Support']);
    expect(paged.body.data.users).toMatchObject({ total: 85, page: 3, page_size: 40 });
    expect(paged.body.data.users.items).toHaveLength(5);
    const wild = await h.call('POST', `${ORG}/search`, { token: u.plain.token, body: { nameLike: '%' } });
    expect(wild.body.data).toEqual({ orgs: [], users: { items: [], total: 0, page: 1, page_size: 80 } });
    const b = await h.call('POST', `${ORG}/search`, { token: u.bobB.token, body: { nameLike: 'plat' } });
    expect(b.body.data.orgs).toEqual([]);
    expect(b.body.data.users.items.map((x: PUser) => x.username)).toEqual(['bob_b']);
    expectCode(await h.call('POST', `${ORG}/search`, { token: u.plain.token, body: { nameLike: '' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${ORG}/search`, { token: u.plain.token, body: { nameLike: 'a', page_size: 5000 } }), 400, 'VALIDATION-1009');
  });

  it('users/by-userIds: picker users in the order given, unknown, disabled and foreign ids left out', async () => {
    const r = await h.call('POST', `${ORG}/users/by-userIds`, {
      token: u.plain.token,
      body: { userIds: [u.carol.id, MISSING, u.frank.id, u.bobB.id, u.alice.id] },
    });
    expect(r.status).toBe(200);
    const [carol, alice] = r.body.data as PUser[];
    expect(r.body.data).toHaveLength(2);
    expect(carol).toEqual({
      id: u.carol.id,
      name: 'Carol Chen',
      realName: 'Carol Chen',
      username: 'carol',
      avatar: '',
      orgs: [{ id: org.web, treeNames: 'Default tenant/R&D/Web', parentIds: [org.root, org.rd], isMaster: true }],
      parentIdList: [org.root, org.rd, org.web],
      isMultiOrg: false,
      masterOrgTreeName: 'Default tenant/R&D/Web',
    });
    expect(alice).toMatchObject({
      username: 'alice',
      isMultiOrg: true,
      masterOrgTreeName: 'Default tenant/R&D/Platform',
      orgs: [
        { id: org.platform, isMaster: true, parentIds: [org.root, org.rd] },
        { id: org.sales, isMaster: false, parentIds: [org.root] },
      ],
    });
    expect(alice.parentIdList.sort()).toEqual([org.root, org.rd, org.platform, org.sales].sort());
    const b = await h.call('POST', `${ORG}/users/by-userIds`, { token: u.bobB.token, body: { userIds: [u.alice.id, u.bobB.id] } });
    expect(b.body.data.map((x: PUser) => x.username)).toEqual(['bob_b']);
    expectCode(await h.call('POST', `${ORG}/users/by-userIds`, { token: u.plain.token, body: { userIds: ['1'] } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${ORG}/users/by-userIds`, { token: u.plain.token, body: { ids: [] } }), 400, 'VALIDATION-1000');
  });

  it('all picker calls need a token', async () => {
    for (const path of ['tree-list', 'search', 'by-orgIds', 'users/by-userIds']) {
      expectCode(await h.call('POST', `${ORG}/${path}`, { body: {} }), 401, 'AUTH-1001');
    }
  });
});

describe('GET /common/switch-app-config', () => {
  const URL = '/api/v1/common/switch-app-config';
  it('gives console and portal to everyone and system admin to super and tenant admins', async () => {
    const plain = await h.call('GET', URL, { token: u.plain.token });
    expect(plain.status).toBe(200);
    expect(plain.body.data).toEqual([
      { code: 'console', name: 'Console', url: '/operation' },
      { code: 'portal', name: 'Portal', url: '/portal' },
    ]);
    for (const token of [h.adminToken, u.ta.token, u.betaAdmin.token]) {
      const r = await h.call('GET', URL, { token });
      expect(r.body.data.map((e: { url: string }) => e.url)).toEqual(['/operation', '/portal', '/operation/system']);
    }
    expectCode(await h.call('GET', URL), 401, 'AUTH-1001');
  });
});

describe('OpenAPI document', () => {
  it('describes the admin, picker and console users routes with tags and summaries', async () => {
    const doc = await h.call('GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    const paths = doc.raw.json().paths as Record<string, Record<string, { tags?: string[]; summary?: string }>>;
    const expected: [string, string][] = [
      ['/api/v1/common/org/tree-list', 'post'],
      ['/api/v1/common/org/by-orgId', 'post'],
      ['/api/v1/common/org/by-orgIds', 'post'],
      ['/api/v1/common/org/search', 'post'],
      ['/api/v1/common/org/users/by-userIds', 'post'],
      ['/api/v1/common/switch-app-config', 'get'],
      ['/api/v1/console/users', 'get'],
      ['/api/v1/console/users/update-password', 'post'],
      ['/api/v1/console/users/users-by-ids', 'post'],
      ['/api/v1/console/users/orgs-with-users', 'post'],
      ['/api/v1/console/users/search-orgs-and-users', 'post'],
      ['/api/v1/console/users/users-ensure-status', 'post'],
      ['/api/v1/admin/users', 'post'],
      ['/api/v1/admin/users/{user_id}', 'put'],
      ['/api/v1/admin/users/{user_id}/status', 'put'],
      ['/api/v1/admin/users/{user_id}/password', 'put'],
      ['/api/v1/admin/users/password', 'put'],
      ['/api/v1/admin/tenants', 'get'],
      ['/api/v1/admin/tenants/{tenant_id}/status', 'put'],
      ['/api/v1/admin/orgs/tree', 'get'],
      ['/api/v1/admin/orgs/{org_id}', 'delete'],
    ];
    for (const [path, method] of expected) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      expect(op!.summary, `${method} ${path}`).toBeTruthy();
    }
  });
});
