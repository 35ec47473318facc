import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { UUID_RE, type Caller } from '../context';
import { storeDatasetDocuments, storeDatasetSegments, storeItems, tenants, users, workspaces } from '../db/schema';
import { AppError, notFoundOrForeign } from '../errors';
import { contains } from '../services/workspace-resources';
import { rowsOf } from '../knowledge/queue';
import { ErrorCode } from '../../../schemas/errors';
import { latestApproval } from '../approvals/read';
import type { AdminStoreListParsed, StoreItem, StoreItemDetail, StoreItemType, StoreListAnswer, StoreListParsed, StoreSegmentPage, StoreSnapshot } from '../../../schemas/store';

/**
 * Reading the stores (schemas/store.ts): the tenant's gallery (released items only), one item, a
 * knowledge snapshot's segments, a resource's own submission, and the managers' lists. Every query
 * is scoped by the caller's tenant (a super admin's admin list spans tenants); anything else answers
 * VALIDATION-1000 as if it did not exist.
 */

export type StoreItemRow = typeof storeItems.$inferSelect;

export const storeStateError = (msg: string, state: string) => new AppError(409, ErrorCode.STORE_STATE, msg, { review_state: state });

const columns = {
  item: storeItems,
  publisher: sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username}, '')`,
  workspaceName: sql<string>`coalesce(${workspaces.name}, '')`,
  tenantName: sql<string>`coalesce(${tenants.name}, '')`,
};

type Joined = { item: StoreItemRow; publisher: string; workspaceName: string; tenantName: string };

export function toItem(r: Joined): StoreItem {
  const i = r.item;
  const s = i.stats ?? {};
  return {
    id: i.id,
    type: i.type,
    name: i.name,
    description: i.description,
    icon: i.icon ?? null,
    tags: i.tags,
    kind: i.kind,
    review_state: i.reviewState,
    review_reason: i.reviewReason,
    copy_count: i.copyCount,
    source_workspace_name: r.workspaceName,
    source_id: i.sourceId,
    published_by_name: r.publisher,
    published_at: i.publishedAt.toISOString(),
    reviewed_at: i.reviewedAt ? i.reviewedAt.toISOString() : null,
    version: i.version,
    stats: { documents: s.documents ?? 0, segments: s.segments ?? 0, functions: s.functions ?? 0, variables: s.variables ?? 0 },
    plugin: i.type === 'plugin' ? pluginFacts(i.snapshot as PluginSnapshot) : null,
  };
}

type PluginSnapshot = Partial<Extract<StoreSnapshot, { type: 'plugin' }>>;

/** A plugin card's facts, from the listing's snapshot (a listing being written may have none yet). */
function pluginFacts(snap: PluginSnapshot) {
  return { author: snap.author ?? '', kinds: (snap.kinds ?? []).map((k) => k.kind), tools: (snap.tools ?? []).map((t) => t.name) };
}

async function selectItems(ctx: ServerContext, where: SQL | undefined, order: SQL[] = [], limit?: number, offset?: number): Promise<Joined[]> {
  let q = ctx.db
    .select(columns)
    .from(storeItems)
    .leftJoin(users, eq(users.id, storeItems.publishedBy))
    .leftJoin(workspaces, eq(workspaces.id, storeItems.sourceWorkspaceId))
    .leftJoin(tenants, eq(tenants.id, storeItems.tenantId))
    .where(where)
    .orderBy(...order, desc(storeItems.id))
    .$dynamic();
  if (limit !== undefined) q = q.limit(limit).offset(offset ?? 0);
  return q;
}

const keywordMatch = (keyword: string) => {
  const like = contains(keyword);
  return sql`(${storeItems.name} ilike ${like} or ${storeItems.description} ilike ${like} or ${storeItems.tags}::text ilike ${like})`;
};

/** Every tenant user: the released items of one type, filtered, sorted and paged, with the tags to filter by. */
export async function listReleased(ctx: ServerContext, caller: Caller, type: StoreItemType, q: StoreListParsed): Promise<StoreListAnswer> {
  const scope = and(eq(storeItems.tenantId, caller.tenantId), eq(storeItems.type, type), eq(storeItems.reviewState, 'released'));
  const where = and(
    scope,
    q.keyword ? keywordMatch(q.keyword) : undefined,
    q.tag ? sql`${storeItems.tags} @> ${JSON.stringify([q.tag])}::jsonb` : undefined,
    q.kind ? eq(storeItems.kind, q.kind) : undefined,
  );
  const order = q.sort === 'most_copied' ? [desc(storeItems.copyCount), desc(storeItems.publishedAt)] : [desc(storeItems.publishedAt)];
  const [rows, [{ n }], tagRows] = await Promise.all([
    selectItems(ctx, where, order, q.page_size, (q.page - 1) * q.page_size),
    ctx.db.select({ n: count() }).from(storeItems).where(where),
    ctx.db.execute(sql`select distinct jsonb_array_elements_text(${storeItems.tags}) as tag from ${storeItems} where ${scope} order by 1`),
  ]);
  const tags = rowsOf<{ tag: string }>(tagRows).map((r) => r.tag);
  return { items: rows.map(toItem), total: Number(n), page: q.page, page_size: q.page_size, tags };
}

/** The item row of the caller's tenant (any state), or VALIDATION-1000. */
export async function itemRow(ctx: ServerContext, tenantId: string | null, id: string, type?: StoreItemType): Promise<StoreItemRow> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Store item', id);
  const [row] = await ctx.db
    .select()
    .from(storeItems)
    .where(and(eq(storeItems.id, id), tenantId ? eq(storeItems.tenantId, tenantId) : undefined, type ? eq(storeItems.type, type) : undefined));
  if (!row) throw notFoundOrForeign('Store item', id);
  return row;
}

/** A released item of the caller's tenant (any other state, type or tenant: VALIDATION-1000). */
export async function releasedRow(ctx: ServerContext, caller: Caller, type: StoreItemType, id: string): Promise<StoreItemRow> {
  const row = await itemRow(ctx, caller.tenantId, id, type);
  if (row.reviewState !== 'released') throw notFoundOrForeign('Store item', id);
  return row;
}

export async function detailOf(ctx: ServerContext, row: StoreItemRow): Promise<StoreItemDetail & { tenant_id: string; tenant_name: string }> {
  const [joined] = await selectItems(ctx, eq(storeItems.id, row.id));
  return { ...toItem(joined), snapshot: joined.item.snapshot as StoreSnapshot, tenant_id: row.tenantId, tenant_name: joined.tenantName };
}

/** Every tenant user: one released item with its snapshot. */
export async function getReleased(ctx: ServerContext, caller: Caller, type: StoreItemType, id: string): Promise<StoreItemDetail> {
  const { tenant_id: _t, tenant_name: _n, ...detail } = await detailOf(ctx, await releasedRow(ctx, caller, type, id));
  return detail;
}

/** Every tenant user: one page of a released knowledge snapshot's document's segments. */
export async function snapshotSegments(ctx: ServerContext, caller: Caller, id: string, documentId: string, q: { page: number; page_size: number }): Promise<StoreSegmentPage> {
  return segmentsOf(ctx, await releasedRow(ctx, caller, 'dataset', id), documentId, q);
}

/** One page of a knowledge snapshot's document's segments (the caller checked the item). */
export async function segmentsOf(ctx: ServerContext, row: StoreItemRow, documentId: string, q: { page: number; page_size: number }): Promise<StoreSegmentPage> {
  if (!UUID_RE.test(documentId)) throw notFoundOrForeign('Document', documentId);
  const [doc] = await ctx.db.select({ id: storeDatasetDocuments.id }).from(storeDatasetDocuments).where(and(eq(storeDatasetDocuments.id, documentId), eq(storeDatasetDocuments.storeItemId, row.id)));
  if (!doc) throw notFoundOrForeign('Document', documentId);
  const where = eq(storeDatasetSegments.documentId, doc.id);
  const [items, [{ n }]] = await Promise.all([
    ctx.db
      .select({ id: storeDatasetSegments.id, kind: storeDatasetSegments.kind, position: storeDatasetSegments.position, content: storeDatasetSegments.content, parent_id: storeDatasetSegments.parentId })
      .from(storeDatasetSegments)
      .where(where)
      .orderBy(asc(storeDatasetSegments.position), asc(storeDatasetSegments.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    ctx.db.select({ n: count() }).from(storeDatasetSegments).where(where),
  ]);
  return { items, total: Number(n), page: q.page, page_size: q.page_size };
}

/** The submission of a resource (any state), as its space's members see it; null when never published. */
export async function submissionOf(ctx: ServerContext, tenantId: string, type: StoreItemType, sourceId: string): Promise<StoreItem | null> {
  const [r] = await selectItems(ctx, and(eq(storeItems.tenantId, tenantId), eq(storeItems.type, type), eq(storeItems.sourceId, sourceId)));
  return r ? { ...toItem(r), approval: await latestApproval(ctx.db, 'store', r.item.id) } : null;
}

/** Store managers: items of every state, by type, state and keyword; a tenant admin sees their tenant's only. */
export async function adminList(ctx: ServerContext, caller: Caller, q: AdminStoreListParsed) {
  const where = and(
    caller.role === 'super_admin' ? undefined : eq(storeItems.tenantId, caller.tenantId),
    q.type ? eq(storeItems.type, q.type) : undefined,
    q.state ? eq(storeItems.reviewState, q.state) : undefined,
    q.keyword ? keywordMatch(q.keyword) : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    selectItems(ctx, where, [desc(storeItems.publishedAt)], q.page_size, (q.page - 1) * q.page_size),
    ctx.db.select({ n: count() }).from(storeItems).where(where),
  ]);
  return { items: rows.map((r) => ({ ...toItem(r), tenant_id: r.item.tenantId, tenant_name: r.tenantName })), total: Number(n), page: q.page, page_size: q.page_size };
}
