import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Caller, ServerContext } from '../context';
import { UUID_RE } from '../context';
import { appDistributions, approvals, approvalSteps, appVersions, storeItems } from '../db/schema';
import { AppError, forbidden, notFoundOrForeign } from '../errors';
import { forgetDraftRows } from '../services/cache-generations';
import { isUniqueViolation, type Tx } from '../services/workspace-resources';
import { storeStateError } from '../store/items';
import { ErrorCode } from '../../../schemas/errors';
import type { ApprovalAction, ApprovalKind, ApprovalState, ApproverRef } from '../../../schemas/approval';
import { approverKeys, isApproverOf } from './approvers';

/**
 * The approval flow's transitions (schemas/approval.ts). Each is ONE conditional UPDATE on the state it
 * starts from, in a transaction with its step and its effect on the item: two approvers deciding at
 * once resolve to one (the other gets APPROVAL-1000 with the state now), and a failed effect leaves
 * the approval as it was.
 */

type ApprovalRow = typeof approvals.$inferSelect;
type Runner = ServerContext['db'] | Tx;

const OPEN: ApprovalState[] = ['processing', 'returned'];

/** Who may take each action, from which states, to which. */
const TRANSITIONS: Record<Exclude<ApprovalAction, 'submit' | 'resubmit'>, { from: ApprovalState[]; to: ApprovalState; by: 'approver' | 'submitter' | 'admin' }> = {
  agree: { from: ['processing'], to: 'agreed', by: 'approver' },
  return: { from: ['processing'], to: 'returned', by: 'approver' },
  reject: { from: ['processing'], to: 'rejected', by: 'approver' },
  cancel: { from: OPEN, to: 'canceled', by: 'submitter' },
  recall: { from: ['agreed'], to: 'canceled', by: 'submitter' },
  force_recall: { from: ['agreed'], to: 'forced_recall', by: 'admin' },
};
export type ApprovalDecision = keyof typeof TRANSITIONS;

export const approvalStateError = (state: string, msg = `The approval is ${state}`) => new AppError(409, ErrorCode.APPROVAL_STATE, msg, { state });
const released = () => new AppError(409, ErrorCode.APPROVAL_RELEASED, 'The item is already released (or in effect): only a tenant admin can force its recall');

export interface OpenApproval {
  tenantId: string;
  workspaceId: string;
  kind: ApprovalKind;
  targetId: string;
  title: string;
  detail: ApprovalRow['detail'];
  approvers: ApproverRef[];
  userId: string;
}

/**
 * A submission under approval: a returned approval of the same target goes back to `processing`
 * (resubmit), otherwise a new one opens. One already processing: APPROVAL-1003 (the unique index on
 * open approvals decides between two submissions at once); the caller's transaction then rolls back.
 */
export async function openApproval(tx: Tx, a: OpenApproval): Promise<string> {
  const now = new Date();
  const [back] = await tx
    .update(approvals)
    .set({ state: 'processing', title: a.title, detail: a.detail, updatedAt: now, decidedAt: null })
    .where(and(eq(approvals.kind, a.kind), eq(approvals.targetId, a.targetId), eq(approvals.state, 'returned')))
    .returning({ id: approvals.id });
  if (back) {
    await tx.insert(approvalSteps).values({ id: randomUUID(), approvalId: back.id, action: 'resubmit', fromState: 'returned', toState: 'processing', actorId: a.userId, createdAt: now });
    return back.id;
  }
  const id = randomUUID();
  try {
    await tx.insert(approvals).values({
      id,
      tenantId: a.tenantId,
      workspaceId: a.workspaceId,
      kind: a.kind,
      targetId: a.targetId,
      title: a.title,
      detail: a.detail,
      state: 'processing',
      approvers: a.approvers,
      submittedBy: a.userId,
      submittedAt: now,
      updatedAt: now,
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw pendingError();
    throw e;
  }
  await tx.insert(approvalSteps).values({ id: randomUUID(), approvalId: id, action: 'submit', fromState: null, toState: 'processing', actorId: a.userId, createdAt: now });
  return id;
}

const pendingError = () => new AppError(409, ErrorCode.APPROVAL_PENDING, 'The item is already waiting for approval: wait for the decision or cancel it first');

/** Refuses a change of the target while an approval of it is processing (APPROVAL-1003), before anything is written. */
export async function assertNotProcessing(db: Runner, kind: ApprovalKind, targetId: string) {
  const [open] = await db.select({ id: approvals.id }).from(approvals).where(and(eq(approvals.kind, kind), eq(approvals.targetId, targetId), eq(approvals.state, 'processing')));
  if (open) throw pendingError();
}

/** The submitter withdrew the item another way (cancelled the distribution): its open approval is canceled. */
export async function cancelOpenApprovals(db: Runner, kind: ApprovalKind, targetId: string, actorId: string) {
  const now = new Date();
  const done = await db
    .update(approvals)
    .set({ state: 'canceled', updatedAt: now })
    .where(and(eq(approvals.kind, kind), eq(approvals.targetId, targetId), inArray(approvals.state, OPEN)))
    .returning({ id: approvals.id });
  for (const d of done) await db.insert(approvalSteps).values({ id: randomUUID(), approvalId: d.id, action: 'cancel', fromState: null, toState: 'canceled', actorId, createdAt: now });
}

/** The approval `id` of the caller's tenant (VALIDATION-1000 otherwise). */
export async function approvalRow(ctx: ServerContext, caller: Caller, id: string): Promise<ApprovalRow> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Approval', id);
  const [row] = await ctx.db.select().from(approvals).where(and(eq(approvals.id, id), eq(approvals.tenantId, caller.tenantId)));
  if (!row) throw notFoundOrForeign('Approval', id);
  return row;
}

const isAdmin = (caller: Caller) => caller.role === 'tenant_admin' || caller.role === 'super_admin';

/** Takes `action` on the approval: tenant, then role, then state; answers nothing (the route reads it again). */
export async function act(ctx: ServerContext, caller: Caller, id: string, action: ApprovalDecision, comment: string): Promise<void> {
  const row = await approvalRow(ctx, caller, id);
  const t = TRANSITIONS[action];
  if (t.by === 'approver') {
    if (row.submittedBy === caller.userId) throw new AppError(403, ErrorCode.APPROVAL_OWN, 'You submitted this item: another approver decides');
    if (!isApproverOf(row.approvers as ApproverRef[], await approverKeys(ctx, caller))) throw new AppError(403, ErrorCode.APPROVAL_NOT_APPROVER, 'You are not an approver of this item');
  } else if (t.by === 'submitter') {
    if (row.submittedBy !== caller.userId) throw forbidden('Only the submitter cancels or recalls a submission');
  } else if (!isAdmin(caller)) {
    throw forbidden('Only a tenant admin forces the recall of an agreed item');
  }
  if (!t.from.includes(row.state)) throw approvalStateError(row.state);
  // A portal distribution takes effect when agreed: there is nothing "not yet released" to recall.
  if (action === 'recall' && row.kind === 'portal') throw released();
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    const done = await tx
      .update(approvals)
      .set({ state: t.to, updatedAt: now, ...(t.by !== 'submitter' ? { decidedAt: now } : {}) })
      .where(and(eq(approvals.id, row.id), inArray(approvals.state, t.from)))
      .returning({ id: approvals.id });
    if (!done.length) {
      const [cur] = await tx.select({ state: approvals.state }).from(approvals).where(eq(approvals.id, row.id));
      throw approvalStateError(cur?.state ?? row.state);
    }
    await tx.insert(approvalSteps).values({ id: randomUUID(), approvalId: row.id, action, fromState: row.state, toState: t.to, actorId: caller.userId, comment, createdAt: now });
    if (row.kind === 'store') await storeEffect(tx, row, action, caller, comment, now);
    else await portalEffect(tx, row, action, caller, now);
  });
  if (row.kind === 'portal') forgetDraftRows();
}

/** What a decision does to the store item (`target_id`), each conditional on the item's own state. */
async function storeEffect(tx: Tx, row: ApprovalRow, action: ApprovalDecision, caller: Caller, comment: string, now: Date) {
  const item = (from: (typeof storeItems.$inferSelect)['reviewState'][], set: Partial<typeof storeItems.$inferInsert>) =>
    tx
      .update(storeItems)
      .set({ ...set, updatedAt: now })
      .where(and(eq(storeItems.id, row.targetId), inArray(storeItems.reviewState, from)))
      .returning({ id: storeItems.id });
  const current = async () => (await tx.select({ state: storeItems.reviewState }).from(storeItems).where(eq(storeItems.id, row.targetId)))[0]?.state ?? 'offline';
  if (action === 'agree') {
    if (!(await item(['in_approval'], { reviewState: 'awaiting_release', reviewReason: null })).length) {
      throw storeStateError('The store item is no longer waiting for approval', await current());
    }
  } else if (action === 'return') {
    await item(['in_approval'], { reviewReason: comment || null });
  } else if (action === 'reject') {
    await item(['in_approval'], { reviewState: 'rejected', reviewReason: comment || null, reviewedBy: caller.userId, reviewedAt: now });
  } else if (action === 'cancel') {
    await item(['in_approval'], { reviewState: 'offline', reviewReason: null });
  } else if (action === 'recall') {
    if (!(await item(['awaiting_release'], { reviewState: 'offline', reviewReason: null })).length) {
      const state = await current();
      throw state === 'released' ? released() : storeStateError('The store item is not awaiting release', state);
    }
  } else if (action === 'force_recall') {
    await item(['awaiting_release', 'released'], { reviewState: 'offline', reviewReason: comment || null, reviewedBy: caller.userId, reviewedAt: now });
  }
}

/**
 * What a decision does to the app's portal distribution (`target_id`: the app): agreed, it serves the
 * submitted version (distributed by the submitter, now); a forced recall cancels it.
 */
async function portalEffect(tx: Tx, row: ApprovalRow, action: ApprovalDecision, caller: Caller, now: Date) {
  const [dist] = await tx.select().from(appDistributions).where(and(eq(appDistributions.appId, row.targetId), eq(appDistributions.platform, 'portal')));
  if (action === 'force_recall') {
    if (dist?.state === 'distributed') {
      await tx.update(appDistributions).set({ state: 'cancelled', cancelledBy: caller.userId, cancelledAt: now, updatedAt: now }).where(eq(appDistributions.id, dist.id));
    }
    return;
  }
  if (action !== 'agree') return;
  const versionId = row.detail.version_id ?? '';
  const [v] = UUID_RE.test(versionId)
    ? await tx.select({ id: appVersions.id }).from(appVersions).where(and(eq(appVersions.id, versionId), eq(appVersions.appId, row.targetId)))
    : [];
  if (!v) throw notFoundOrForeign('Version', versionId);
  if (dist?.state === 'distributed') {
    await tx.update(appDistributions).set({ versionId: v.id, updatedAt: now }).where(eq(appDistributions.id, dist.id));
    return;
  }
  const fields = { versionId: v.id, state: 'distributed' as const, distributedBy: row.submittedBy, distributedAt: now, updatedAt: now, cancelledBy: null, cancelledAt: null };
  if (dist) await tx.update(appDistributions).set(fields).where(eq(appDistributions.id, dist.id));
  else await tx.insert(appDistributions).values({ id: randomUUID(), tenantId: row.tenantId, workspaceId: row.workspaceId, appId: row.targetId, platform: 'portal', ...fields });
}
