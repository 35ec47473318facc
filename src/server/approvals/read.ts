import { and, asc, count, desc, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Caller, ServerContext } from '../context';
import { approvals, approvalSteps, users, workspaces } from '../db/schema';
import { forbidden, notFoundOrForeign } from '../errors';
import type { Approval, ApprovalDetail, ApprovalKind, ApprovalList, ApprovalListParsed, ApprovalNotifications, ApprovalRef, ApproverRef, UserApprovals } from '../../../schemas/approval';
import { approverKeys, approverMatch, isApproverOf, namedApprovers } from './approvers';
import { approvalRow } from './flow';

/**
 * Reading approvals: the approvers' and submitters' lists, one approval with its steps, the console
 * bell's counts, where a submission stands (distribution card, store state), and a user's approvals
 * for their own page ({@link listUserApprovals}). Everything is scoped by the caller's tenant.
 */

type Runner = Pick<ServerContext, 'db'>['db'];
const name = (u: typeof users) => sql<string>`coalesce(nullif(${u.realName}, ''), nullif(${u.nickname}, ''), ${u.username}, '')`;
// Qualified by hand: drizzle leaves a one-table select's columns unqualified, which the subquery would read as its own.
const lastComment = sql<string>`coalesce((select s.comment from approval_steps s where s.approval_id = "approvals"."id" order by s.created_at desc limit 1), '')`;

const columns = { a: approvals, submitter: name(users), workspaceName: sql<string>`coalesce(${workspaces.name}, '')`, lastComment };
type Joined = { a: typeof approvals.$inferSelect; submitter: string; workspaceName: string; lastComment: string };

const isAdmin = (caller: Caller) => caller.role === 'tenant_admin' || caller.role === 'super_admin';

function toApproval(r: Joined, caller: Caller, keys: string[]): Approval {
  const a = r.a;
  const mine = a.submittedBy === caller.userId;
  return {
    id: a.id,
    kind: a.kind,
    state: a.state,
    title: a.title,
    item_type: a.detail.item_type,
    source_id: a.detail.source_id,
    app_mode: a.detail.app_mode ?? null,
    version: a.detail.version ?? null,
    workspace_id: a.workspaceId,
    workspace_name: r.workspaceName,
    submitted_by: a.submittedBy,
    submitted_by_name: r.submitter,
    submitted_at: a.submittedAt.toISOString(),
    decided_at: a.decidedAt ? a.decidedAt.toISOString() : null,
    updated_at: a.updatedAt.toISOString(),
    last_comment: r.lastComment,
    can_decide: a.state === 'processing' && !mine && isApproverOf(a.approvers as ApproverRef[], keys),
    can_cancel: mine && (a.state === 'processing' || a.state === 'returned'),
    can_recall: mine && a.state === 'agreed' && a.kind === 'store',
    can_force_recall: a.state === 'agreed' && isAdmin(caller),
  };
}

function select(ctx: ServerContext, where: SQL | undefined) {
  return ctx.db.select(columns).from(approvals).leftJoin(users, eq(users.id, approvals.submittedBy)).leftJoin(workspaces, eq(workspaces.id, approvals.workspaceId)).where(where).$dynamic();
}

/** Waiting for the caller: processing, naming the caller among its approvers, not their own. */
const todoWhere = (caller: Caller, keys: string[]) => and(eq(approvals.tenantId, caller.tenantId), eq(approvals.state, 'processing'), ne(approvals.submittedBy, caller.userId), approverMatch(keys));
const mineWhere = (caller: Caller) => and(eq(approvals.tenantId, caller.tenantId), eq(approvals.submittedBy, caller.userId));

/** GET /approvals: the caller's box (`tenant`: every approval of the tenant, admins only: 403 otherwise). */
export async function listApprovals(ctx: ServerContext, caller: Caller, q: ApprovalListParsed): Promise<ApprovalList> {
  if (q.box === 'tenant' && !isAdmin(caller)) throw forbidden('Only tenant admins see every approval of the tenant');
  const keys = await approverKeys(ctx, caller);
  const box = q.box === 'todo' ? todoWhere(caller, keys) : q.box === 'mine' ? mineWhere(caller) : eq(approvals.tenantId, caller.tenantId);
  const where = and(box, q.state ? eq(approvals.state, q.state) : undefined);
  const [rows, [{ n }]] = await Promise.all([
    select(ctx, where)
      .orderBy(desc(approvals.updatedAt), desc(approvals.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    ctx.db.select({ n: count() }).from(approvals).where(where),
  ]);
  return { items: rows.map((r) => toApproval(r, caller, keys)), total: Number(n), page: q.page, page_size: q.page_size };
}

/**
 * GET /approvals/{id}: with its steps and approvers, for its submitter, its approvers and the tenant's
 * admins; anyone else (and another tenant) gets VALIDATION-1000 as if it did not exist.
 */
export async function getApproval(ctx: ServerContext, caller: Caller, id: string): Promise<ApprovalDetail> {
  const row = await approvalRow(ctx, caller, id);
  const keys = await approverKeys(ctx, caller);
  const approvers = row.approvers as ApproverRef[];
  if (row.submittedBy !== caller.userId && !isAdmin(caller) && !isApproverOf(approvers, keys)) throw notFoundOrForeign('Approval', id);
  const actor = sql<string>`(select coalesce(nullif(u.real_name, ''), nullif(u.nickname, ''), u.username) from users u where u.id = ${approvalSteps.actorId})`;
  const [[joined], steps, named] = await Promise.all([
    select(ctx, eq(approvals.id, row.id)),
    ctx.db.select({ s: approvalSteps, actor }).from(approvalSteps).where(eq(approvalSteps.approvalId, row.id)).orderBy(asc(approvalSteps.createdAt)),
    namedApprovers(ctx, caller.tenantId, approvers),
  ]);
  return {
    ...toApproval(joined, caller, keys),
    approvers: named,
    steps: steps.map(({ s, actor: actorName }) => ({
      id: s.id,
      action: s.action,
      from_state: s.fromState,
      to_state: s.toState,
      actor_id: s.actorId,
      actor_name: actorName ?? '',
      comment: s.comment,
      created_at: s.createdAt.toISOString(),
    })),
  };
}

/** GET /approvals/notifications: the bell's counts. */
export async function notifications(ctx: ServerContext, caller: Caller): Promise<ApprovalNotifications> {
  const keys = await approverKeys(ctx, caller);
  const decided = and(
    mineWhere(caller),
    inArray(approvals.state, ['agreed', 'returned', 'rejected', 'forced_recall']),
    sql`${approvals.decidedAt} is not null`,
    sql`(${approvals.submitterSeenAt} is null or ${gt(approvals.decidedAt, approvals.submitterSeenAt)})`,
  );
  const [[todo], [news]] = await Promise.all([ctx.db.select({ n: count() }).from(approvals).where(todoWhere(caller, keys)), ctx.db.select({ n: count() }).from(approvals).where(decided)]);
  return { to_approve: Number(todo.n), decided: Number(news.n) };
}

/** POST /approvals/seen: the submitter has seen the decisions on their submissions (the bell forgets them). */
export async function markSeen(ctx: ServerContext, caller: Caller): Promise<ApprovalNotifications> {
  await ctx.db.update(approvals).set({ submitterSeenAt: new Date() }).where(mineWhere(caller));
  return notifications(ctx, caller);
}

/**
 * A user's approvals for their own page (/operation/my, issue 33): the newest `limit` they submitted
 * and those waiting for their decision.
 */
export async function listUserApprovals(ctx: ServerContext, caller: Caller, limit = 20): Promise<UserApprovals> {
  const [submitted, toApprove] = await Promise.all([
    listApprovals(ctx, caller, { box: 'mine', page: 1, page_size: limit }),
    listApprovals(ctx, caller, { box: 'todo', page: 1, page_size: limit }),
  ]);
  return { submitted: submitted.items, to_approve: toApprove.items };
}

/** Where the latest submission of a target stands (null: never under approval). */
export async function latestApproval(db: Runner, kind: ApprovalKind, targetId: string): Promise<ApprovalRef | null> {
  const [r] = await db
    .select({ id: approvals.id, state: approvals.state, version: sql<string | null>`${approvals.detail}->>'version'`, lastComment })
    .from(approvals)
    .where(and(eq(approvals.kind, kind), eq(approvals.targetId, targetId)))
    .orderBy(desc(approvals.submittedAt), desc(approvals.updatedAt))
    .limit(1);
  return r ? { id: r.id, state: r.state, version: r.version ?? null, last_comment: r.lastComment } : null;
}
