import { z } from 'zod';
import { SystemRole } from './auth';
import { Id } from './common';

/**
 * System roles and what each may do (spec 6; System › Roles). The rules are the server's own (the
 * route guards read the same table, src/server/security/system-permissions.ts): the client only
 * shows what GET /admin/roles answers.
 */

/** One rule: a permission key (its label is `roles:permissions.<key>` on screen), the roles holding it. */
export const SystemPermission = z.object({
  key: z.string(),
  /** Which admin menu it belongs to (grouping on screen). */
  area: z.enum(['system', 'users']),
  roles: z.array(SystemRole),
  /** `all_tenants`: the whole server; `own_tenant`: the caller's tenant. */
  scope: z.enum(['all_tenants', 'own_tenant']),
});
export type SystemPermission = z.infer<typeof SystemPermission>;

export const RoleSummary = z.object({
  role: SystemRole,
  /** Users of the tenant shown holding the role (super admins: every tenant). */
  holders: z.number().int(),
  /** Permission keys the role holds. */
  permissions: z.array(z.string()),
});
export type RoleSummary = z.infer<typeof RoleSummary>;

export const RolesOverview = z.object({
  tenant_id: Id,
  roles: z.array(RoleSummary),
  permissions: z.array(SystemPermission),
  /** Roles the caller may give (a tenant admin never gives super_admin). */
  assignable: z.array(SystemRole),
});
export type RolesOverview = z.infer<typeof RolesOverview>;

export const RolesQuery = z.object({ tenant_id: Id.optional() });

/** Assigning a role to one user (PUT /admin/roles/users/{user_id}). */
export const RoleAssignBody = z.object({ role: SystemRole }).strict();
export type RoleAssignBody = z.infer<typeof RoleAssignBody>;
