import { and, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, type Caller } from '../context';
import { storeItems, toolFunctions, tools } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { MANAGERS, type Scope } from '../services/workspace-resources';
import { assertAuthUsable, toolRow, wsOf } from '../tools/rows';
import { getToolDetail } from '../tools/service';
import type { StoreItemType, StoreSnapshot, StoreToolAuth } from '../../../schemas/store';
import type { ToolAuth, ToolDetail } from '../../../schemas/tool';
import { detailOf, itemRow, storeStateError } from './items';

/**
 * The review (store managers: a super admin for every tenant, a tenant admin for their own) and a
 * copied tool's authorization. Each transition is one conditional UPDATE on the state it starts from,
 * so two managers acting at once cannot both succeed: the second gets STORE-1000 with the state now.
 */

const TRANSITIONS = {
  release: { from: 'awaiting_release', to: 'released' },
  reject: { from: 'awaiting_release', to: 'rejected' },
  offline: { from: 'released', to: 'offline' },
} as const;
export type ReviewAction = keyof typeof TRANSITIONS;

/** The item a manager may see: any tenant's for a super admin, their tenant's for a tenant admin (else VALIDATION-1000). */
export function managedRow(ctx: ServerContext, caller: Caller, type: StoreItemType, id: string) {
  return itemRow(ctx, caller.role === 'super_admin' ? null : caller.tenantId, id, type);
}

export async function adminDetail(ctx: ServerContext, caller: Caller, type: StoreItemType, id: string) {
  return detailOf(ctx, await managedRow(ctx, caller, type, id));
}

export async function review(ctx: ServerContext, caller: Caller, type: StoreItemType, id: string, action: ReviewAction, reason: string) {
  const row = await managedRow(ctx, caller, type, id);
  const { from, to } = TRANSITIONS[action];
  const now = new Date();
  const done = await ctx.db
    .update(storeItems)
    .set({ reviewState: to, reviewReason: action === 'release' ? null : reason || null, reviewedBy: caller.userId, reviewedAt: now, updatedAt: now })
    .where(and(eq(storeItems.id, row.id), eq(storeItems.reviewState, from)))
    .returning({ id: storeItems.id });
  if (!done.length) {
    const [cur] = await ctx.db.select({ state: storeItems.reviewState }).from(storeItems).where(eq(storeItems.id, row.id));
    throw storeStateError(`Only an item that is ${from.replace('_', ' ')} can be ${action === 'offline' ? 'taken offline' : `${action}d`} (it is ${cur?.state ?? row.reviewState})`, cur?.state ?? row.reviewState);
  }
  return adminDetail(ctx, caller, type, id);
}

/**
 * POST /store/tools/authorization: a tool copied from the store gets a credential of ITS space. The
 * tool and every function whose source had an auth take the source's auth shape with that credential.
 */
export async function authorizeTool(ctx: ServerContext, s: Scope, body: { tool_id: string; credential_id: string }): Promise<ToolDetail> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const tool = await toolRow(ctx, wsOf(s), body.tool_id);
  if (!tool.storeOriginId) throw badRequest('The tool was not copied from the store: set its auth on the tool itself', { tool_id: tool.id });
  const [item] = await ctx.db.select().from(storeItems).where(and(eq(storeItems.id, tool.storeOriginId), eq(storeItems.tenantId, s.caller.tenantId)));
  if (!item) throw notFoundOrForeign('Store item', tool.storeOriginId);
  const snap = item.snapshot as unknown as Extract<StoreSnapshot, { type: 'tool' }>;
  const withCredential = (shape: StoreToolAuth): ToolAuth | null =>
    shape.type === 'none'
      ? null
      : shape.type === 'api_key'
        ? { type: 'api_key', location: shape.location ?? 'header', key: shape.key ?? 'Authorization', credential_id: body.credential_id }
        : { type: shape.type, credential_id: body.credential_id };
  const toolAuth = withCredential(snap.auth) ?? withCredential(snap.functions.find((f) => f.auth.type !== 'none')?.auth ?? snap.auth);
  if (!toolAuth) throw badRequest('The tool needs no authorization', { tool_id: tool.id });
  await assertAuthUsable(ctx, wsOf(s), toolAuth);
  await ctx.db.transaction(async (tx) => {
    await tx.update(tools).set({ auth: toolAuth, updatedAt: new Date() }).where(eq(tools.id, tool.id));
    for (const f of snap.functions) {
      const auth = withCredential(f.auth);
      if (auth) await tx.update(toolFunctions).set({ auth, updatedAt: new Date() }).where(and(eq(toolFunctions.toolId, tool.id), eq(toolFunctions.name, f.name)));
    }
  });
  return getToolDetail(ctx, s, tool.id);
}
