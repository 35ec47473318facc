/**
 * The calls the system screens make (users, tenants, organisation tree, security), handed down by context so
 * that stories and tests can give in-memory fakes; the default is the real API (src/api/admin.ts).
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { z } from 'zod';
import type { Status } from '../../../../schemas/common';
import type { OrgCreateBody, OrgRenameBody, PickerOrg } from '../../../../schemas/org';
import type { Tenant, TenantCreateBody, TenantUpdateBody } from '../../../../schemas/tenant';
import type { NetworkPolicy, NetworkPolicyBody } from '../../../../schemas/network-policy';
import type { AdminSetPasswordBody, AdminUser, UserCreateBody, UserUpdateBody } from '../../../../schemas/user';
import type { RolesOverview } from '../../../../schemas/role';
import type { SystemRole } from '../../../../schemas/auth';
import * as admin from '../../../api/admin';

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

/** Only what a screen passes; the real functions take more options. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface SystemApi {
  listUsers(q: admin.AdminUserListParams, opts?: CallOptions): Promise<Page<AdminUser>>;
  createUser(body: z.input<typeof UserCreateBody>): Promise<AdminUser>;
  updateUser(userId: string, body: z.input<typeof UserUpdateBody>): Promise<AdminUser>;
  setUserStatus(userId: string, status: Status): Promise<AdminUser>;
  setUserPassword(userId: string, body: z.input<typeof AdminSetPasswordBody>): Promise<null>;
  getRoles(q: { tenant_id?: string }, opts?: CallOptions): Promise<RolesOverview>;
  assignRole(userId: string, role: SystemRole): Promise<AdminUser>;
  listTenants(q: admin.TenantListParams, opts?: CallOptions): Promise<Page<Tenant>>;
  createTenant(body: z.input<typeof TenantCreateBody>): Promise<Tenant>;
  updateTenant(tenantId: string, body: z.input<typeof TenantUpdateBody>): Promise<Tenant>;
  setTenantStatus(tenantId: string, status: Status): Promise<Tenant>;
  orgTree(q: { tenant_id?: string }, opts?: CallOptions): Promise<PickerOrg[]>;
  createOrg(body: z.input<typeof OrgCreateBody>): Promise<PickerOrg>;
  renameOrg(orgId: string, body: z.input<typeof OrgRenameBody>): Promise<PickerOrg>;
  deleteOrg(orgId: string): Promise<null>;
  getNetworkPolicy(opts?: CallOptions): Promise<NetworkPolicy>;
  saveNetworkPolicy(body: NetworkPolicyBody): Promise<NetworkPolicy>;
}

export const realSystemApi: SystemApi = {
  listUsers: (q, opts) => admin.listAdminUsers(q, opts),
  createUser: (b) => admin.createAdminUser(b),
  updateUser: (id, b) => admin.updateAdminUser(id, b),
  setUserStatus: (id, s) => admin.setAdminUserStatus(id, s),
  setUserPassword: (id, b) => admin.setAdminUserPassword(id, b),
  getRoles: (q, opts) => admin.getRoles(q, opts),
  assignRole: (id, role) => admin.assignRole(id, { role }),
  listTenants: (q, opts) => admin.listTenants(q, opts),
  createTenant: (b) => admin.createTenant(b),
  updateTenant: (id, b) => admin.updateTenant(id, b),
  setTenantStatus: (id, s) => admin.setTenantStatus(id, s),
  orgTree: (q, opts) => admin.getOrgTree(q, opts),
  createOrg: (b) => admin.createOrg(b),
  renameOrg: (id, b) => admin.updateOrg(id, b),
  deleteOrg: (id) => admin.deleteOrg(id),
  getNetworkPolicy: (opts) => admin.getNetworkPolicy(opts),
  // Field errors are shown on the form: no toast of its own.
  saveNetworkPolicy: (b) => admin.saveNetworkPolicy(b, { reaction: 'silent' }),
};

const SystemApiContext = createContext<SystemApi>(realSystemApi);

/**
 * Replaces some or all calls of the system screens below it.
 * @example <SystemApiProvider api={fake}><UsersPage /></SystemApiProvider>
 */
export function SystemApiProvider({ api, children }: { api: Partial<SystemApi>; children: ReactNode }) {
  const value = useMemo(() => ({ ...realSystemApi, ...api }), [api]);
  return <SystemApiContext.Provider value={value}>{children}</SystemApiContext.Provider>;
}

export const useSystemApi = () => useContext(SystemApiContext);
