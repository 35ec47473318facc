import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { EditorPlugin, PluginIdParams } from '../../../../schemas/plugin-package';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { requireCaller } from '../../context';
import { notFoundOrForeign } from '../../errors';
import { CredentialsSchemaAnswer, PluginCredentials, PluginCredentialsAnswer, PluginCredentialsBody } from '../../../../schemas/plugin-credentials';
import { createPluginCredentials, credentialsSchemaOf, deletePluginCredentials, getPluginCredentials, updatePluginCredentials } from '../../plugins/credentials';

const tags = ['console: plugins'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * What every editor needs of the installed plugin packages (any signed-in user: installs are
 * server-wide): the active packages, and each one's browser bundle (an ES module with the kinds'
 * manifests and views), which the editor imports before it opens a flow.
 */
export const consolePluginRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/installed', { schema: { tags, summary: 'The active plugin packages whose kinds editors offer', response: { 200: ok(z.array(EditorPlugin)) } } }, async (req) => {
    requireCaller(req);
    await ctx.plugins.sync();
    const active = ctx.plugins.packages().filter((p) => p.state === 'active' && p.browser);
    return done(active.map((p) => ({ id: p.id, version: p.manifest.version, checksum: p.manifest.checksum, kinds: p.manifest.kinds.map((k) => k.kind) })));
  });

  app.get('/:plugin_id/browser.mjs', { schema: { tags, summary: "A package's browser bundle (ES module)", params: PluginIdParams } }, async (req, reply) => {
    requireCaller(req);
    const pkg = ctx.plugins.packages().find((p) => p.id === req.params.plugin_id && p.state === 'active');
    if (!pkg?.browser) throw notFoundOrForeign('Plugin', req.params.plugin_id);
    // The editor asks with the checksum in the query: a new version is a new URL.
    return reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'private, max-age=86400').send(pkg.browser);
  });

  // The plugin's credentials for the caller's tenant (spec 7.3 plugin credentials): its admins
  // (tenant and super admins) only, since the values reach the plugin's code in every run.
  const admin = (req: Parameters<typeof requireCaller>[0]) => requirePermission(req, 'plugins.credentials');
  // The role before the input, so a caller without it gets 403 whatever it sent.
  const preValidation = async (req: Parameters<typeof requireCaller>[0]) => {
    admin(req);
  };

  app.get(
    '/:plugin_id/credentials-schema',
    { preValidation, schema: { tags, summary: "The plugin's credentials schema (JSON Schema from its manifest; null when it takes none)", params: PluginIdParams, response: { 200: ok(CredentialsSchemaAnswer) } } },
    async (req) => {
      admin(req);
      return done({ plugin_id: req.params.plugin_id, schema: await credentialsSchemaOf(ctx, req.params.plugin_id) });
    },
  );

  app.get(
    '/:plugin_id/credentials',
    { preValidation, schema: { tags, summary: "This tenant's credentials for the plugin, secrets masked (null when none are set)", params: PluginIdParams, response: { 200: ok(PluginCredentialsAnswer) } } },
    async (req) => done(await getPluginCredentials(ctx, admin(req).tenantId, req.params.plugin_id)),
  );

  app.post(
    '/:plugin_id/credentials',
    { preValidation, schema: { tags, summary: "Set this tenant's credentials for the plugin (checked against its schema; VALIDATION-1001 when set already)", params: PluginIdParams, body: PluginCredentialsBody, response: { 200: ok(PluginCredentials) } } },
    async (req) => done(await createPluginCredentials(ctx, admin(req), req.params.plugin_id, req.body.values)),
  );

  app.put(
    '/:plugin_id/credentials',
    { preValidation, schema: { tags, summary: "Change this tenant's credentials for the plugin (a secret sent back masked keeps its value)", params: PluginIdParams, body: PluginCredentialsBody, response: { 200: ok(PluginCredentials) } } },
    async (req) => done(await updatePluginCredentials(ctx, admin(req), req.params.plugin_id, req.body.values)),
  );

  app.delete(
    '/:plugin_id/credentials',
    { preValidation, schema: { tags, summary: "Delete this tenant's credentials for the plugin", params: PluginIdParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await deletePluginCredentials(ctx, admin(req).tenantId, req.params.plugin_id);
      return done(null);
    },
  );
};
