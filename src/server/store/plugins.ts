import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import type { Caller } from '../context';
import { pluginPackages, storeItems, storePluginVersions } from '../db/schema';
import { notFoundOrForeign } from '../errors';
import type { PluginPackageManifest } from '../../../schemas/plugin-package';
import type { StoreItem, StorePluginPublishBody, StoreSnapshot } from '../../../schemas/store';
import { releasedRow, submissionOf } from './items';

/**
 * The plugin store (issue 23): a super admin publishes an installed package to their tenant's store,
 * a store manager reviews it like any item, and a super admin installs a released listing's package
 * through /admin/plugins (source `store`), where it passes the same checks as an upload. The listing
 * has no project space (packages are server-wide); its bytes live in store_plugin_versions.
 */

type PluginSnapshot = Extract<StoreSnapshot, { type: 'plugin' }>;

/**
 * One listing per (tenant, plugin): its source_id is derived from both, so the (type, source_id)
 * unique index keeps two concurrent publishes from making two listings.
 */
export function pluginSourceId(tenantId: string, pluginId: string): string {
  const h = createHash('sha256').update(`plugin:${tenantId}:${pluginId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Publishes (or re-submits) an installed package; answers the listing as its publisher sees it (awaiting release). */
export async function publishPlugin(ctx: ServerContext, caller: Caller, body: StorePluginPublishBody): Promise<StoreItem> {
  const [pkg] = await ctx.db.select().from(pluginPackages).where(eq(pluginPackages.id, body.plugin_id));
  if (!pkg) throw notFoundOrForeign('Plugin', body.plugin_id);
  const manifest = pkg.manifest as unknown as PluginPackageManifest;
  const sourceId = pluginSourceId(caller.tenantId, manifest.id);
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const base = {
      name: manifest.name,
      description: body.description ?? manifest.description,
      icon: { icon: manifest.icon },
      kind: null,
      version: manifest.version,
      reviewState: 'awaiting_release' as const,
      reviewReason: null,
      publishedBy: caller.userId,
      publishedAt: now,
      reviewedBy: null,
      reviewedAt: null,
      updatedAt: now,
      ...(body.tags ? { tags: body.tags } : {}),
    };
    // The snapshot is completed below, once the version is stored (it lists every version).
    const [item] = await tx
      .insert(storeItems)
      .values({ id: randomUUID(), tenantId: caller.tenantId, type: 'plugin', sourceId, sourceWorkspaceId: null, tags: body.tags ?? [], snapshot: {}, ...base })
      .onConflictDoUpdate({ target: [storeItems.type, storeItems.sourceId], set: base })
      .returning({ id: storeItems.id });
    const version = { manifest: pkg.manifest, archive: pkg.archive, checksum: pkg.checksum, publishedBy: caller.userId, publishedAt: now };
    await tx
      .insert(storePluginVersions)
      .values({ id: randomUUID(), storeItemId: item.id, version: manifest.version, ...version })
      .onConflictDoUpdate({ target: [storePluginVersions.storeItemId, storePluginVersions.version], set: version });
    const versions = await tx
      .select({ version: storePluginVersions.version, checksum: storePluginVersions.checksum, manifest: storePluginVersions.manifest, at: storePluginVersions.publishedAt })
      .from(storePluginVersions)
      .where(eq(storePluginVersions.storeItemId, item.id))
      .orderBy(desc(storePluginVersions.publishedAt));
    const snapshot: PluginSnapshot = {
      type: 'plugin',
      plugin_id: manifest.id,
      author: manifest.author,
      icon: manifest.icon,
      kinds: manifest.kinds,
      tools: manifest.tools,
      min_weft_version: manifest.min_weft_version,
      checksum: manifest.checksum,
      versions: versions.map((v) => ({
        version: v.version,
        checksum: v.checksum,
        min_weft_version: (v.manifest as unknown as PluginPackageManifest).min_weft_version,
        published_at: v.at.toISOString(),
      })),
    };
    await tx
      .update(storeItems)
      .set({ snapshot: snapshot as unknown as Record<string, unknown>, stats: { functions: manifest.tools.length } })
      .where(eq(storeItems.id, item.id));
  });
  return (await submissionOf(ctx, caller.tenantId, 'plugin', sourceId))!;
}

/**
 * The package bytes of a RELEASED listing of the caller's tenant (`version`: default the newest
 * published); anything else answers VALIDATION-1000 as if it did not exist.
 */
export async function storePackage(ctx: ServerContext, caller: Caller, itemId: string, version?: string): Promise<Buffer> {
  const row = await releasedRow(ctx, caller, 'plugin', itemId);
  const wanted = version || row.version || '';
  const [v] = await ctx.db
    .select({ archive: storePluginVersions.archive })
    .from(storePluginVersions)
    .where(and(eq(storePluginVersions.storeItemId, row.id), eq(storePluginVersions.version, wanted)));
  if (!v) throw notFoundOrForeign('Plugin version', wanted);
  return Buffer.from(v.archive, 'base64');
}
