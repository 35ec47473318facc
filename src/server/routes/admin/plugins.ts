import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { InstalledPlugin, PluginDeleteQuery, SemVer, PluginDetail, PluginIdParams, PluginUpgradeResult } from '../../../../schemas/plugin-package';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { badRequest } from '../../errors';
import { countStoreInstall, storePackage } from '../../store/plugins';
import { deletePlugin, getPlugin, installPlugin, listPlugins, pluginHistory, pluginUsage, upgradePlugin } from '../../plugins/packages';
import { credentialsSchemaOf } from '../../plugins/credentials';

const tags = ['admin: plugins'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const MAX_PACKAGE_MB = 20;
const StoreInstallFields = z.object({ store_item_id: z.string().max(64), version: SemVer.optional() });

/**
 * The package of a multipart request: `source` upload (default) sends it as the field `file`;
 * `source` store names a released listing of the caller's tenant's plugin store (`store_item_id`,
 * optional `version`), whose stored bytes then go through exactly the same checks as an upload.
 */
async function packageOf(ctx: ServerContext, req: FastifyRequest): Promise<{ bytes: Buffer; storeItemId: string | null }> {
  if (!req.isMultipart()) throw badRequest('The upload must be multipart/form-data with the field file (a .tgz plugin package)');
  let file: Buffer | undefined;
  let source = 'upload';
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_PACKAGE_MB * 1024 * 1024, files: 1, fields: 5, fieldSize: 256 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') file = bytes;
      } else if (part.fieldname === 'source') source = String(part.value);
      else fields[part.fieldname] = String(part.value);
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`The package is too large: at most ${MAX_PACKAGE_MB} MB`);
    if (code?.startsWith('FST_')) throw badRequest(`Invalid upload: ${(e as Error).message}`);
    throw e;
  }
  if (source === 'store') {
    const parsed = StoreInstallFields.safeParse(fields);
    if (!parsed.success) throw badRequest('Installing from the store needs store_item_id (a released plugin listing) and optionally version', [{ path: 'body/store_item_id', message: 'invalid' }]);
    return { bytes: await storePackage(ctx, requirePermission(req, 'plugins.manage'), parsed.data.store_item_id, parsed.data.version), storeItemId: parsed.data.store_item_id };
  }
  if (source !== 'upload') throw badRequest('A package comes from an upload (source: upload) or the plugin store (source: store)', [{ path: 'body/source', message: 'invalid' }]);
  if (!file) throw badRequest('No package was sent (multipart field "file")', [{ path: 'body/file', message: 'required' }]);
  return { bytes: file, storeItemId: null };
}

/**
 * Plugin packages (spec 7.4 admin plugins): SUPER ADMINS ONLY, whatever their tenant: a package's
 * server bundle runs inside the server process with its rights. Installs are server-wide: every
 * tenant's editors get the kinds.
 */
export const adminPluginRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    requirePermission(req, 'plugins.manage');
  });

  app.get('/', { schema: { tags, summary: 'Installed plugin packages, with their state (active, or failed and why)', response: { 200: ok(z.array(InstalledPlugin)) } } }, async () =>
    done(await listPlugins(ctx)),
  );

  app.post(
    '/install',
    { schema: { tags, summary: 'Install a plugin package (multipart: source = upload with file = the .tgz, or source = store with store_item_id and optional version: a released listing of the plugin store); the same checks either way', consumes: ['multipart/form-data'], response: { 200: ok(InstalledPlugin) } } },
    async (req) => {
      const caller = requirePermission(req, 'plugins.manage');
      const pkg = await packageOf(ctx, req);
      const installed = await installPlugin(ctx, pkg.bytes, caller.username);
      // Counted only once the install succeeded (store items' count; schemas/store.ts).
      if (pkg.storeItemId) await countStoreInstall(ctx, caller, pkg.storeItemId);
      return done(installed);
    },
  );

  app.get('/:plugin_id', { schema: { tags, summary: 'One installed plugin, with the apps that use its kinds', params: PluginIdParams, response: { 200: ok(PluginDetail) } } }, async (req) => {
    const plugin = await getPlugin(ctx, req.params.plugin_id);
    const history = await pluginHistory(ctx, plugin.id);
    return done({ ...plugin, usage: await pluginUsage(ctx, plugin.kinds.map((k) => k.kind)), history, credentials_schema: await credentialsSchemaOf(ctx, plugin.id) });
  });

  app.post(
    '/:plugin_id/upgrade',
    {
      schema: {
        tags,
        summary: "Upgrade to a new package of the same plugin; drafts using its kinds are migrated to the kinds' new versions",
        params: PluginIdParams,
        consumes: ['multipart/form-data'],
        response: { 200: ok(PluginUpgradeResult) },
      },
    },
    async (req) => {
      const caller = requirePermission(req, 'plugins.manage');
      return done(await upgradePlugin(ctx, req.params.plugin_id, (await packageOf(ctx, req)).bytes, caller.username));
    },
  );

  app.delete(
    '/:plugin_id',
    { schema: { tags, summary: 'Delete a plugin; refused (PLUGIN-1002) while flows use its kinds unless force=true', params: PluginIdParams, querystring: PluginDeleteQuery, response: { 200: ok(z.null()) } } },
    async (req) => {
      await deletePlugin(ctx, req.params.plugin_id, req.query.force === 'true');
      return done(null);
    },
  );
};
