import { and, count, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { MY_LIST_LIMIT, type MyOverview, type MyResource, type MyResourceKind } from '../../../schemas/my';
import { listUserApprovals } from '../approvals/read';
import type { Caller, ServerContext } from '../context';
import { apps, datasets, prompts, runs, storeItems, tools, workspaceMembers, workspaces } from '../db/schema';

type Owned = PgTable & { id: AnyPgColumn; name: AnyPgColumn; tenantId: AnyPgColumn; workspaceId: AnyPgColumn; createdBy: AnyPgColumn; updatedAt: AnyPgColumn };

/**
 * The caller's own page (GET /console/my): only rows the caller made, in their tenant, in project
 * spaces they are still a member of (a space they left or were removed from drops out with all it
 * holds). Each list is the newest MY_LIST_LIMIT.
 */
export async function myOverview(ctx: ServerContext, caller: Caller): Promise<MyOverview> {
  const { db } = ctx;
  const spaces = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, caller.userId)))
    .where(eq(workspaces.tenantId, caller.tenantId));
  const names = new Map(spaces.map((w) => [w.id, w.name]));
  const ids = [...names.keys()];
  if (ids.length === 0) return { resources: [], counts: { app: 0, dataset: 0, prompt: 0, tool: 0 }, submissions: await submissions(ctx, caller, ids), approvals: await listUserApprovals(ctx, caller, MY_LIST_LIMIT), runs: [] };

  const mine = (t: Owned): SQL => and(eq(t.tenantId, caller.tenantId), eq(t.createdBy, caller.userId), inArray(t.workspaceId, ids))!;
  const list = async (kind: MyResourceKind, t: Owned, subtype?: AnyPgColumn): Promise<{ rows: MyResource[]; total: number }> => {
    const [rows, [{ n }]] = await Promise.all([
      db
        .select({ id: t.id, name: t.name, workspaceId: t.workspaceId, updatedAt: t.updatedAt, ...(subtype ? { subtype } : {}) })
        .from(t)
        .where(mine(t))
        .orderBy(desc(t.updatedAt))
        .limit(MY_LIST_LIMIT),
      db.select({ n: count() }).from(t).where(mine(t)),
    ]);
    return {
      total: Number(n),
      rows: rows.map((r) => ({
        kind,
        id: r.id as string,
        name: r.name as string,
        subtype: ((r as { subtype?: unknown }).subtype as string | undefined) ?? '',
        workspace_id: r.workspaceId as string,
        workspace_name: names.get(r.workspaceId as string) ?? '',
        updated_at: (r.updatedAt as Date).toISOString(),
      })),
    };
  };
  const [a, d, p, t, subs, recent, mineApprovals] = await Promise.all([
    list('app', apps as unknown as Owned, apps.type),
    list('dataset', datasets as unknown as Owned),
    list('prompt', prompts as unknown as Owned),
    list('tool', tools as unknown as Owned, tools.type),
    submissions(ctx, caller, ids),
    db
      .select({ id: runs.id, appId: runs.appId, appName: apps.name, appType: apps.type, workspaceId: runs.workspaceId, source: runs.source, status: runs.status, elapsedMs: runs.elapsedMs, createdAt: runs.createdAt })
      .from(runs)
      .innerJoin(apps, eq(apps.id, runs.appId))
      .where(and(eq(runs.tenantId, caller.tenantId), eq(runs.createdBy, caller.userId), inArray(runs.workspaceId, ids)))
      .orderBy(desc(runs.createdAt))
      .limit(MY_LIST_LIMIT),
    listUserApprovals(ctx, caller, MY_LIST_LIMIT),
  ]);
  return {
    resources: [...a.rows, ...d.rows, ...p.rows, ...t.rows],
    counts: { app: a.total, dataset: d.total, prompt: p.total, tool: t.total },
    submissions: subs,
    approvals: mineApprovals,
    runs: recent.map((r) => ({
      id: r.id,
      app_id: r.appId,
      app_name: r.appName,
      app_type: r.appType,
      workspace_id: r.workspaceId,
      source: r.source,
      status: r.status,
      elapsed_ms: Number(r.elapsedMs),
      created_at: r.createdAt.toISOString(),
    })),
  };
}

/** The caller's store submissions: from spaces they still belong to (plugins have none). */
async function submissions(ctx: ServerContext, caller: Caller, spaceIds: string[]) {
  const inSpaces = spaceIds.length ? or(isNull(storeItems.sourceWorkspaceId), inArray(storeItems.sourceWorkspaceId, spaceIds)) : isNull(storeItems.sourceWorkspaceId);
  const rows = await ctx.db
    .select()
    .from(storeItems)
    .where(and(eq(storeItems.tenantId, caller.tenantId), eq(storeItems.publishedBy, caller.userId), inSpaces))
    .orderBy(desc(storeItems.createdAt))
    .limit(MY_LIST_LIMIT);
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    name: r.name,
    review_state: r.reviewState,
    reason: r.reviewReason ?? '',
    workspace_id: r.sourceWorkspaceId,
    created_at: r.createdAt.toISOString(),
  }));
}
