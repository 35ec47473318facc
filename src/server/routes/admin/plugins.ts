import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { InstalledPlugin, PluginDeleteQuery, PluginDetail, PluginIdParams, PluginUpgradeResult } from '../../../../schemas/plugin-package';
import type { ServerContext } from '../../context';
import { requireSystemRole } from '../../context';
import { badRequest } from '../../errors';
import { deletePlugin, getPlugin, installPlugin, listPlugins, pluginUsage, upgradePlugin } from '../../plugins/packages';

const tags = ['admin: plugins'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const MAX_PACKAGE_MB = 20;

/** The package file of a multipart upload (field `file`; a `source` field other than 'upload' is refused). */
async function packageOf(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw badRequest('The upload must be multipart/form-data with the field file (a .tgz plugin package)');
  let file: Buffer | undefined;
  let source = 'upload';
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_PACKAGE_MB * 1024 * 1024, files: 1, fields: 5, fieldSize: 256 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') file = bytes;
      } else if (part.fieldname === 'source') source = String(part.value);
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`The package is too large: at most ${MAX_PACKAGE_MB} MB`);
    if (code?.startsWith('FST_')) throw badRequest(`Invalid upload: ${(e as Error).message}`);
    throw e;
  }
  // Installing from the plugin store (issue 23) will fetch the package here, then take the same path.
  if (source !== 'upload') throw badRequest('Only uploaded packages can be installed (source: upload); the plugin store comes later', [{ path: 'body/source', message: 'invalid' }]);
  if (!file) throw badRequest('No package was sent (multipart field "file")', [{ path: 'body/file', message: 'required' }]);
  return file;
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
    requireSystemRole(req, 'super_admin');
  });

  app.get('/', { schema: { tags, summary: 'Installed plugin packages, with their state (active, or failed and why)', response: { 200: ok(z.array(InstalledPlugin)) } } }, async () =>
    done(await listPlugins(ctx)),
  );

  app.post(
    '/install',
    { schema: { tags, summary: 'Install a plugin package (multipart: file = the .tgz; source = upload)', consumes: ['multipart/form-data'], response: { 200: ok(InstalledPlugin) } } },
    async (req) => {
      const caller = requireSystemRole(req, 'super_admin');
      return done(await installPlugin(ctx, await packageOf(req), caller.username));
    },
  );

  app.get('/:plugin_id', { schema: { tags, summary: 'One installed plugin, with the apps that use its kinds', params: PluginIdParams, response: { 200: ok(PluginDetail) } } }, async (req) => {
    const plugin = await getPlugin(ctx, req.params.plugin_id);
    return done({ ...plugin, usage: await pluginUsage(ctx, plugin.kinds.map((k) => k.kind)) });
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
      const caller = requireSystemRole(req, 'super_admin');
      return done(await upgradePlugin(ctx, req.params.plugin_id, await packageOf(req), caller.username));
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
