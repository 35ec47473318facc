import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { appDistributions, apps, appVersions, storeItems, tools, users } from '../db/schema';
import { badRequest, exists, forbidden, notFoundOrForeign } from '../errors';
import { insertWorkflowTool } from '../tools/workflow';
import {
  DISTRIBUTION_PLATFORMS,
  type DistributionBlock,
  type DistributionCreateBody,
  type DistributionList,
  type DistributionPlatform,
  type DistributionUpdateBody,
  type DistributionVersionRef,
  type DistributionView,
} from '../../../schemas/distribution';
import { forgetDraftRows } from './cache-generations';
import { submitApp, withdrawApp } from '../store/submit';
import { isUniqueViolation, type Scope } from './workspace-resources';
import { approversFor } from '../approvals/approvers';
import { assertNotProcessing, cancelOpenApprovals, openApproval } from '../approvals/flow';
import { latestApproval } from '../approvals/read';

/**
 * App distribution (schemas/distribution.ts; spec 4 "only project-space owners may do it", 7.5).
 * Every member reads; only the space's OWNER distributes, moves and cancels: anyone else gets
 * PERMISSION-1000 and nothing changes. One row per app and platform: a cancel keeps it (state
 * `cancelled`, who and when) and distributing again re-activates it. A distribution serves a chosen
 * published version of THIS app. `tool` (workflow apps only) makes the space's workflow tool for the
 * app, pinned to the version (tools/workflow-version.ts): moving the distribution moves the tool, a
 * cancel disables it. `store` submits the app to the tenant's app store: its store item (store/submit.ts,
 * the one record of the listing and its review) takes a snapshot of the version and awaits release;
 * moving the distribution re-submits, cancelling takes the item offline.
 *
 * Every write drops the cached portal access rows (runs/portal-access.ts) through forgetDraftRows.
 */

type AppRow = typeof apps.$inferSelect;
type DistributionRow = typeof appDistributions.$inferSelect;
type VersionRow = Pick<typeof appVersions.$inferSelect, 'id' | 'version' | 'createdAt'>;

const ref = (v: VersionRow): DistributionVersionRef => ({ id: v.id, version: v.version, created_at: v.createdAt.toISOString() });

/** The app of the scope (any member), or VALIDATION-1000; with the caller's role. */
async function appAndRole(ctx: ServerContext, s: Scope, appId: string) {
  const { role } = await requireMembership(ctx.db, s.caller, s.workspaceId);
  if (!UUID_RE.test(appId)) throw notFoundOrForeign('App', appId);
  const [app] = await ctx.db
    .select()
    .from(apps)
    .where(and(eq(apps.id, appId), eq(apps.workspaceId, s.workspaceId), eq(apps.tenantId, s.caller.tenantId)));
  if (!app) throw notFoundOrForeign('App', appId);
  return { app, isOwner: role === 'owner' };
}

async function ownerApp(ctx: ServerContext, s: Scope, appId: string): Promise<AppRow> {
  const { app, isOwner } = await appAndRole(ctx, s, appId);
  if (!isOwner) throw forbidden("Only the project space's owner distributes apps, moves distributions to other versions and cancels them");
  return app;
}

/** The published version `versionId` of this app (another app's, or none: VALIDATION-1000). */
async function versionOf(ctx: ServerContext, app: AppRow, versionId: string) {
  if (!UUID_RE.test(versionId)) throw notFoundOrForeign('Version', versionId);
  const [v] = await ctx.db
    .select()
    .from(appVersions)
    .where(and(eq(appVersions.id, versionId), eq(appVersions.appId, app.id), eq(appVersions.tenantId, app.tenantId)));
  if (!v) throw notFoundOrForeign('Version', versionId);
  return v;
}

async function latestOf(ctx: ServerContext, appId: string) {
  const [v] = await ctx.db.select().from(appVersions).where(eq(appVersions.appId, appId)).orderBy(desc(appVersions.createdAt), desc(appVersions.id)).limit(1);
  return v;
}

/** Why the caller may not distribute on the platform (null: they may), in the order the UI explains it. */
function blockOf(platform: DistributionPlatform, app: AppRow, isOwner: boolean, hasVersion: boolean): DistributionBlock | null {
  if (!isOwner) return 'not_owner';
  if (platform === 'tool' && app.type !== 'workflow') return 'mode';
  if (!hasVersion) return 'no_version';
  if (app.status !== 'active') return 'inactive';
  return null;
}

/** Any member: every platform's card, in the order of DISTRIBUTION_PLATFORMS. */
export async function listDistribution(ctx: ServerContext, s: Scope, appId: string): Promise<DistributionList> {
  const { app, isOwner } = await appAndRole(ctx, s, appId);
  return viewOf(ctx, app, isOwner);
}

async function viewOf(ctx: ServerContext, app: AppRow, isOwner: boolean): Promise<DistributionList> {
  const cancelledBy = sql<string | null>`(select coalesce(nullif(u.real_name, ''), u.username) from users u where u.id = ${appDistributions.cancelledBy})`;
  const rows = await ctx.db
    .select({
      d: appDistributions,
      byName: sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username}, '')`,
      cancelledByName: cancelledBy,
      v: { id: appVersions.id, version: appVersions.version, createdAt: appVersions.createdAt },
      review: { id: storeItems.id, state: storeItems.reviewState, reason: storeItems.reviewReason },
    })
    .from(appDistributions)
    .leftJoin(storeItems, eq(storeItems.distributionId, appDistributions.id))
    .leftJoin(users, eq(users.id, appDistributions.distributedBy))
    .leftJoin(appVersions, eq(appVersions.id, appDistributions.versionId))
    .where(eq(appDistributions.appId, app.id));
  const latest = await latestOf(ctx, app.id);
  const storeItemId = rows.find((x) => x.d.platform === 'store')?.review?.id;
  const approvalOf = {
    portal: await latestApproval(ctx.db, 'portal', app.id),
    store: storeItemId ? await latestApproval(ctx.db, 'store', storeItemId) : null,
  };
  const platforms = DISTRIBUTION_PLATFORMS.map((platform): DistributionView => {
    const r = rows.find((x) => x.d.platform === platform);
    const blocked = blockOf(platform, app, isOwner, !!latest);
    const approval = platform === 'portal' || platform === 'store' ? approvalOf[platform] : null;
    if (!r) return { platform, state: 'not_distributed', distribution: null, newer_version_available: false, blocked, approval };
    const d = r.d;
    const version = r.v?.id ? ref(r.v as VersionRow) : null;
    return {
      platform,
      state: d.state,
      distribution: {
        id: d.id,
        version,
        distributed_by: d.distributedBy,
        distributed_by_name: r.byName ?? '',
        distributed_at: d.distributedAt.toISOString(),
        updated_at: d.updatedAt.toISOString(),
        cancelled_by_name: d.cancelledBy ? (r.cancelledByName ?? '') : null,
        cancelled_at: d.cancelledAt ? d.cancelledAt.toISOString() : null,
        review_state: platform === 'store' ? (r.review?.state ?? null) : null,
        review_reason: platform === 'store' ? (r.review?.reason ?? null) : null,
        tool_id: platform === 'tool' ? d.toolId : null,
      },
      newer_version_available: d.state === 'distributed' && !!latest && !!version && latest.id !== version.id && latest.createdAt > r.v!.createdAt!,
      blocked,
      approval,
    };
  });
  return { platforms, latest_version: latest ? ref(latest) : null, is_owner: isOwner };
}

/**
 * The workflow tool a `tool` distribution runs: the one it made before (if it still exists), an
 * existing workflow tool of this app, or a new one named after the app (a tool of another kind with
 * that name: VALIDATION-1001, nothing changed). `created` says whether it is new (to undo on failure).
 */
async function toolFor(ctx: ServerContext, s: Scope, app: AppRow, version: { document: unknown }, previous: string | null): Promise<{ id: string; created: boolean }> {
  const inSpace = and(eq(tools.workspaceId, app.workspaceId), eq(tools.tenantId, app.tenantId), eq(tools.type, 'workflow'), eq(tools.workflowAppId, app.id));
  if (previous) {
    const [kept] = await ctx.db.select({ id: tools.id }).from(tools).where(and(eq(tools.id, previous), inSpace));
    if (kept) return { id: kept.id, created: false };
  }
  const [existing] = await ctx.db.select({ id: tools.id }).from(tools).where(inSpace).orderBy(tools.createdAt).limit(1);
  if (existing) return { id: existing.id, created: false };
  try {
    return { id: await insertWorkflowTool(ctx, s, app, version.document), created: true };
  } catch (e) {
    if ((e as { code?: string }).code === 'VALIDATION-1001') {
      throw exists(`A tool named '${app.name}' already exists in this project space: rename that tool, then distribute the app as a tool again`);
    }
    throw e;
  }
}

/** Owner: distributes (or re-distributes after a cancel) on a platform, serving `version_id` (default: the newest). */
export async function distribute(ctx: ServerContext, s: Scope, appId: string, body: DistributionCreateBody): Promise<DistributionList> {
  const app = await ownerApp(ctx, s, appId);
  const { platform } = body;
  if (platform === 'tool' && app.type !== 'workflow') {
    throw badRequest(`Only a workflow app can be distributed as a tool (this app is ${app.type})`, { platform, blocked: 'mode' });
  }
  if (app.status !== 'active') throw badRequest('The app is inactive: enable it before distributing it', { platform, blocked: 'inactive' });
  const version = body.version_id ? await versionOf(ctx, app, body.version_id) : await latestOf(ctx, app.id);
  if (!version) throw badRequest('The app has no published version: publish it on its Version tab first', { platform, blocked: 'no_version' });
  const [row] = await ctx.db.select().from(appDistributions).where(and(eq(appDistributions.appId, app.id), eq(appDistributions.platform, platform)));
  if (row?.state === 'distributed') throw exists(`The app is already distributed on ${platform}: move it to another version or cancel it`);
  if (platform === 'portal' && (await submitForApproval(ctx, s, app, version))) return viewOf(ctx, app, true);

  const tool = platform === 'tool' ? await toolFor(ctx, s, app, version, row?.toolId ?? null) : null;
  const now = new Date();
  const fields = {
    versionId: version.id,
    state: 'distributed' as const,
    distributedBy: s.caller.userId,
    distributedAt: now,
    updatedAt: now,
    cancelledBy: null,
    cancelledAt: null,
    toolId: tool?.id ?? null,
  };
  const distributionId = row?.id ?? randomUUID();
  try {
    if (row) {
      // Only a cancelled row is re-activated: a distribution made meanwhile is not overwritten.
      const updated = await ctx.db
        .update(appDistributions)
        .set(fields)
        .where(and(eq(appDistributions.id, row.id), eq(appDistributions.state, 'cancelled')))
        .returning({ id: appDistributions.id });
      if (!updated.length) throw exists(`The app is already distributed on ${platform}`);
    } else {
      await ctx.db.insert(appDistributions).values({ id: distributionId, tenantId: app.tenantId, workspaceId: app.workspaceId, appId: app.id, platform, ...fields });
    }
  } catch (e) {
    if (tool?.created) await ctx.db.delete(tools).where(eq(tools.id, tool.id));
    if (isUniqueViolation(e)) throw exists(`The app is already distributed on ${platform}`);
    throw e;
  }
  if (platform === 'store') await submitApp(ctx, s, app.id, version.id, distributionId);
  forgetDraftRows();
  return viewOf(ctx, app, true);
}

/** The distribution `id` of this app (VALIDATION-1000 otherwise). */
async function distributionOf(ctx: ServerContext, app: AppRow, id: string): Promise<DistributionRow> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Distribution', id);
  const [row] = await ctx.db.select().from(appDistributions).where(and(eq(appDistributions.id, id), eq(appDistributions.appId, app.id)));
  if (!row) throw notFoundOrForeign('Distribution', id);
  return row;
}

/** Owner: moves a distributed platform to another published version of the app. */
export async function moveDistribution(ctx: ServerContext, s: Scope, appId: string, body: DistributionUpdateBody): Promise<DistributionList> {
  const app = await ownerApp(ctx, s, appId);
  const row = await distributionOf(ctx, app, body.id);
  if (row.state !== 'distributed') throw badRequest(`The app is not distributed on ${row.platform}: distribute it first`, { platform: row.platform });
  if (app.status !== 'active') throw badRequest('The app is inactive: enable it before moving its distribution', { platform: row.platform, blocked: 'inactive' });
  const version = await versionOf(ctx, app, body.version_id);
  if (row.platform === 'portal' && (await submitForApproval(ctx, s, app, version))) return viewOf(ctx, app, true);
  if (row.platform === 'store') {
    // The store item under approval is not moved under the approver's eyes.
    const [item] = await ctx.db.select({ id: storeItems.id }).from(storeItems).where(eq(storeItems.distributionId, row.id));
    if (item) await assertNotProcessing(ctx.db, 'store', item.id);
  }
  await ctx.db
    .update(appDistributions)
    .set({ versionId: version.id, updatedAt: new Date() })
    .where(and(eq(appDistributions.id, row.id), eq(appDistributions.state, 'distributed')));
  // Another version is a new submission: a new snapshot, awaiting release again.
  if (row.platform === 'store') await submitApp(ctx, s, app.id, version.id, row.id);
  forgetDraftRows();
  return viewOf(ctx, app, true);
}

/** Owner: cancels a distribution; the record stays (who and when) and can be distributed again. */
export async function cancelDistribution(ctx: ServerContext, s: Scope, appId: string, distributionId: string): Promise<DistributionList> {
  const app = await ownerApp(ctx, s, appId);
  const row = await distributionOf(ctx, app, distributionId);
  if (row.state !== 'distributed') throw badRequest(`The distribution on ${row.platform} is already cancelled`, { platform: row.platform });
  const now = new Date();
  await ctx.db
    .update(appDistributions)
    .set({ state: 'cancelled', cancelledBy: s.caller.userId, cancelledAt: now, updatedAt: now })
    .where(and(eq(appDistributions.id, row.id), eq(appDistributions.state, 'distributed')));
  if (row.platform === 'store') await withdrawApp(ctx, row.id, s.caller.userId);
  if (row.platform === 'portal') await cancelOpenApprovals(ctx.db, 'portal', app.id, s.caller.userId);
  forgetDraftRows();
  return viewOf(ctx, app, true);
}

/**
 * With the tenant's approval on for the portal (schemas/approval.ts), distributing on it or moving it to
 * another version opens an approval instead: nothing changes for end users until an approver agrees
 * (approvals/flow.ts then serves `version`). Answers whether it did.
 */
async function submitForApproval(ctx: ServerContext, s: Scope, app: AppRow, version: Pick<VersionRow, 'id' | 'version'>): Promise<boolean> {
  const approvers = await approversFor(ctx.db, app.tenantId, 'portal');
  if (!approvers) return false;
  const detail = { item_type: 'app' as const, source_id: app.id, app_mode: app.type, version: version.version, version_id: version.id };
  await ctx.db.transaction((tx) => openApproval(tx, { tenantId: app.tenantId, workspaceId: app.workspaceId, kind: 'portal', targetId: app.id, title: app.name, detail, approvers, userId: s.caller.userId }));
  return true;
}
