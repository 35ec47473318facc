import { randomUUID } from 'node:crypto';
import { and, asc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orgUsers, orgs, users } from '../db/schema';
import { UUID_RE } from '../context';
import { badRequest, exists, notFoundOrForeign } from '../errors';
import { ROOT_ORG_ID } from '../../../schemas/common';
import type { PickerOrg, PickerUser, SelectionState } from '../../../schemas/org';
import { rootOrg, type UserRow } from './users';

/**
 * The organisation tree of a tenant and the person/org picker built on it (spec 3 "Picker user",
 * "Picker org"; spec 9). A tenant's tree is small next to its users, so every call loads the
 * tenant's organisations once and walks them in memory; users are paged in SQL. Every function
 * takes the tenant id from the verified caller: an id of another tenant is simply unknown.
 */

type OrgRow = typeof orgs.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface OrgNode {
  id: string;
  name: string;
  parentId: string | null;
  /** Ancestor ids from the root, this organisation excluded. */
  parentIds: string[];
  /** Names from the root to this organisation joined with '/'. */
  treeNames: string;
  children: OrgNode[];
}

export interface OrgIndex {
  tenantId: string;
  roots: OrgNode[];
  byId: Map<string, OrgNode>;
}

/** LIKE pattern for a case-insensitive substring match, with the wildcards in the input escaped. */
export const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Loads a tenant's organisations as a tree (siblings by sort, then creation). */
export async function loadOrgIndex(db: Db, tenantId: string): Promise<OrgIndex> {
  const rows = await db
    .select({ id: orgs.id, name: orgs.name, parentId: orgs.parentId })
    .from(orgs)
    .where(eq(orgs.tenantId, tenantId))
    .orderBy(asc(orgs.sort), asc(orgs.createdAt), asc(orgs.id));
  const byId = new Map<string, OrgNode>();
  for (const r of rows) byId.set(r.id, { ...r, parentIds: [], treeNames: r.name, children: [] });
  const roots: OrgNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const walk = (node: OrgNode, parentIds: string[], path: string[]) => {
    node.parentIds = parentIds;
    node.treeNames = [...path, node.name].join('/');
    for (const c of node.children) walk(c, [...parentIds, node.id], [...path, node.name]);
  };
  for (const r of roots) walk(r, [], []);
  return { tenantId, roots, byId };
}

/** The organisation and all below it. */
export function subtree(node: OrgNode): OrgNode[] {
  const out: OrgNode[] = [];
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...n.children);
  }
  return out;
}

/** Resolves a picker organisation id (the all-zero root id means the tenant's root) or answers VALIDATION-1000. */
export function requireOrg(index: OrgIndex, orgId: string): OrgNode {
  const node = orgId === ROOT_ORG_ID ? index.roots[0] : UUID_RE.test(orgId) ? index.byId.get(orgId) : undefined;
  if (!node) throw notFoundOrForeign('Organisation', orgId);
  return node;
}

/**
 * Who is in which organisation of the tenant, for counting. `enabledOnly` (the picker) leaves
 * disabled users out; the admin tree counts everyone.
 */
export class Membership {
  private direct = new Map<string, string[]>();
  private memo = new Map<string, Set<string>>();

  static async load(db: Db, tenantId: string, enabledOnly: boolean) {
    const conds: SQL[] = [eq(users.tenantId, tenantId)];
    if (enabledOnly) conds.push(eq(users.status, 1));
    const rows = await db
      .select({ orgId: orgUsers.orgId, userId: orgUsers.userId })
      .from(orgUsers)
      .innerJoin(users, eq(users.id, orgUsers.userId))
      .where(and(...conds));
    const m = new Membership();
    for (const r of rows) {
      const list = m.direct.get(r.orgId);
      if (list) list.push(r.userId);
      else m.direct.set(r.orgId, [r.userId]);
    }
    return m;
  }

  /** Distinct users of the organisation and everything below it. */
  usersUnder(node: OrgNode): Set<string> {
    const hit = this.memo.get(node.id);
    if (hit) return hit;
    const set = new Set<string>(this.direct.get(node.id) ?? []);
    for (const c of node.children) for (const u of this.usersUnder(c)) set.add(u);
    this.memo.set(node.id, set);
    return set;
  }
}

export type ChildMode = 'none' | 'direct' | 'deep';

/** An organisation in the picker shape; `children` controls how much of the tree below is included. */
export function toPickerOrg(node: OrgNode, members: Membership, children: ChildMode = 'none', empList: PickerUser[] = []): PickerOrg {
  const next: ChildMode = children === 'deep' ? 'deep' : 'none';
  return {
    id: node.id,
    name: node.name,
    treeNames: node.treeNames,
    parentId: node.parentId,
    parentIds: node.parentIds,
    hasEmpNum: members.usersUnder(node).size,
    hasOrgNum: node.children.length,
    children: children === 'none' ? [] : node.children.map((c) => toPickerOrg(c, members, next)),
    empList,
  };
}

/** Display name of a user in the picker. */
const displayName = (u: Pick<UserRow, 'realName' | 'nickname' | 'username'>) => u.realName || u.nickname || u.username;

/** Picker users for user rows of one tenant, keeping the given order. */
export async function toPickerUsers(db: Db, index: OrgIndex, rows: UserRow[]): Promise<PickerUser[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select()
    .from(orgUsers)
    .where(inArray(orgUsers.userId, rows.map((r) => r.id)));
  const byUser = new Map<string, { orgId: string; isMaster: boolean }[]>();
  for (const l of links) {
    const list = byUser.get(l.userId) ?? [];
    list.push(l);
    byUser.set(l.userId, list);
  }
  return rows.map((u) => {
    const own = (byUser.get(u.id) ?? [])
      .map((l) => ({ node: index.byId.get(l.orgId), isMaster: l.isMaster }))
      .filter((l): l is { node: OrgNode; isMaster: boolean } => !!l.node)
      .sort((a, b) => Number(b.isMaster) - Number(a.isMaster) || a.node.treeNames.localeCompare(b.node.treeNames));
    const parentIdList = [...new Set(own.flatMap((l) => [...l.node.parentIds, l.node.id]))];
    return {
      id: u.id,
      name: displayName(u),
      realName: u.realName,
      username: u.username,
      avatar: u.avatar,
      orgs: own.map((l) => ({ id: l.node.id, treeNames: l.node.treeNames, parentIds: l.node.parentIds, isMaster: l.isMaster })),
      parentIdList,
      isMultiOrg: own.length > 1,
      masterOrgTreeName: own[0]?.node.treeNames ?? '',
    };
  });
}

const userOrder = [asc(sql`lower(${users.realName})`), asc(sql`lower(${users.username})`), asc(users.id)];

/** A page of enabled users of the tenant matching `where`, as picker users. */
async function pickerUserPage(db: Db, index: OrgIndex, where: SQL | undefined, pageNo: number, pageSize: number) {
  const cond = and(eq(users.tenantId, index.tenantId), eq(users.status, 1), where);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(users).where(cond);
  const rows = await db
    .select()
    .from(users)
    .where(cond)
    .orderBy(...userOrder)
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  return { items: await toPickerUsers(db, index, rows), total: Number(total), page: pageNo, page_size: pageSize };
}

const directUsersOf = (orgId: string) =>
  sql`exists (select 1 from ${orgUsers} where ${orgUsers.userId} = ${users.id} and ${orgUsers.orgId} = ${orgId})`;

const nameMatches = (nameLike: string) => {
  const p = contains(nameLike);
  return or(ilike(users.realName, p), ilike(users.username, p), ilike(users.nickname, p));
};

// ---------------------------------------------------------------------------------------------
// Picker calls (common/org and console/users)

/** The whole tree of the tenant, children nested, no users. */
export async function orgTree(db: Db, tenantId: string, opts: { enabledOnly: boolean } = { enabledOnly: true }) {
  const [index, members] = await Promise.all([loadOrgIndex(db, tenantId), Membership.load(db, tenantId, opts.enabledOnly)]);
  return index.roots.map((r) => toPickerOrg(r, members, 'deep'));
}

/** One organisation with its direct children and a page of its direct (enabled) users. */
export async function orgWithUsers(db: Db, tenantId: string, orgId: string, pageNo: number, pageSize: number) {
  const [index, members] = await Promise.all([loadOrgIndex(db, tenantId), Membership.load(db, tenantId, true)]);
  const node = requireOrg(index, orgId);
  const people = await pickerUserPage(db, index, directUsersOf(node.id), pageNo, pageSize);
  return { node: toPickerOrg(node, members, 'direct'), users: people };
}

/** The given organisations of the tenant (unknown ids left out), in the order given. */
export async function orgsByIds(db: Db, tenantId: string, orgIds: string[]) {
  const [index, members] = await Promise.all([loadOrgIndex(db, tenantId), Membership.load(db, tenantId, true)]);
  return [...new Set(orgIds)].flatMap((id) => {
    const node = index.byId.get(id);
    return node ? [toPickerOrg(node, members)] : [];
  });
}

/** Organisations whose name contains `nameLike` (at most 200) and a page of matching users. */
export async function searchOrgsAndUsers(db: Db, tenantId: string, nameLike: string, pageNo: number, pageSize: number) {
  const [index, members] = await Promise.all([loadOrgIndex(db, tenantId), Membership.load(db, tenantId, true)]);
  const needle = nameLike.toLowerCase();
  const matched = [...index.byId.values()]
    .filter((n) => n.name.toLowerCase().includes(needle))
    .sort((a, b) => a.treeNames.localeCompare(b.treeNames))
    .slice(0, 200)
    .map((n) => toPickerOrg(n, members));
  const people = await pickerUserPage(db, index, nameMatches(nameLike), pageNo, pageSize);
  return { orgs: matched, users: people };
}

/** Enabled users of the tenant by id (unknown, foreign or disabled ids left out), in the order given. */
export async function usersByIds(db: Db, tenantId: string, userIds: string[]) {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.status, 1), inArray(users.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  return toPickerUsers(db, await loadOrgIndex(db, tenantId), ordered);
}

/** A page of the tenant's enabled users, optionally filtered by name. */
export async function listPickerUsers(db: Db, tenantId: string, q: { page: number; page_size: number; name?: string }) {
  const index = await loadOrgIndex(db, tenantId);
  return pickerUserPage(db, index, q.name ? nameMatches(q.name) : undefined, q.page, q.page_size);
}

/**
 * For each entry, the state of the selection against every enabled user under the organisation
 * (sub-organisations included): all, none or half. An unknown organisation has no users: none.
 */
export async function ensureStatus(db: Db, tenantId: string, entries: { orgId: string; userIds: string[] }[]) {
  const [index, members] = await Promise.all([loadOrgIndex(db, tenantId), Membership.load(db, tenantId, true)]);
  const out: Record<string, SelectionState> = {};
  for (const e of entries) {
    const node = index.byId.get(e.orgId);
    const under = node ? members.usersUnder(node) : new Set<string>();
    const selected = new Set(e.userIds.filter((id) => under.has(id))).size;
    out[e.orgId] = selected === 0 ? 'none' : selected === under.size ? 'all' : 'half';
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Admin: create, rename, delete

/** Serialises changes to a tenant's tree and refuses a sibling with the same name (case-insensitive). */
async function assertSiblingNameFree(tx: Tx, tenantId: string, parentId: string | null, name: string, exceptId?: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'org-tree:' + tenantId}))`);
  const conds: SQL[] = [
    eq(orgs.tenantId, tenantId),
    parentId ? eq(orgs.parentId, parentId) : sql`${orgs.parentId} is null`,
    sql`lower(${orgs.name}) = lower(${name})`,
  ];
  if (exceptId) conds.push(ne(orgs.id, exceptId));
  const [hit] = await tx.select({ id: orgs.id }).from(orgs).where(and(...conds)).limit(1);
  if (hit) throw exists(`An organisation named '${name}' already exists here`);
}

/** An organisation row of the tenant, or VALIDATION-1000. */
export async function orgOf(db: Db, tenantId: string | null, orgId: string): Promise<OrgRow> {
  if (!UUID_RE.test(orgId)) throw notFoundOrForeign('Organisation', orgId);
  const [row] = await db
    .select()
    .from(orgs)
    .where(tenantId ? and(eq(orgs.id, orgId), eq(orgs.tenantId, tenantId)) : eq(orgs.id, orgId));
  if (!row) throw notFoundOrForeign('Organisation', orgId);
  return row;
}

/** Creates an organisation under `parent` (the tenant's root when null); answers the new org. */
export async function createOrg(db: Db, tenantId: string, parentId: string | null, name: string) {
  const parent = parentId ? await orgOf(db, tenantId, parentId) : await rootOrg(db, tenantId);
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await assertSiblingNameFree(tx, tenantId, parent.id, name);
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${orgs.sort}), -1)::int + 1` })
      .from(orgs)
      .where(eq(orgs.parentId, parent.id));
    await tx.insert(orgs).values({ id, tenantId, parentId: parent.id, name, sort: Number(next) });
  });
  return id;
}

export async function renameOrg(db: Db, org: OrgRow, name: string) {
  await db.transaction(async (tx) => {
    await assertSiblingNameFree(tx, org.tenantId, org.parentId, name, org.id);
    await tx.update(orgs).set({ name, updatedAt: new Date() }).where(eq(orgs.id, org.id));
  });
}

/** Deletes an organisation that has no sub-organisations and no users; the root stays. */
export async function deleteOrg(db: Db, org: OrgRow) {
  if (org.parentId === null) throw badRequest('The root organisation cannot be deleted');
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'org-tree:' + org.tenantId}))`);
    const [child] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.parentId, org.id)).limit(1);
    if (child) throw badRequest('The organisation still has sub-organisations', { id: org.id });
    const [member] = await tx.select({ id: orgUsers.userId }).from(orgUsers).where(eq(orgUsers.orgId, org.id)).limit(1);
    if (member) throw badRequest('The organisation still has users', { id: org.id });
    await tx.delete(orgs).where(eq(orgs.id, org.id));
  });
}

/** One organisation of the tenant in the picker shape (admin: counts every user). */
export async function adminOrgView(db: Db, tenantId: string, orgId: string) {
  const [index, members] = await Promise.all([loadOrgIndex(db, tenantId), Membership.load(db, tenantId, false)]);
  return toPickerOrg(requireOrg(index, orgId), members, 'direct');
}

/** Checks that every id is an organisation of the tenant (VALIDATION-1000 otherwise); answers them deduplicated. */
export async function assertOrgsOfTenant(db: Db, tenantId: string, orgIds: string[]) {
  const ids = [...new Set(orgIds)];
  if (ids.length === 0) return ids;
  const found = await db
    .select({ id: orgs.id })
    .from(orgs)
    .where(and(eq(orgs.tenantId, tenantId), inArray(orgs.id, ids)));
  const known = new Set(found.map((f) => f.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw badRequest('Some organisations do not exist or you have no permission', { org_ids: missing });
  return ids;
}
