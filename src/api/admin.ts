/**
 * ADMIN groups (spec 7.4; TEAM.md "ADMIN"): users, tenants (super admin only) and the organisation tree.
 * Only super admins and tenant admins reach the system area (guards.ts `systemGuard`).
 */
import { z } from 'zod';
import { page, type Status } from '../../schemas/common';
import { UpdatePasswordBody } from '../../schemas/auth';
import { OrgCreateBody, OrgRenameBody, OrgTreeQuery, PickerOrg } from '../../schemas/org';
import { Tenant, TenantCreateBody, TenantListQuery, TenantUpdateBody } from '../../schemas/tenant';
import { AdminSetPasswordBody, AdminUser, UserCreateBody, UserListQuery, UserUpdateBody } from '../../schemas/user';
import { NetworkPolicy, NetworkPolicyBody } from '../../schemas/network-policy';
import { RoleAssignBody, RolesOverview, RolesQuery } from '../../schemas/role';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/admin';
export const adminEndpoints = {
  listUsers: { method: 'GET', url: `${base}/users`, name: 'admin.users.list' },
  createUser: { method: 'POST', url: `${base}/users`, name: 'admin.users.create' },
  getUser: { method: 'GET', url: `${base}/users/:user_id`, name: 'admin.users.get' },
  updateUser: { method: 'PUT', url: `${base}/users/:user_id`, name: 'admin.users.update' },
  setUserStatus: { method: 'PUT', url: `${base}/users/:user_id/status`, name: 'admin.users.status' },
  setUserPassword: { method: 'PUT', url: `${base}/users/:user_id/password`, name: 'admin.users.password' },
  updateOwnPassword: { method: 'PUT', url: `${base}/users/password`, name: 'admin.users.ownPassword' },
  roles: { method: 'GET', url: `${base}/roles`, name: 'admin.roles.overview' },
  assignRole: { method: 'PUT', url: `${base}/roles/users/:user_id`, name: 'admin.roles.assign' },
  listTenants: { method: 'GET', url: `${base}/tenants`, name: 'admin.tenants.list' },
  createTenant: { method: 'POST', url: `${base}/tenants`, name: 'admin.tenants.create' },
  getTenant: { method: 'GET', url: `${base}/tenants/:tenant_id`, name: 'admin.tenants.get' },
  updateTenant: { method: 'PUT', url: `${base}/tenants/:tenant_id`, name: 'admin.tenants.update' },
  setTenantStatus: { method: 'PUT', url: `${base}/tenants/:tenant_id/status`, name: 'admin.tenants.status' },
  orgTree: { method: 'GET', url: `${base}/orgs/tree`, name: 'admin.orgs.tree' },
  createOrg: { method: 'POST', url: `${base}/orgs`, name: 'admin.orgs.create' },
  updateOrg: { method: 'PUT', url: `${base}/orgs/:org_id`, name: 'admin.orgs.update' },
  deleteOrg: { method: 'DELETE', url: `${base}/orgs/:org_id`, name: 'admin.orgs.delete' },
  getNetworkPolicy: { method: 'GET', url: `${base}/security/network-policy`, name: 'admin.security.networkPolicy' },
  saveNetworkPolicy: { method: 'PUT', url: `${base}/security/network-policy`, name: 'admin.security.saveNetworkPolicy' },
} as const satisfies Record<string, Endpoint>;

export type AdminUserListParams = Partial<z.infer<typeof UserListQuery>>;
export type TenantListParams = Partial<z.infer<typeof TenantListQuery>>;

// Users

/** Users (with their organisations) of the caller's tenant, newest first (a super admin may pass tenant_id). */
export const listAdminUsers = (q: AdminUserListParams = {}, opts?: Opts) => call(page(AdminUser), adminEndpoints.listUsers, q, opts);
/** Creates a user (org_ids: the first is the master; none: the root organisation). */
export const createAdminUser = (body: z.input<typeof UserCreateBody>, opts?: Opts) => call(AdminUser, adminEndpoints.createUser, body, opts);
export const getAdminUser = (user_id: string, opts?: Opts) => call(AdminUser, adminEndpoints.getUser, { user_id }, opts);
/** Changes a user's profile, role or organisations (fields left out stay). */
export const updateAdminUser = (user_id: string, body: z.input<typeof UserUpdateBody>, opts?: Opts) =>
  call(AdminUser, adminEndpoints.updateUser, { user_id, ...body }, opts);
/** Enables (1) or disables (0) a user; disabling ends their sessions at once. */
export const setAdminUserStatus = (user_id: string, status: Status, opts?: Opts) =>
  call(AdminUser, adminEndpoints.setUserStatus, { user_id, status }, opts);
/** Sets another user's password; their sessions end at once. */
export const setAdminUserPassword = (user_id: string, body: z.input<typeof AdminSetPasswordBody>, opts?: Opts) =>
  call(z.null(), adminEndpoints.setUserPassword, { user_id, ...body }, opts);
/** The system roles, the server's permission rules and each role's holders (a super admin may pass tenant_id). */
export const getRoles = (q: z.input<typeof RolesQuery> = {}, opts?: Opts) => call(RolesOverview, adminEndpoints.roles, q, opts);
/** Gives one user a system role (the user form's limits). */
export const assignRole = (user_id: string, body: RoleAssignBody, opts?: Opts) => call(AdminUser, adminEndpoints.assignRole, { user_id, ...body }, opts);
/** Changes the admin's own password. */
export const updateAdminOwnPassword = (body: z.input<typeof UpdatePasswordBody>, opts?: Opts) =>
  call(z.null(), adminEndpoints.updateOwnPassword, body, opts);

// Tenants (super admin only)

export const listTenants = (q: TenantListParams = {}, opts?: Opts) => call(page(Tenant), adminEndpoints.listTenants, q, opts);
/** Creates a tenant and its first tenant admin. */
export const createTenant = (body: z.input<typeof TenantCreateBody>, opts?: Opts) => call(Tenant, adminEndpoints.createTenant, body, opts);
export const getTenant = (tenant_id: string, opts?: Opts) => call(Tenant, adminEndpoints.getTenant, { tenant_id }, opts);
export const updateTenant = (tenant_id: string, body: z.input<typeof TenantUpdateBody>, opts?: Opts) =>
  call(Tenant, adminEndpoints.updateTenant, { tenant_id, ...body }, opts);
export const setTenantStatus = (tenant_id: string, status: Status, opts?: Opts) =>
  call(Tenant, adminEndpoints.setTenantStatus, { tenant_id, status }, opts);

// Organisation tree

/** The tenant's organisation tree (children nested, empList empty); a super admin may pass tenant_id. */
export const getOrgTree = (q: z.input<typeof OrgTreeQuery> = {}, opts?: Opts) => call(z.array(PickerOrg), adminEndpoints.orgTree, q, opts);
/** Creates an organisation under parentId (null: under the root). */
export const createOrg = (body: z.input<typeof OrgCreateBody>, opts?: Opts) => call(PickerOrg, adminEndpoints.createOrg, body, opts);
/** Renames an organisation. */
export const updateOrg = (org_id: string, body: z.input<typeof OrgRenameBody>, opts?: Opts) =>
  call(PickerOrg, adminEndpoints.updateOrg, { org_id, ...body }, opts);
/** Deletes an organisation (only when it has no users and no child organisations). */
export const deleteOrg = (org_id: string, opts?: Opts) => call(z.null(), adminEndpoints.deleteOrg, { org_id }, opts);

// Security (super admin only)

/** The outbound allow-list and the stdio MCP commands: the environment's (read-only) and the stored ones. */
export const getNetworkPolicy = (opts?: Opts) => call(NetworkPolicy, adminEndpoints.getNetworkPolicy, undefined, opts);
/** Replaces the stored lists (each entry checked; a wrong one answers VALIDATION-1000 naming it). */
export const saveNetworkPolicy = (body: NetworkPolicyBody, opts?: Opts) => call(NetworkPolicy, adminEndpoints.saveNetworkPolicy, body, opts);
