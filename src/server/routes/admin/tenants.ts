import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import { StatusBody, Tenant, TenantCreateBody, TenantListQuery, TenantUpdateBody } from '../../../../schemas/tenant';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import * as svc from '../../services/tenants';

const tags = ['admin: tenants'];
const TenantParams = z.object({ tenant_id: z.string().describe('Tenant id') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/** Tenant management (spec 7.4 tenants): super admin only. */
export const adminTenantRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db } = ctx;
  const superAdmin = (req: Parameters<typeof requirePermission>[0]) => requirePermission(req, 'tenants.manage');
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    superAdmin(req);
  });

  app.get(
    '/',
    { schema: { tags, summary: 'Tenants, the default first (filters: name, status)', querystring: TenantListQuery, response: { 200: ok(page(Tenant)) } } },
    async (req) => {
      superAdmin(req);
      return done(await svc.listTenants(db, req.query));
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a tenant with its root organisation and its first tenant admin (admin_username, password)',
        body: TenantCreateBody,
        response: { 200: ok(Tenant) },
      },
    },
    async (req) => {
      const caller = superAdmin(req);
      const { name, admin_username, password } = req.body;
      return done(await svc.createTenant(db, caller, { name, admin_username, password }));
    },
  );

  app.get(
    '/:tenant_id',
    { schema: { tags, summary: 'One tenant', params: TenantParams, response: { 200: ok(Tenant) } } },
    async (req) => {
      superAdmin(req);
      return done(svc.toTenant(await svc.tenantOf(db, req.params.tenant_id)));
    },
  );

  app.put(
    '/:tenant_id',
    { schema: { tags, summary: 'Rename a tenant (its root organisation follows)', params: TenantParams, body: TenantUpdateBody, response: { 200: ok(Tenant) } } },
    async (req) => done(await svc.renameTenant(db, superAdmin(req), req.params.tenant_id, req.body.name)),
  );

  app.put(
    '/:tenant_id/status',
    {
      schema: {
        tags,
        summary: 'Enable (1) or disable (0) a tenant; the default tenant and your own cannot be disabled',
        params: TenantParams,
        body: StatusBody,
        response: { 200: ok(Tenant) },
      },
    },
    async (req) => done(await svc.setTenantStatus(db, superAdmin(req), req.params.tenant_id, req.body.status)),
  );
};
