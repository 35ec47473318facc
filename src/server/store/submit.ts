import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { apps, appVersions, datasets, storeItems, toolFunctions, tools } from '../db/schema';
import type { Scope, Tx } from '../services/workspace-resources';
import type { StoreItem, StoreReference, StoreSnapshot } from '../../../schemas/store';
import { collectRefs } from './refs';
import { approversFor } from '../approvals/approvers';
import { cancelOpenApprovals, openApproval } from '../approvals/flow';

/**
 * Writing a store item's snapshot (shared by publish.ts and the distribution service, which submits an
 * app when its `store` distribution is made or moved, and withdraws it when cancelled).
 */

export type ItemFields = {
  name: string;
  description: string;
  icon: StoreItem['icon'];
  kind: string | null;
  version: string | null;
  snapshot: StoreSnapshot;
  stats: { documents?: number; segments?: number; functions?: number; variables?: number };
};

/** Writes the item of (type, source) with a new snapshot, awaiting release; answers its id. */
export async function upsertItem(
  tx: Tx,
  who: { tenantId: string; workspaceId: string; userId: string },
  type: 'app' | 'dataset' | 'prompt' | 'tool',
  sourceId: string,
  fields: ItemFields,
  extra: { tags?: string[]; distributionId?: string | null },
): Promise<string> {
  const now = new Date();
  // With the tenant's approval on for the store, the item waits for an approver before a store manager sees it.
  const approvers = await approversFor(tx, who.tenantId, 'store');
  const set = {
    name: fields.name,
    description: fields.description,
    icon: fields.icon,
    kind: fields.kind,
    version: fields.version,
    snapshot: fields.snapshot as unknown as Record<string, unknown>,
    stats: fields.stats,
    reviewState: approvers ? ('in_approval' as const) : ('awaiting_release' as const),
    reviewReason: null,
    publishedBy: who.userId,
    publishedAt: now,
    reviewedBy: null,
    reviewedAt: null,
    updatedAt: now,
    ...(extra.tags ? { tags: extra.tags } : {}),
    ...(extra.distributionId !== undefined ? { distributionId: extra.distributionId } : {}),
  };
  const [row] = await tx
    .insert(storeItems)
    .values({ id: randomUUID(), tenantId: who.tenantId, type, sourceId, sourceWorkspaceId: who.workspaceId, tags: extra.tags ?? [], ...set })
    .onConflictDoUpdate({ target: [storeItems.type, storeItems.sourceId], set })
    .returning({ id: storeItems.id });
  if (approvers) {
    const detail = { item_type: type, source_id: sourceId, app_mode: type === 'app' ? fields.kind : null, version: fields.version, version_id: null };
    await openApproval(tx, { tenantId: who.tenantId, workspaceId: who.workspaceId, kind: 'store', targetId: row.id, title: fields.name, detail, approvers, userId: who.userId });
  }
  return row.id;
}

/** The store item a resource stands for in the store: the one it was copied from, or its own submission. */
async function storeIdsOf(ctx: ServerContext, type: 'dataset' | 'tool', rows: { id: string; storeOriginId: string | null }[]) {
  const own = rows.length
    ? await ctx.db.select({ id: storeItems.id, sourceId: storeItems.sourceId }).from(storeItems).where(and(eq(storeItems.type, type), inArray(storeItems.sourceId, rows.map((r) => r.id))))
    : [];
  return new Map(rows.map((r) => [r.id, r.storeOriginId ?? own.find((o) => o.sourceId === r.id)?.id ?? null]));
}

/** The references of an app's version document with their names in the source space (at publish time). */
export async function referencesOf(ctx: ServerContext, tenantId: string, workspaceId: string, document: Record<string, unknown>): Promise<StoreReference[]> {
  const found = collectRefs(document as never);
  const idsOf = (kind: string) => found.filter((r) => r.kind === kind && UUID_RE.test(r.sourceId)).map((r) => r.sourceId);
  const dsIds = idsOf('dataset');
  const toolIds = idsOf('tool');
  const inSpace = (t: typeof datasets | typeof tools) => and(eq(t.workspaceId, workspaceId), eq(t.tenantId, tenantId));
  const [dsRows, toolRows, fnRows] = await Promise.all([
    dsIds.length ? ctx.db.select({ id: datasets.id, name: datasets.name, storeOriginId: datasets.storeOriginId }).from(datasets).where(and(inArray(datasets.id, dsIds), inSpace(datasets))) : [],
    toolIds.length ? ctx.db.select({ id: tools.id, name: tools.name, storeOriginId: tools.storeOriginId }).from(tools).where(and(inArray(tools.id, toolIds), inSpace(tools))) : [],
    toolIds.length ? ctx.db.select({ id: toolFunctions.id, name: toolFunctions.name, toolId: toolFunctions.toolId }).from(toolFunctions).where(inArray(toolFunctions.toolId, toolIds)) : [],
  ]);
  const dsStore = await storeIdsOf(ctx, 'dataset', dsRows);
  const toolStore = await storeIdsOf(ctx, 'tool', toolRows);
  return found.map((r) => {
    const row = (r.kind === 'dataset' ? dsRows : toolRows).find((x) => x.id === r.sourceId);
    const functions = r.kind === 'tool' ? r.functionIds.map((id) => ({ id, name: fnRows.find((f) => f.id === id && f.toolId === r.sourceId)?.name ?? '' })) : [];
    return {
      kind: r.kind,
      source_id: r.sourceId,
      name: row?.name ?? '',
      store_item_id: row ? ((r.kind === 'dataset' ? dsStore : toolStore).get(row.id) ?? null) : null,
      functions,
      node_ids: r.nodeIds,
    };
  });
}

/**
 * Called by the distribution service when an app is distributed (again) on `store` or moved to another
 * version there: snapshots the version and re-submits the item. Runs after the owner check.
 */
export async function submitApp(ctx: ServerContext, s: Scope, appId: string, versionId: string, distributionId: string) {
  const [app] = await ctx.db.select().from(apps).where(eq(apps.id, appId));
  const [v] = await ctx.db.select().from(appVersions).where(eq(appVersions.id, versionId));
  const references = await referencesOf(ctx, app.tenantId, app.workspaceId, v.document);
  const snapshot: StoreSnapshot = {
    type: 'app',
    mode: app.type,
    version: { id: v.id, version: v.version, description: v.description, created_at: v.createdAt.toISOString() },
    document: v.document,
    references,
  };
  const who = { tenantId: app.tenantId, workspaceId: app.workspaceId, userId: s.caller.userId };
  await ctx.db.transaction((tx) =>
    upsertItem(tx, who, 'app', app.id, { name: app.name, description: app.description, icon: app.icon, kind: app.type, version: v.version, snapshot, stats: {} }, { distributionId }),
  );
}

/** Called when the owner cancels the app's `store` distribution: the item leaves the store (offline, no reason), its open approval is canceled. */
export async function withdrawApp(ctx: ServerContext, distributionId: string, actorId: string) {
  const items = await ctx.db.update(storeItems).set({ reviewState: 'offline', reviewReason: null, updatedAt: new Date() }).where(eq(storeItems.distributionId, distributionId)).returning({ id: storeItems.id });
  for (const i of items) await cancelOpenApprovals(ctx.db, 'store', i.id, actorId);
}

