import type { FastifyPluginAsync } from 'fastify';
import type { ServerContext } from '../context';
import { baseRoutes } from './console/base';
import { workspaceRoutes } from './console/workspaces';
import { commonTenantRoutes } from './common/tenants';
import { commonOrgRoutes, switchAppRoutes } from './common/org';
import { consoleUserRoutes } from './console/users';
import { adminUserRoutes } from './admin/users';
import { adminTenantRoutes } from './admin/tenants';
import { adminOrgRoutes } from './admin/orgs';
import { credentialRoutes } from './console/credentials';
import { databaseRoutes } from './console/databases';
import { promptRoutes } from './console/prompts';
import { appRoutes } from './console/apps';
import { runRoutes } from './console/runs';
import { distributionRoutes } from './console/distribution';
import { appApiRoutes } from './console/app-api';
import { mcpConsoleRoutes } from './console/mcp';
import { agentBuilderRoutes } from './console/agent-builder';
import { adminModelRoutes } from './admin/models';
import { consoleModelRoutes } from './console/models';
import { toolRoutes } from './console/tools';
import { datasetRoutes } from './console/datasets';
import { datasetSearchRoutes } from './console/datasets-search';
import { fileRoutes } from './console/files';
import { commonFileRoutes } from './common/files';
import { adminDatasetTaskRoutes } from './admin/dataset-tasks';
import { webPortalRoutes } from './web/portal';
import { webConversationRoutes } from './web/conversations';
import { webUsageRoutes } from './web/usage';
import { storeResourceRoutes, storeRoutes } from './console/store';
import { adminStoreRoutes } from './admin/store';
import { adminSecurityRoutes } from './admin/security';
import { adminPluginRoutes } from './admin/plugins';
import { consolePluginRoutes } from './console/plugins';

/**
 * The API tree under /api/v1, one plugin per resource group of the spec (7.4 admin, 7.5 console,
 * 7.6 web and common).
 */
export const routeTree = (ctx: ServerContext): FastifyPluginAsync => async (app) => {
  await app.register(commonTenantRoutes(ctx), { prefix: '/common/tenants' });
  await app.register(baseRoutes(ctx), { prefix: '/console/base' });
  await app.register(workspaceRoutes(ctx), { prefix: '/console/workspaces' });
  await app.register(commonOrgRoutes(ctx), { prefix: '/common/org' });
  await app.register(switchAppRoutes(), { prefix: '/common' });
  await app.register(consoleUserRoutes(ctx), { prefix: '/console/users' });
  await app.register(adminUserRoutes(ctx), { prefix: '/admin/users' });
  await app.register(adminTenantRoutes(ctx), { prefix: '/admin/tenants' });
  await app.register(adminOrgRoutes(ctx), { prefix: '/admin/orgs' });
  await app.register(credentialRoutes(ctx), { prefix: '/console/credentials' });
  await app.register(databaseRoutes(ctx), { prefix: '/console/databases' });
  await app.register(promptRoutes(ctx), { prefix: '/console/prompts' });
  await app.register(appRoutes(ctx), { prefix: '/console/apps' });
  await app.register(runRoutes(ctx), { prefix: '/console/apps' });
  await app.register(distributionRoutes(ctx), { prefix: '/console/apps' });
  await app.register(appApiRoutes(ctx), { prefix: '/console/apps' });
  await app.register(mcpConsoleRoutes(ctx), { prefix: '/console/workspaces' });
  await app.register(agentBuilderRoutes(ctx), { prefix: '/console/apps' });
  await app.register(adminModelRoutes(ctx), { prefix: '/admin/models' });
  await app.register(consoleModelRoutes(ctx), { prefix: '/console/models' });
  await app.register(toolRoutes(ctx), { prefix: '/console/tools' });
  await app.register(datasetRoutes(ctx), { prefix: '/console/datasets' });
  await app.register(datasetSearchRoutes(ctx), { prefix: '/console/datasets' });
  await app.register(fileRoutes(ctx), { prefix: '/console/files' });
  await app.register(consolePluginRoutes(ctx), { prefix: '/console/plugins' });
  await app.register(commonFileRoutes(ctx), { prefix: '/common/files' });
  await app.register(adminDatasetTaskRoutes(ctx), { prefix: '/admin/datasets/management' });
  await app.register(storeRoutes(ctx), { prefix: '/console/store' });
  await app.register(storeResourceRoutes(ctx), { prefix: '/console' });
  await app.register(adminStoreRoutes(ctx), { prefix: '/admin/store' });
  // WEB (the portal): the same sign-in and tokens, no X-Workspace-Id (schemas/portal.ts).
  await app.register(webPortalRoutes(ctx), { prefix: '/web' });
  await app.register(webConversationRoutes(ctx), { prefix: '/web' });
  await app.register(webUsageRoutes(ctx), { prefix: '/web' });
  await app.register(adminSecurityRoutes(ctx), { prefix: '/admin/security' });
  await app.register(adminPluginRoutes(ctx), { prefix: '/admin/plugins' });
};
