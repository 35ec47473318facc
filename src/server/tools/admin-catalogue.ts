import { eq } from 'drizzle-orm';
import { ErrorCode } from '../../../schemas/errors';
import type { AdminTool, AdminToolDetail } from '../../../schemas/admin-tools';
import type { PluginPackageManifest } from '../../../schemas/plugin-package';
import type { PluginCredentials } from '../../../schemas/plugin-credentials';
import type { ServerContext } from '../context';
import { pluginCredentials, pluginPackages } from '../db/schema';
import { AppError, notFoundOrForeign } from '../errors';
import { createPluginCredentials, deletePluginCredentials, getPluginCredentials, updatePluginCredentials } from '../plugins/credentials';
import { BUILTIN_TOOL_PROVIDER, BUILTIN_TOOLS } from './builtin';

/**
 * The tools System › Tools lists (spec 7.4): the built-in tools and the tools of installed plugins
 * (their manifests' `tools`). Built-in tools take no credentials; a plugin tool's credentials are
 * its plugin's set for the caller's tenant (src/server/plugins/credentials.ts), so setting them here
 * or on the plugin's page is the same thing.
 */

interface Entry {
  tool: AdminToolDetail;
  pluginId: string | null;
}

async function catalogue(ctx: ServerContext, tenantId: string): Promise<Entry[]> {
  await ctx.plugins.sync();
  const builtins: Entry[] = Object.values(BUILTIN_TOOLS).map((t) => ({
    pluginId: null,
    tool: {
      id: `${BUILTIN_TOOL_PROVIDER}/${t.definition.name}`,
      provider: BUILTIN_TOOL_PROVIDER,
      name: t.definition.name,
      description: t.definition.description ?? '',
      source: 'builtin',
      plugin: null,
      needs_credentials: false,
      credentials_set: false,
      parameters: t.definition.parameters,
      credentials_schema: null,
    },
  }));
  const rows = await ctx.db.select({ id: pluginPackages.id, manifest: pluginPackages.manifest }).from(pluginPackages).orderBy(pluginPackages.id);
  const set = new Set((await ctx.db.select({ id: pluginCredentials.pluginId }).from(pluginCredentials).where(eq(pluginCredentials.tenantId, tenantId))).map((r) => r.id));
  const loaded = ctx.plugins.packages();
  const fromPlugins = rows.flatMap((r) => {
    const m = r.manifest as unknown as PluginPackageManifest;
    const state = loaded.find((l) => l.id === r.id && l.manifest.checksum === m.checksum)?.state ?? 'failed';
    return (m.tools ?? []).map(
      (t): Entry => ({
        pluginId: r.id,
        tool: {
          id: `${r.id}/${t.name}`,
          provider: r.id,
          name: t.name,
          description: t.description ?? '',
          source: 'plugin',
          plugin: { id: r.id, name: m.name, version: m.version, state },
          needs_credentials: !!m.credentials_schema,
          credentials_set: set.has(r.id),
          parameters: t.parameters ?? null,
          credentials_schema: m.credentials_schema ?? null,
        },
      }),
    );
  });
  return [...builtins, ...fromPlugins];
}

const summary = ({ parameters: _p, credentials_schema: _c, ...tool }: AdminToolDetail): AdminTool => tool;

export async function listAdminTools(ctx: ServerContext, tenantId: string): Promise<AdminTool[]> {
  return (await catalogue(ctx, tenantId)).map((e) => summary(e.tool));
}

async function entry(ctx: ServerContext, tenantId: string, toolId: string): Promise<Entry> {
  const found = (await catalogue(ctx, tenantId)).find((e) => e.tool.id === toolId);
  if (!found) throw notFoundOrForeign('Tool', toolId);
  return found;
}

export async function adminToolDetail(ctx: ServerContext, tenantId: string, toolId: string): Promise<AdminToolDetail> {
  return (await entry(ctx, tenantId, toolId)).tool;
}

/** The plugin whose credentials a tool uses; PLUGIN-CREDENTIALS-NONE for a tool that takes none. */
async function credentialOwner(ctx: ServerContext, tenantId: string, toolId: string): Promise<string> {
  const e = await entry(ctx, tenantId, toolId);
  if (!e.pluginId || !e.tool.needs_credentials) throw new AppError(400, ErrorCode.PLUGIN_NO_CREDENTIALS, `The tool ${toolId} takes no credentials`);
  return e.pluginId;
}

export async function adminToolCredentialsSchema(ctx: ServerContext, tenantId: string, toolId: string) {
  const e = await entry(ctx, tenantId, toolId);
  return { plugin_id: e.pluginId ?? BUILTIN_TOOL_PROVIDER, schema: e.tool.credentials_schema };
}

export async function getAdminToolCredentials(ctx: ServerContext, tenantId: string, toolId: string): Promise<PluginCredentials | null> {
  const e = await entry(ctx, tenantId, toolId);
  return e.pluginId && e.tool.needs_credentials ? getPluginCredentials(ctx, tenantId, e.pluginId) : null;
}

/** PUT: sets the credentials whether or not some were set before (the spec has no POST here). */
export async function putAdminToolCredentials(ctx: ServerContext, caller: { tenantId: string; username: string }, toolId: string, values: Parameters<typeof updatePluginCredentials>[3]) {
  const pluginId = await credentialOwner(ctx, caller.tenantId, toolId);
  const existing = await getPluginCredentials(ctx, caller.tenantId, pluginId);
  return existing ? updatePluginCredentials(ctx, caller, pluginId, values) : createPluginCredentials(ctx, caller, pluginId, values);
}

export async function deleteAdminToolCredentials(ctx: ServerContext, tenantId: string, toolId: string): Promise<void> {
  await deletePluginCredentials(ctx, tenantId, await credentialOwner(ctx, tenantId, toolId));
}
