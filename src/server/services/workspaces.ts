import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users, workspaceMembers, workspaces } from '../db/schema';
import { type Caller, requireMembership, UUID_RE } from '../context';
import { AppError, badRequest, exists, forbidden, notFoundOrForeign } from '../errors';
import { forgetDraftRows } from './cache-generations';
import { ErrorCode } from '../../../schemas/errors';
import type { Member, MemberRole, Workspace } from '../../../schemas/workspace';
import { isUniqueViolation } from '../db/pg-errors';

/**
 * Project spaces (workspaces) and their members (spec 3, 4, 6). Every query is scoped by the
 * caller's tenant (from the verified token) and by the caller's membership; roles follow spec 6:
 * owner changes, deletes, sets roles, removes and transfers; owner and admin add members (an admin
 * only as ordinary members: a role above that is set by the owner); any member views; any
 * non-owner member may exit.
 */

type WorkspaceRow = typeof workspaces.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const OWNER_ONLY = ['owner'] as const;
const MANAGERS = ['owner', 'admin'] as const;

/** LIKE pattern for a case-insensitive substring match, with the wildcards in the input escaped. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const memberCount = sql<number>`(select count(*)::int from ${workspaceMembers} where ${workspaceMembers.workspaceId} = ${workspaces.id})`;

function toWorkspace(w: WorkspaceRow, role: MemberRole, count: number): Workspace {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    icon: w.icon,
    role_type: role,
    member_count: Number(count),
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}

/** The workspace as the caller sees it (their role and the member count). */
async function workspaceView(db: Db, caller: Caller, workspaceId: string): Promise<Workspace> {
  const m = await requireMembership(db, caller, workspaceId);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return toWorkspace(m.workspace, m.role, n);
}

/**
 * Refuses a name already used in the tenant (case-insensitive). Call inside a transaction: the
 * advisory lock on the tenant serialises concurrent creates and renames until it commits.
 */
async function assertNameFree(db: Tx, tenantId: string, name: string, exceptId?: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${'workspace-name:' + tenantId}))`);
  const conds: SQL[] = [eq(workspaces.tenantId, tenantId), sql`lower(${workspaces.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(workspaces.id, exceptId));
  const [hit] = await db.select({ id: workspaces.id }).from(workspaces).where(and(...conds)).limit(1);
  if (hit) throw exists(`A project space named '${name}' already exists`);
}

export interface WorkspaceListInput {
  page: number;
  page_size: number;
  name?: string;
}

/** The caller's workspaces in the caller's tenant, newest first. */
export async function listWorkspaces(db: Db, caller: Caller, q: WorkspaceListInput) {
  const conds: SQL[] = [eq(workspaces.tenantId, caller.tenantId)];
  if (q.name) conds.push(ilike(workspaces.name, contains(q.name)));
  const joined = and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, caller.userId));
  const where = and(...conds);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(workspaces)
    .innerJoin(workspaceMembers, joined)
    .where(where);
  const rows = await db
    .select({ w: workspaces, role: workspaceMembers.role, count: memberCount })
    .from(workspaces)
    .innerJoin(workspaceMembers, joined)
    .where(where)
    .orderBy(desc(workspaces.createdAt), desc(workspaces.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return {
    items: rows.map((r) => toWorkspace(r.w, r.role, r.count)),
    total: Number(total),
    page: q.page,
    page_size: q.page_size,
  };
}

export async function getWorkspace(db: Db, caller: Caller, workspaceId: string) {
  return workspaceView(db, caller, workspaceId);
}

/** Creates a workspace in the caller's tenant with the caller as owner. */
export async function createWorkspace(db: Db, caller: Caller, input: { name: string; description: string; icon: string }) {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await assertNameFree(tx, caller.tenantId, input.name);
    await tx.insert(workspaces).values({
      id,
      tenantId: caller.tenantId,
      name: input.name,
      description: input.description,
      icon: input.icon,
      createdBy: caller.userId,
    });
    await tx.insert(workspaceMembers).values({ id: randomUUID(), workspaceId: id, userId: caller.userId, role: 'owner' });
  });
  return workspaceView(db, caller, id);
}

/** Owner only. Fields left out stay as they are; a body with nothing to change is refused. */
export async function updateWorkspace(
  db: Db,
  caller: Caller,
  input: { id: string; name?: string; description?: string; icon?: string },
) {
  await requireMembership(db, caller, input.id, OWNER_ONLY);
  if (input.name === undefined && input.description === undefined && input.icon === undefined) {
    throw new AppError(400, ErrorCode.FORM_ALL_EMPTY, 'Form non-ID data cannot all be empty');
  }
  await db.transaction(async (tx) => {
    if (input.name !== undefined) await assertNameFree(tx, caller.tenantId, input.name, input.id);
    await tx
      .update(workspaces)
      .set({ name: input.name, description: input.description, icon: input.icon, updatedAt: new Date() })
      .where(and(eq(workspaces.id, input.id), eq(workspaces.tenantId, caller.tenantId)));
  });
  return workspaceView(db, caller, input.id);
}

/** Owner only; members go with it (foreign key cascade). */
export async function deleteWorkspace(db: Db, caller: Caller, workspaceId: string) {
  await requireMembership(db, caller, workspaceId, OWNER_ONLY);
  await db.delete(workspaces).where(and(eq(workspaces.id, workspaceId), eq(workspaces.tenantId, caller.tenantId)));
  forgetDraftRows();
}

// ---------------------------------------------------------------- members

const memberColumns = {
  id: workspaceMembers.id,
  userId: workspaceMembers.userId,
  role: workspaceMembers.role,
  addedAt: workspaceMembers.createdAt,
  username: users.username,
  realName: users.realName,
  nickname: users.nickname,
  avatar: users.avatar,
  serialNumber: users.serialNumber,
};

interface MemberRow {
  id: string;
  userId: string;
  role: MemberRole;
  addedAt: Date;
  username: string;
  realName: string;
  nickname: string;
  avatar: string;
  serialNumber: string;
}

function toMember(r: MemberRow): Member {
  return {
    id: r.id,
    user_id: r.userId,
    name: r.realName || r.username,
    serial_number: r.serialNumber,
    account: r.username,
    role: r.role,
    nick_name: r.nickname,
    avatar: r.avatar,
    added_at: r.addedAt.toISOString(),
  };
}

const roleRank = sql`case ${workspaceMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`;

async function memberRows(db: Db, where: SQL | undefined, limit?: number, offset?: number) {
  const q = db
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(where)
    .orderBy(roleRank, asc(workspaceMembers.createdAt), asc(users.serialNumber), asc(workspaceMembers.id));
  const rows = limit === undefined ? await q : await q.limit(limit).offset(offset ?? 0);
  return rows.map(toMember);
}

export interface MemberListInput {
  page: number;
  page_size: number;
  name?: string;
  role?: MemberRole;
}

/** Any member may list; owner first, then admins, then by the time they were added. */
export async function listMembers(db: Db, caller: Caller, workspaceId: string, q: MemberListInput) {
  await requireMembership(db, caller, workspaceId);
  const conds: SQL[] = [eq(workspaceMembers.workspaceId, workspaceId)];
  if (q.role) conds.push(eq(workspaceMembers.role, q.role));
  if (q.name) {
    const p = contains(q.name);
    conds.push(or(ilike(users.realName, p), ilike(users.username, p), ilike(users.nickname, p))!);
  }
  const where = and(...conds);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(where);
  const items = await memberRows(db, where, q.page_size, (q.page - 1) * q.page_size);
  return { items, total: Number(total), page: q.page, page_size: q.page_size };
}

/**
 * Owner and admin add users of the caller's tenant (enabled ones only); only the owner may add them
 * as admin, since setting roles is the owner's (spec 6) and an admin reads credentials' secret keys.
 * Unknown, foreign or disabled users answer VALIDATION-1000 with their ids in `data.user_ids`; users
 * already in the workspace answer VALIDATION-1001 likewise. All or nothing.
 */
export async function addMembers(db: Db, caller: Caller, workspaceId: string, input: { user_ids: string[]; role: 'admin' | 'ordinary_member' }) {
  const me = await requireMembership(db, caller, workspaceId, MANAGERS);
  if (input.role !== 'ordinary_member' && me.role !== 'owner') {
    throw forbidden('Only the owner of the project space may add members as admins');
  }
  const ids = [...new Set(input.user_ids)];
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.tenantId, caller.tenantId), eq(users.status, 1)));
  const known = new Set(found.map((u) => u.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw badRequest('Some users do not exist or are disabled', { user_ids: missing });
  const added = await db.transaction(async (tx) => {
    const already = await tx
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), inArray(workspaceMembers.userId, ids)));
    if (already.length) {
      throw new AppError(400, ErrorCode.EXISTS, 'Some users are already members of this project space', {
        user_ids: already.map((a) => a.userId),
      });
    }
    const rows = ids.map((userId) => ({ id: randomUUID(), workspaceId, userId, role: input.role }));
    await tx.insert(workspaceMembers).values(rows);
    return rows.map((r) => r.id);
  }).catch((e: unknown) => {
    // A concurrent add of the same user trips the (workspace, user) unique index.
    if (isUniqueViolation(e)) throw exists('Some users are already members of this project space');
    throw e;
  });
  return memberRows(db, inArray(workspaceMembers.id, added));
}

/** A member row of this workspace, or VALIDATION-1000. */
async function memberOf(db: Db, workspaceId: string, memberId: string) {
  if (!UUID_RE.test(memberId)) throw notFoundOrForeign('Member', memberId);
  const [row] = await db
    .select()
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.id, memberId), eq(workspaceMembers.workspaceId, workspaceId)));
  if (!row) throw notFoundOrForeign('Member', memberId);
  return row;
}

/** Owner only; the owner's own row changes only by transfer. */
export async function updateMemberRole(db: Db, caller: Caller, workspaceId: string, memberId: string, role: 'admin' | 'ordinary_member') {
  await requireMembership(db, caller, workspaceId, OWNER_ONLY);
  const m = await memberOf(db, workspaceId, memberId);
  if (m.role === 'owner') throw badRequest("The owner's role cannot be changed; transfer ownership instead");
  // The role is checked again in the write: a transfer meanwhile may have made this member the owner.
  await db.update(workspaceMembers).set({ role }).where(and(eq(workspaceMembers.id, m.id), ne(workspaceMembers.role, 'owner')));
  const [member] = await memberRows(db, eq(workspaceMembers.id, m.id));
  return member;
}

/** Owner only; the owner cannot be removed. */
export async function removeMember(db: Db, caller: Caller, workspaceId: string, memberId: string) {
  await requireMembership(db, caller, workspaceId, OWNER_ONLY);
  const m = await memberOf(db, workspaceId, memberId);
  if (m.role === 'owner') throw badRequest('The owner cannot be removed from the project space');
  await db.delete(workspaceMembers).where(and(eq(workspaceMembers.id, m.id), ne(workspaceMembers.role, 'owner')));
  forgetDraftRows();
}

/** Any non-owner member leaves; the owner must transfer ownership first. */
export async function exitWorkspace(db: Db, caller: Caller, workspaceId: string) {
  const m = await requireMembership(db, caller, workspaceId);
  if (m.role === 'owner') {
    throw badRequest('The owner cannot leave the project space; transfer ownership to another member first');
  }
  await db.delete(workspaceMembers).where(and(eq(workspaceMembers.id, m.memberId), ne(workspaceMembers.role, 'owner')));
  forgetDraftRows();
}

/**
 * Owner only: the member becomes owner and the old owner becomes admin, in one transaction. The
 * old owner's row is changed only while it is still the owner, so two concurrent transfers cannot
 * both succeed.
 */
export async function transferOwnership(db: Db, caller: Caller, workspaceId: string, memberId: string) {
  const me = await requireMembership(db, caller, workspaceId, OWNER_ONLY);
  const target = await memberOf(db, workspaceId, memberId);
  if (target.id === me.memberId) throw badRequest('You are already the owner of this project space');
  await db.transaction(async (tx) => {
    const demoted = await tx
      .update(workspaceMembers)
      .set({ role: 'admin' })
      .where(and(eq(workspaceMembers.id, me.memberId), eq(workspaceMembers.role, 'owner')))
      .returning({ id: workspaceMembers.id });
    if (!demoted.length) throw badRequest('You are no longer the owner of this project space');
    const promoted = await tx
      .update(workspaceMembers)
      .set({ role: 'owner' })
      .where(and(eq(workspaceMembers.id, target.id), eq(workspaceMembers.workspaceId, workspaceId)))
      .returning({ id: workspaceMembers.id });
    if (!promoted.length) throw notFoundOrForeign('Member', memberId);
  });
  forgetDraftRows();
  return workspaceView(db, caller, workspaceId);
}
