import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { AdminTool, AdminToolDetail, AdminToolQuery } from '../../../../schemas/admin-tools';
import { CredentialsSchemaAnswer, PluginCredentials, PluginCredentialsAnswer, PluginCredentialsBody } from '../../../../schemas/plugin-credentials';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import {
  adminToolCredentialsSchema,
  adminToolDetail,
  deleteAdminToolCredentials,
  getAdminToolCredentials,
  listAdminTools,
  putAdminToolCredentials,
} from '../../tools/admin-catalogue';

const tags = ['admin: tools'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * System › Tools (spec 7.4 admin tools): built-in and plugin tools with their credentials, for
 * tenant and super admins. Credentials are the caller's tenant's; a plugin tool's are its plugin's.
 */
export const adminToolRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const admin = (req: Parameters<typeof requirePermission>[0]) => requirePermission(req, 'tools.manage');
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    admin(req);
  });

  app.get('/', { schema: { tags, summary: 'Built-in tools and the tools of installed plugins', response: { 200: ok(z.array(AdminTool)) } } }, async (req) =>
    done(await listAdminTools(ctx, admin(req).tenantId)),
  );

  app.get('/detail', { schema: { tags, summary: 'One tool: its parameters and credentials schema', querystring: AdminToolQuery, response: { 200: ok(AdminToolDetail) } } }, async (req) =>
    done(await adminToolDetail(ctx, admin(req).tenantId, req.query.tool_id)),
  );

  app.get(
    '/credentials-schema',
    { schema: { tags, summary: "The tool's credentials schema (its plugin's; null when it takes none)", querystring: AdminToolQuery, response: { 200: ok(CredentialsSchemaAnswer) } } },
    async (req) => done(await adminToolCredentialsSchema(ctx, admin(req).tenantId, req.query.tool_id)),
  );

  app.get(
    '/credentials',
    { schema: { tags, summary: "This tenant's credentials for the tool, secrets masked (null when none)", querystring: AdminToolQuery, response: { 200: ok(PluginCredentialsAnswer) } } },
    async (req) => done(await getAdminToolCredentials(ctx, admin(req).tenantId, req.query.tool_id)),
  );

  app.put(
    '/credentials',
    {
      schema: {
        tags,
        summary: "Set this tenant's credentials for the tool (a secret sent back masked keeps its value); PLUGIN-CREDENTIALS-NONE for a tool that takes none",
        querystring: AdminToolQuery,
        body: PluginCredentialsBody,
        response: { 200: ok(PluginCredentials) },
      },
    },
    async (req) => done(await putAdminToolCredentials(ctx, admin(req), req.query.tool_id, req.body.values)),
  );

  app.delete('/credentials', { schema: { tags, summary: "Delete this tenant's credentials for the tool", querystring: AdminToolQuery, response: { 200: ok(z.null()) } } }, async (req) => {
    await deleteAdminToolCredentials(ctx, admin(req).tenantId, req.query.tool_id);
    return done(null);
  });
};
