import type { SystemRole } from '../../../schemas/auth';
import type { SystemPermission } from '../../../schemas/role';

/**
 * What each system role may do (spec 6): the one table the admin routes' guards read
 * ({@link requirePermission}) and that System › Roles shows (GET /admin/roles), so the page cannot
 * drift from what is enforced. `scope`: `all_tenants` rules act on the whole server; `own_tenant`
 * ones on the caller's tenant only (a super admin may name another tenant where a call takes one).
 *
 * A route adds its guard here first, then calls `requirePermission(req, '<key>')` (./system-permissions.ts).
 * No runtime imports: in-memory fakes of the client's tests and stories read the same table.
 */
export const SYSTEM_PERMISSIONS = {
  /** /admin/models: model providers, credentials and the tenant's default models. */
  'models.manage': { area: 'system', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** /admin/store: review store submissions (release, reject, take offline). */
  'store.review': { area: 'system', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** /admin/store/plugins/publish: publish an installed plugin package to the plugin store. */
  'store.publishPlugin': { area: 'system', roles: ['super_admin'], scope: 'all_tenants' },
  /** /admin/plugins: install, upgrade and delete plugin packages (their code runs in the server). */
  'plugins.manage': { area: 'system', roles: ['super_admin'], scope: 'all_tenants' },
  /** /console/plugins/{id}/credentials: a plugin's credentials for the tenant. */
  'plugins.credentials': { area: 'system', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** /admin/datasets/management: knowledge tasks (stop, take out of the queue). */
  'datasetTasks.manage': { area: 'system', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** /admin/tools: built-in and plugin tools and their credentials. */
  'tools.manage': { area: 'system', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** /admin/users: create users, change their profile, status and password. */
  'users.manage': { area: 'users', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** /admin/orgs: the organisation tree the person picker shows. */
  'orgs.manage': { area: 'users', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** /admin/roles: see the roles and their holders, assign tenant_admin and user. */
  'roles.assign': { area: 'users', roles: ['super_admin', 'tenant_admin'], scope: 'own_tenant' },
  /** Grant, change or take away the super_admin role (users and roles). */
  'roles.superAdmin': { area: 'users', roles: ['super_admin'], scope: 'all_tenants' },
  /** /admin/tenants: create, change, enable and disable tenants. */
  'tenants.manage': { area: 'system', roles: ['super_admin'], scope: 'all_tenants' },
  /** /admin/security: the outbound network allow-list and stdio MCP commands. */
  'security.manage': { area: 'system', roles: ['super_admin'], scope: 'all_tenants' },
  /** /admin/system/resource: sizes, queues and load of the whole server. */
  'resource.view': { area: 'system', roles: ['super_admin'], scope: 'all_tenants' },
} as const satisfies Record<string, Omit<SystemPermission, 'key'>>;

export type SystemPermissionKey = keyof typeof SYSTEM_PERMISSIONS;

/** Whether a role holds a permission. */
export function roleMay(role: SystemRole, key: SystemPermissionKey): boolean {
  return (SYSTEM_PERMISSIONS[key].roles as readonly SystemRole[]).includes(role);
}

/** The rules as data, in the table's order (GET /admin/roles). */
export function permissionRules(): SystemPermission[] {
  return Object.entries(SYSTEM_PERMISSIONS).map(([key, rule]) => ({ key, area: rule.area, roles: [...rule.roles], scope: rule.scope }));
}
