import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { useStudio, DEFAULT_TENANT_ID } from './harness';
import { ROOT_ORG_ID } from '../../schemas/common';
import { configureRequest } from '../../src/api/request';
import { getAppConfig, getDefaultTenant, listLoginTenants, getSwitchAppConfig } from '../../src/api/common';
import { refreshSession, signIn, signOut } from '../../src/api/auth';
import { getUserInfo, updateProfile } from '../../src/api/base';
import * as ws from '../../src/api/workspaces';
import * as users from '../../src/api/users';
import * as org from '../../src/api/org';
import * as admin from '../../src/api/admin';
import { useSession } from '../../src/app/session';

const h = useStudio();
beforeAll(async () => {
  await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.studio.app.server.address() as AddressInfo;
  configureRequest({ baseUrl: `http://127.0.0.1:${port}` });
});

it('the client endpoint functions parse the real answers', async () => {
  expect(await getAppConfig()).toMatchObject({ authMode: 'local', tokenRefreshLeewaySeconds: 5 });
  expect((await getDefaultTenant()).id).toBe(DEFAULT_TENANT_ID);
  expect((await listLoginTenants()).length).toBeGreaterThan(0);
  const me = await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'admin', password: 'Admin12345' });
  expect(me.role).toBe('super_admin');
  expect((await getUserInfo()).username).toBe('admin');
  expect((await updateProfile({ nickname: 'Boss' })).nickname).toBe('Boss');
  expect(await refreshSession()).toBe(true);
  expect((await getSwitchAppConfig()).map((e) => e.code)).toContain('system');

  const bob = await admin.createAdminUser({ username: 'bob', password: 'Passw0rd1', realName: 'Bob' });
  expect((await admin.listAdminUsers({ name: 'bob' })).items[0].id).toBe(bob.id);
  expect((await admin.getAdminUser(bob.id)).username).toBe('bob');
  expect((await admin.updateAdminUser(bob.id, { nickname: 'B' })).nickname).toBe('B');
  expect((await admin.setAdminUserStatus(bob.id, 1)).status).toBe(1);
  expect(await admin.setAdminUserPassword(bob.id, { password: 'Passw0rd2' })).toBeNull();
  expect((await admin.getNetworkPolicy()).stored).toEqual({ allow: [], mcp_stdio_commands: [] });
  expect((await admin.saveNetworkPolicy({ allow: ['10.0.0.0/8'], mcp_stdio_commands: [] })).stored.allow).toEqual(['10.0.0.0/8']);
  expect((await admin.saveNetworkPolicy({ allow: [], mcp_stdio_commands: [] })).updated_by).toBe('admin');

  const w = await ws.createWorkspace({ name: 'Alpha' });
  expect((await ws.listWorkspaces()).items.map((x) => x.id)).toContain(w.id);
  expect((await ws.getWorkspace(w.id)).name).toBe('Alpha');
  expect((await ws.updateWorkspace({ id: w.id, description: 'd' })).description).toBe('d');
  const [m] = await ws.addMembers(w.id, { user_ids: [bob.id], role: 'ordinary_member' });
  expect((await ws.listMembers(w.id, { role: 'ordinary_member' })).items).toHaveLength(1);
  expect((await ws.updateMember(w.id, m.id, { role: 'admin' })).role).toBe('admin');
  expect((await ws.transferWorkspace({ workspace_id: w.id, member_id: m.id })).role_type).toBe('admin');
  await expect(ws.deleteWorkspace(w.id, { reaction: 'silent' })).rejects.toMatchObject({ status: 403 });
  expect(await ws.exitWorkspace(w.id)).toBeNull();

  expect((await users.listUsers({ name: 'bob' })).items[0].id).toBe(bob.id);
  expect((await users.usersByIds({ userIds: [bob.id] }))[0].id).toBe(bob.id);
  const ou = await users.orgsWithUsers({ orgId: ROOT_ORG_ID });
  expect(ou.users.total).toBeGreaterThan(0);
  expect((await users.searchOrgsAndUsers({ nameLike: 'bob' })).users.items[0].id).toBe(bob.id);
  const tree = await org.orgTreeList();
  const root = tree[0];
  expect(await users.usersEnsureStatus({ orgUsers: [{ orgId: root.id, userIds: [bob.id] }] })).toHaveProperty([root.id]);
  expect((await org.searchOrgs({ nameLike: 'bob' })).users.total).toBe(1);
  expect((await org.orgWithUsersById({ orgId: root.id })).id).toBe(root.id);
  expect((await org.orgsByIds({ orgIds: [root.id] }))[0].id).toBe(root.id);
  expect((await org.pickerUsersByIds({ userIds: [bob.id] }))[0].id).toBe(bob.id);

  const t = await admin.createTenant({ name: 'Acme', admin_username: 'acme', password: 'Passw0rd1' });
  expect((await admin.listTenants({ name: 'Acme' })).items[0].id).toBe(t.id);
  expect((await admin.getTenant(t.id)).name).toBe('Acme');
  expect((await admin.updateTenant(t.id, { name: 'Acme 2' })).name).toBe('Acme 2');
  expect((await admin.setTenantStatus(t.id, 0)).status).toBe(0);
  const o = await admin.createOrg({ name: 'Sales', parentId: null });
  expect((await admin.updateOrg(o.id, { name: 'Sales 2' })).name).toBe('Sales 2');
  expect((await admin.getOrgTree()).length).toBeGreaterThan(0);
  expect(await admin.deleteOrg(o.id)).toBeNull();

  await signOut();
  expect(useSession.getState().accessToken).toBeNull();
});

afterAll(() => undefined);
