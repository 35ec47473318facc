import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { EditorPlugin, PluginIdParams } from '../../../../schemas/plugin-package';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import { notFoundOrForeign } from '../../errors';

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
};
