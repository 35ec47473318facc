import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { SystemRole } from '../../../../schemas/auth';
import { AdminUser } from '../../../../schemas/user';
import { RoleAssignBody, RolesOverview, RolesQuery } from '../../../../schemas/role';
import type { ServerContext } from '../../context';
import { users } from '../../db/schema';
import { forgetCallers } from '../../auth';
import { permissionRules, requirePermission, roleMay } from '../../security/system-permissions';
import { scopeTenant } from '../../services/tenants';
import { adminUser, checkRoleChange, targetUser } from './users';

const tags = ['admin: roles'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const UserParams = z.object({ user_id: z.string().describe('User id') });

/**
 * System › Roles (spec 6 "Admin menus: role, user and tenant management"): the system roles, the
 * server's own rules of what each may do (the table the route guards read), how many users of a
 * tenant hold each, and assigning a role to one user. The holders themselves are GET /admin/users
 * with `role`. The same limits as the user form: a tenant admin works in its own tenant (another
 * tenant's user is VALIDATION-1000), never grants super_admin nor touches a super admin (403), and
 * nobody changes their own role.
 */
export const adminRoleRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db } = ctx;
  // Role first, so that a caller without it gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    requirePermission(req, 'roles.assign');
  });

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "The system roles, the permission rules the server enforces, and each role's holders in the caller's tenant (a super admin may pass tenant_id)",
        querystring: RolesQuery,
        response: { 200: ok(RolesOverview) },
      },
    },
    async (req) => {
      const caller = requirePermission(req, 'roles.assign');
      const tenantId = await scopeTenant(db, caller, req.query.tenant_id);
      const counts = await db
        .select({ role: users.role, n: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(users.tenantId, tenantId))
        .groupBy(users.role);
      const rules = permissionRules();
      return done({
        tenant_id: tenantId,
        roles: SystemRole.options.map((role) => ({
          role,
          holders: Number(counts.find((c) => c.role === role)?.n ?? 0),
          permissions: rules.filter((r) => r.roles.includes(role)).map((r) => r.key),
        })),
        permissions: rules,
        assignable: SystemRole.options.filter((r) => r !== 'super_admin' || roleMay(caller.role, 'roles.superAdmin')),
      });
    },
  );

  app.put(
    '/users/:user_id',
    {
      schema: {
        tags,
        summary: "Give one user a system role (their sessions keep going; the new role applies to their next request)",
        params: UserParams,
        body: RoleAssignBody,
        response: { 200: ok(AdminUser) },
      },
    },
    async (req) => {
      const caller = requirePermission(req, 'roles.assign');
      const u = await targetUser(db, caller, req.params.user_id, true);
      checkRoleChange(caller, u, req.body.role);
      if (u.role !== req.body.role) {
        await db.update(users).set({ role: req.body.role, updatedAt: new Date() }).where(and(eq(users.id, u.id), eq(users.tenantId, u.tenantId)));
        forgetCallers();
      }
      return done(await adminUser(db, u.id));
    },
  );
};
