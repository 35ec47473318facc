import { desc, eq, or, sql } from 'drizzle-orm';
import { ErrorCode } from '../../../schemas/errors';
import type { FlowDocument } from '../../../schemas/flow';
import type { InstalledPlugin, PluginPackageManifest, PluginVersionEntry } from '../../../schemas/plugin-package';
import type { ServerContext } from '../context';
import { appDrafts, apps, appVersions, pluginCredentials, pluginPackages, pluginVersions } from '../db/schema';
import { AppError, notFoundOrForeign } from '../errors';
import { forgetDraftRows } from '../services/cache-generations';
import { isUniqueViolation } from '../services/workspace-resources';
import { incompatible, openPackage } from './package';
import type { LoadedPackage } from './host';

/**
 * Installing, upgrading and deleting plugin packages (server-wide; the routes allow super admins
 * only). The archive is stored in plugin_packages and every process loads it from there
 * (src/server/plugins/host.ts).
 */

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

type Row = typeof pluginPackages.$inferSelect;

export function pluginView(row: Pick<Row, 'id' | 'installedBy' | 'installedAt' | 'updatedAt'>, manifest: PluginPackageManifest, loaded: LoadedPackage | undefined): InstalledPlugin {
  return {
    id: row.id,
    name: manifest.name,
    version: manifest.version,
    author: manifest.author,
    description: manifest.description,
    icon: manifest.icon,
    kinds: manifest.kinds,
    tools: manifest.tools,
    min_weft_version: manifest.min_weft_version,
    checksum: manifest.checksum,
    // A row this process has not loaded yet (installed by another one a moment ago) shows as active
    // once the next sync has loaded it; until then it is reported by what was loaded.
    state: loaded?.manifest.checksum === manifest.checksum ? loaded.state : 'failed',
    error: loaded?.manifest.checksum === manifest.checksum ? loaded.error : 'not loaded by this server process yet',
    installed_by: row.installedBy,
    installed_at: row.installedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const headColumns = { id: pluginPackages.id, manifest: pluginPackages.manifest, installedBy: pluginPackages.installedBy, installedAt: pluginPackages.installedAt, updatedAt: pluginPackages.updatedAt };

export async function listPlugins(ctx: ServerContext): Promise<InstalledPlugin[]> {
  await ctx.plugins.sync();
  const rows = await ctx.db.select(headColumns).from(pluginPackages).orderBy(pluginPackages.id);
  const loaded = ctx.plugins.packages();
  return rows.map((r) => pluginView(r, r.manifest as unknown as PluginPackageManifest, loaded.find((l) => l.id === r.id)));
}

export async function getPlugin(ctx: ServerContext, id: string): Promise<InstalledPlugin> {
  await ctx.plugins.sync();
  const [row] = await ctx.db.select(headColumns).from(pluginPackages).where(eq(pluginPackages.id, id));
  if (!row) throw notFoundOrForeign('Plugin', id);
  return pluginView(row, row.manifest as unknown as PluginPackageManifest, ctx.plugins.packages().find((l) => l.id === id));
}

/** The versions of a plugin installed over time, newest first (kept across deletes). */
export async function pluginHistory(ctx: ServerContext, id: string): Promise<PluginVersionEntry[]> {
  const rows = await ctx.db.select().from(pluginVersions).where(eq(pluginVersions.pluginId, id)).orderBy(desc(pluginVersions.at), desc(pluginVersions.id));
  return rows.map((r) => ({ version: r.version, checksum: r.checksum, action: r.action, by: r.by, at: r.at.toISOString() }));
}

/** The apps whose draft or versions hold nodes of these kinds (all tenants: installs are server-wide). */
export async function pluginUsage(ctx: ServerContext, kinds: string[]): Promise<{ app_id: string; app_name: string; kinds: string[] }[]> {
  if (!kinds.length) return [];
  const holds = (doc: typeof appDrafts.document | typeof appVersions.document) => or(...kinds.map((k) => sql`${doc} -> 'nodes' @> ${JSON.stringify([{ kind: k }])}::jsonb`))!;
  const drafts = await ctx.db.select({ id: apps.id, name: apps.name, document: appDrafts.document }).from(appDrafts).innerJoin(apps, eq(apps.id, appDrafts.appId)).where(holds(appDrafts.document));
  const versions = await ctx.db.select({ id: apps.id, name: apps.name, document: appVersions.document }).from(appVersions).innerJoin(apps, eq(apps.id, appVersions.appId)).where(holds(appVersions.document));
  const byApp = new Map<string, { app_id: string; app_name: string; kinds: Set<string> }>();
  for (const r of [...drafts, ...versions]) {
    const entry = byApp.get(r.id) ?? { app_id: r.id, app_name: r.name, kinds: new Set<string>() };
    for (const n of ((r.document as unknown as FlowDocument).nodes ?? [])) if (kinds.includes(n.kind)) entry.kinds.add(n.kind);
    byApp.set(r.id, entry);
  }
  return [...byApp.values()].map((e) => ({ ...e, kinds: [...e.kinds].sort() }));
}

/** Opens and test-loads a package; throws a catalogue error when it cannot be installed. */
async function verified(ctx: ServerContext, bytes: Buffer) {
  const pkg = openPackage(bytes);
  try {
    await ctx.plugins.tryLoad(pkg.manifest.id, pkg.server, pkg.manifest);
  } catch (e) {
    throw incompatible(`${pkg.manifest.id} ${pkg.manifest.version} cannot be loaded: ${message(e)}`);
  }
  return pkg;
}

export async function installPlugin(ctx: ServerContext, bytes: Buffer, by: string): Promise<InstalledPlugin> {
  const pkg = await verified(ctx, bytes);
  const [existing] = await ctx.db.select({ id: pluginPackages.id }).from(pluginPackages).where(eq(pluginPackages.id, pkg.manifest.id));
  const installedAlready = () => new AppError(400, ErrorCode.EXISTS, `The plugin ${pkg.manifest.id} is installed already: upgrade it instead`);
  if (existing) throw installedAlready();
  // Two installs of one package at once both pass the check above: the second insert's key
  // conflict is the same answer, not a server error.
  await ctx.db.transaction(async (tx) => {
    await tx.insert(pluginPackages).values({
      id: pkg.manifest.id,
      version: pkg.manifest.version,
      manifest: pkg.manifest as unknown as Record<string, unknown>,
      archive: bytes.toString('base64'),
      checksum: pkg.manifest.checksum,
      installedBy: by,
    });
    await tx.insert(pluginVersions).values({ pluginId: pkg.manifest.id, version: pkg.manifest.version, checksum: pkg.manifest.checksum, action: 'install', by });
  }).catch((e: unknown) => {
    throw isUniqueViolation(e) ? installedAlready() : e;
  });
  return getPlugin(ctx, pkg.manifest.id);
}

/**
 * Replaces an installed package by a new version of the same plugin, then brings the drafts that
 * use its kinds to the new kinds' versions (their config migrations). Published versions are left
 * as they were and run migrated (src/server/runs/app-flow.ts).
 */
export async function upgradePlugin(ctx: ServerContext, id: string, bytes: Buffer, by: string) {
  const [row] = await ctx.db.select({ id: pluginPackages.id }).from(pluginPackages).where(eq(pluginPackages.id, id));
  if (!row) throw notFoundOrForeign('Plugin', id);
  const pkg = await verified(ctx, bytes);
  if (pkg.manifest.id !== id) throw incompatible(`The package is the plugin ${pkg.manifest.id}, not ${id}`);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(pluginPackages)
      .set({
        version: pkg.manifest.version,
        manifest: pkg.manifest as unknown as Record<string, unknown>,
        archive: bytes.toString('base64'),
        checksum: pkg.manifest.checksum,
        installedBy: by,
        updatedAt: new Date(),
      })
      .where(eq(pluginPackages.id, id));
    await tx.insert(pluginVersions).values({ pluginId: id, version: pkg.manifest.version, checksum: pkg.manifest.checksum, action: 'upgrade', by });
  });
  await ctx.plugins.sync();
  const kinds = pkg.manifest.kinds.map((k) => k.kind);
  const registry = ctx.plugins.registries().nodes;
  const usage = await pluginUsage(ctx, kinds);
  let migrated = 0;
  const failed: string[] = [];
  for (const u of usage) {
    const [draft] = await ctx.db.select().from(appDrafts).where(eq(appDrafts.appId, u.app_id));
    if (!draft) continue;
    const result = registry.migrateFlow(draft.document as unknown as FlowDocument);
    if (result.failed.length) failed.push(u.app_id);
    if (!result.migrated.length) continue;
    // A new revision: an editor open on the old one is told to reload rather than overwrite it.
    await ctx.db
      .update(appDrafts)
      .set({ document: result.document as unknown as Record<string, unknown>, revision: draft.revision + 1, updatedAt: new Date() })
      .where(eq(appDrafts.appId, u.app_id));
    migrated++;
  }
  if (migrated) forgetDraftRows();
  return { plugin: await getPlugin(ctx, id), migrated_drafts: migrated, failed_drafts: failed };
}

/** Deletes a package; refused while flows use its kinds unless `force` (their nodes then fail their checks). */
export async function deletePlugin(ctx: ServerContext, id: string, force: boolean): Promise<void> {
  const [row] = await ctx.db.select({ manifest: pluginPackages.manifest }).from(pluginPackages).where(eq(pluginPackages.id, id));
  if (!row) throw notFoundOrForeign('Plugin', id);
  const kinds = (row.manifest as unknown as PluginPackageManifest).kinds.map((k) => k.kind);
  const usage = await pluginUsage(ctx, kinds);
  if (usage.length && !force) {
    throw new AppError(409, ErrorCode.PLUGIN_IN_USE, `Flows use the kinds of ${id}: ${usage.map((u) => u.app_name).join(', ')}`, { usage });
  }
  // Every tenant's credentials go with it: a later install of the same id starts without them.
  await ctx.db.transaction(async (tx) => {
    await tx.delete(pluginCredentials).where(eq(pluginCredentials.pluginId, id));
    await tx.delete(pluginPackages).where(eq(pluginPackages.id, id));
  });
  await ctx.plugins.sync();
}
