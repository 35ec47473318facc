import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../../../schemas/common';
import { SystemResource } from '../../../../schemas/system-resource';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { systemResource } from '../../services/system-resource';

const tags = ['admin: system'];

/**
 * System › Resources: super admins only (sizes and load over every tenant describe the whole
 * server, which a tenant admin must not see).
 */
export const adminSystemRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.addHook('preValidation', async (req) => {
    requirePermission(req, 'resource.view');
  });
  app.get('/resource', { schema: { tags, summary: 'Database and file sizes, queues and workers, model providers, plugins, memory and uptime', response: { 200: ok(SystemResource) } } }, async () => ({
    code: 0 as const,
    msg: 'success',
    data: await systemResource(ctx),
  }));
};
