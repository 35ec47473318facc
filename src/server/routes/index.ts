import type { FastifyPluginAsync } from 'fastify';
import type { ServerContext } from '../context';
import { baseRoutes } from './console/base';
import { workspaceRoutes } from './console/workspaces';
import { commonTenantRoutes } from './common/tenants';

/**
 * The API tree under /api/v1, one plugin per resource group of the spec (7.4 admin, 7.5 console,
 * 7.6 web and common).
 */
export const routeTree = (ctx: ServerContext): FastifyPluginAsync => async (app) => {
  await app.register(commonTenantRoutes(ctx), { prefix: '/common/tenants' });
  await app.register(baseRoutes(ctx), { prefix: '/console/base' });
  await app.register(workspaceRoutes(ctx), { prefix: '/console/workspaces' });
};
