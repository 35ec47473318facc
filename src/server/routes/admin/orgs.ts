import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { OrgCreateBody, OrgRenameBody, OrgTreeQuery, PickerOrg } from '../../../../schemas/org';
import type { Caller, ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { notFoundOrForeign } from '../../errors';
import * as svc from '../../services/orgs';
import { scopeTenant } from '../../services/tenants';

const tags = ['admin: orgs'];
const OrgParams = z.object({ org_id: z.string().describe('Organisation id') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * The organisation tree of a tenant (super admin or tenant admin). A tenant admin works in its own
 * tenant; a super admin in any (tenant_id on the tree and on a create under the root; otherwise the
 * organisation's own tenant). Counts (hasEmpNum) include disabled users here.
 */
export const adminOrgRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db } = ctx;
  const admin = (req: Parameters<typeof requirePermission>[0]) => requirePermission(req, 'orgs.manage');
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    admin(req);
  });
  /** An organisation the caller may change (a super admin: any tenant's). */
  const orgFor = (caller: Caller, orgId: string) => svc.orgOf(db, caller.role === 'super_admin' ? null : caller.tenantId, orgId);

  app.get(
    '/tree',
    {
      schema: {
        tags,
        summary: "The tenant's organisation tree (children nested, empList empty)",
        querystring: OrgTreeQuery,
        response: { 200: ok(z.array(PickerOrg)) },
      },
    },
    async (req) => {
      const tenantId = await scopeTenant(db, admin(req), req.query.tenant_id);
      return done(await svc.orgTree(db, tenantId, { enabledOnly: false }));
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create an organisation under parentId (null: under the root); names are unique among siblings',
        body: OrgCreateBody,
        response: { 200: ok(PickerOrg) },
      },
    },
    async (req) => {
      const caller = admin(req);
      const { name, parentId, tenant_id } = req.body;
      let tenantId: string;
      if (parentId) {
        tenantId = (await orgFor(caller, parentId)).tenantId;
        if (tenant_id && tenant_id !== tenantId) throw notFoundOrForeign('Organisation', parentId);
      } else {
        tenantId = await scopeTenant(db, caller, tenant_id);
      }
      const id = await svc.createOrg(db, tenantId, parentId, name);
      return done(await svc.adminOrgView(db, tenantId, id));
    },
  );

  app.put(
    '/:org_id',
    { schema: { tags, summary: 'Rename an organisation', params: OrgParams, body: OrgRenameBody, response: { 200: ok(PickerOrg) } } },
    async (req) => {
      const org = await orgFor(admin(req), req.params.org_id);
      await svc.renameOrg(db, org, req.body.name);
      return done(await svc.adminOrgView(db, org.tenantId, org.id));
    },
  );

  app.delete(
    '/:org_id',
    {
      schema: { tags, summary: 'Delete an organisation without sub-organisations or users (not the root)', params: OrgParams, response: { 200: ok(z.null()) } },
    },
    async (req) => {
      const org = await orgFor(admin(req), req.params.org_id);
      await svc.deleteOrg(db, org);
      return done(null);
    },
  );
};
