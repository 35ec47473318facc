import { and, eq, inArray, sql } from 'drizzle-orm';
import { UUID_RE, type Caller, type ServerContext } from '../context';
import { approvals, approvalSettings, orgs, users } from '../db/schema';
import { AppError } from '../errors';
import { rowsOf } from '../knowledge/queue';
import type { Tx } from '../services/workspace-resources';
import { ErrorCode } from '../../../schemas/errors';
import type { ApprovalKind, ApprovalSettings, ApprovalSettingsBody, ApproverRef, ApproverView } from '../../../schemas/approval';

/**
 * Who approves (schemas/approval.ts): the tenant's setting, and whether a caller is one of an
 * approval's approvers. An approval keeps the approver list of the setting it was opened under; who
 * belongs to an organisation or holds a role is read when they act, so membership changes apply.
 */

type Runner = ServerContext['db'] | Tx;

const userName = sql<string>`coalesce(nullif(${users.realName}, ''), nullif(${users.nickname}, ''), ${users.username})`;

/** The setting's approvers when approval is on for `kind` in the tenant (null: off, submissions go straight on). */
export async function approversFor(db: Runner, tenantId: string, kind: ApprovalKind): Promise<ApproverRef[] | null> {
  const [row] = await db.select().from(approvalSettings).where(eq(approvalSettings.tenantId, tenantId));
  if (!row || !row[kind] || !row.approvers.length) return null;
  return row.approvers as ApproverRef[];
}

/**
 * The caller's approver keys (`kind:id`): themselves, their organisations and every organisation above
 * them (an organisation's approvers include its sub-organisations' members), and their admin role.
 */
export async function approverKeys(ctx: ServerContext, caller: Caller): Promise<string[]> {
  const found = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`
      with recursive up(id, parent_id) as (
        select o.id, o.parent_id from org_users ou join orgs o on o.id = ou.org_id
         where ou.user_id = ${caller.userId} and o.tenant_id = ${caller.tenantId}
        union
        select o.id, o.parent_id from orgs o join up on o.id = up.parent_id where o.tenant_id = ${caller.tenantId}
      ) select id from up`),
  );
  const keys = [`user:${caller.userId}`, ...found.map((o) => `org:${o.id}`)];
  if (caller.role === 'tenant_admin' || caller.role === 'super_admin') keys.push('role:tenant_admin');
  return keys;
}

/** SQL: the approval's approver list names one of `keys`. */
export const approverMatch = (keys: string[]) =>
  sql`exists (select 1 from jsonb_array_elements(${approvals.approvers}) e where (e->>'kind') || ':' || (e->>'id') in (${sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  )}))`;

export const isApproverOf = (approvers: ApproverRef[], keys: string[]) => approvers.some((a) => keys.includes(`${a.kind}:${a.id}`));

/** Approvers with their names (people and organisations of the tenant; an unknown one keeps an empty name). */
export async function namedApprovers(ctx: ServerContext, tenantId: string, list: ApproverRef[]): Promise<ApproverView[]> {
  const ids = (kind: ApproverRef['kind']) => list.filter((a) => a.kind === kind && UUID_RE.test(a.id)).map((a) => a.id);
  const userIds = ids('user');
  const orgIds = ids('org');
  const [us, os] = await Promise.all([
    userIds.length ? ctx.db.select({ id: users.id, name: userName }).from(users).where(and(inArray(users.id, userIds), eq(users.tenantId, tenantId))) : [],
    orgIds.length ? ctx.db.select({ id: orgs.id, name: orgs.name }).from(orgs).where(and(inArray(orgs.id, orgIds), eq(orgs.tenantId, tenantId))) : [],
  ]);
  return list.map((a) => ({ ...a, name: a.kind === 'role' ? '' : ((a.kind === 'user' ? us : os).find((x) => x.id === a.id)?.name ?? '') }));
}

/** GET /admin/approval/settings: the caller's tenant's setting (off with no approvers when never saved). */
export async function getSettings(ctx: ServerContext, caller: Caller): Promise<ApprovalSettings> {
  const [row] = await ctx.db
    .select({ s: approvalSettings, by: userName })
    .from(approvalSettings)
    .leftJoin(users, eq(users.id, approvalSettings.updatedBy))
    .where(eq(approvalSettings.tenantId, caller.tenantId));
  if (!row) return { store: false, portal: false, approvers: [], updated_at: null, updated_by_name: null };
  return {
    store: row.s.store,
    portal: row.s.portal,
    approvers: await namedApprovers(ctx, caller.tenantId, row.s.approvers as ApproverRef[]),
    updated_at: row.s.updatedAt.toISOString(),
    updated_by_name: row.by ?? null,
  };
}

/**
 * PUT /admin/approval/settings. Every approver must be a person or organisation of the caller's tenant
 * or the tenant-admin role, and approval cannot be on without one (APPROVAL-1005, nothing saved).
 * Approvals in progress keep the approvers they were opened with.
 */
export async function putSettings(ctx: ServerContext, caller: Caller, body: ApprovalSettingsBody): Promise<ApprovalSettings> {
  const unique = body.approvers.filter((a, i) => body.approvers.findIndex((b) => b.kind === a.kind && b.id === a.id) === i);
  const named = await namedApprovers(ctx, caller.tenantId, unique);
  const unknown = named.filter((a) => (a.kind === 'role' ? a.id !== 'tenant_admin' : !a.name));
  if (unknown.length) {
    throw new AppError(400, ErrorCode.APPROVAL_NO_APPROVERS, 'Every approver must be a person or organisation of this tenant, or the tenant admin role', { unknown: unknown.map(({ kind, id }) => ({ kind, id })) });
  }
  if ((body.store || body.portal) && !unique.length) throw new AppError(400, ErrorCode.APPROVAL_NO_APPROVERS, 'Choose at least one approver before turning approval on');
  const values = { store: body.store, portal: body.portal, approvers: unique, updatedBy: caller.userId, updatedAt: new Date() };
  await ctx.db
    .insert(approvalSettings)
    .values({ tenantId: caller.tenantId, ...values })
    .onConflictDoUpdate({ target: approvalSettings.tenantId, set: values });
  return getSettings(ctx, caller);
}
