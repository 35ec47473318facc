import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser, SystemRole } from '../../../../schemas/auth';
import type { AdminUser } from '../../../../schemas/user';
import { ApiError } from '../../../api/request';
import { i18n, initI18n } from '../../../i18n';
import { permissionRules } from '../../../server/security/system-permission-rules';
import { Toaster } from '../../../ui/toast';
import { setToasts } from '../../../ui/toast-store';
import { useSession } from '../../session';
import { SystemApiProvider, type SystemApi } from '../users/system-api';
import RolesPage from './roles-page';

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
beforeEach(() => setToasts([]));
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const T = '00000000-0000-4000-8000-00000000000a';
const user = (id: string, username: string, role: SystemRole): AdminUser => ({
  id,
  tenant_id: T,
  username,
  nickname: '',
  realName: '',
  email: '',
  phone: '',
  avatar: '',
  serial_number: '',
  role,
  status: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  orgs: [],
});

/** The page's calls over a few users, with the server's rules table and its role limits. */
function fakeApi(me: CurrentUser) {
  const users = [user('u-root', 'root', 'super_admin'), user(me.id, me.username, me.role), user('u-bob', 'bob', 'user')];
  const assigned: [string, SystemRole][] = [];
  const api: Partial<SystemApi> = {
    getRoles: async () => ({
      tenant_id: T,
      roles: (['super_admin', 'tenant_admin', 'user'] as const).map((role) => ({
        role,
        holders: users.filter((u) => u.role === role).length,
        permissions: permissionRules().filter((r) => r.roles.includes(role)).map((r) => r.key),
      })),
      permissions: permissionRules(),
      assignable: me.role === 'super_admin' ? ['super_admin', 'tenant_admin', 'user'] : ['tenant_admin', 'user'],
    }),
    listUsers: async (q) => {
      const items = users.filter((u) => !q.role || u.role === q.role);
      return { items: structuredClone(items), total: items.length, page: 1, page_size: 20 };
    },
    listTenants: async () => ({ items: [], total: 0, page: 1, page_size: 1000 }),
    assignRole: async (id, role) => {
      if (role === 'super_admin' && me.role !== 'super_admin') throw new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'no' });
      assigned.push([id, role]);
      const u = users.find((x) => x.id === id)!;
      u.role = role;
      return structuredClone(u);
    },
  };
  return { api, assigned };
}

function setup(role: SystemRole) {
  const me = { id: 'u-me', username: 'me', role, tenant_id: T } as CurrentUser;
  useSession.setState({ user: me, tenantId: T, accessToken: 'x' });
  const fake = fakeApi(me);
  render(
    <SystemApiProvider api={fake.api}>
      <RolesPage />
      <Toaster />
    </SystemApiProvider>,
  );
  return { ...fake, ui: userEvent.setup() };
}

describe('RolesPage', () => {
  it('shows every rule the server serves, ticked for the roles holding it, and the holders per role', async () => {
    setup('tenant_admin');
    const matrix = await screen.findByRole('table', { name: 'What each role may do' });
    const rules = permissionRules();
    for (const rule of rules) {
      const label = i18n.t(`roles:permissions.${rule.key}` as 'roles:permissions.tenants.manage');
      expect(label, rule.key).not.toContain('permissions');
      const row = within(matrix).getByText(label).closest('tr')!;
      // Columns: permission, scope, super admin, tenant admin, user.
      const marks = within(row).getAllByRole('img').map((m) => m.getAttribute('aria-label'));
      expect(marks, rule.key).toEqual((['super_admin', 'tenant_admin', 'user'] as const).map((r) => (rule.roles.includes(r) ? 'Allowed' : 'Not allowed')));
    }
    expect(within(matrix).getByText('Manage tenants')).toBeInTheDocument();
    expect(within(screen.getByTestId('role-cards')).getAllByText('1 user')).toHaveLength(3);
  });

  it('gives a role after a confirmation; a tenant admin cannot give super admin nor change a super admin or itself', async () => {
    const { assigned, ui } = setup('tenant_admin');
    const holders = await screen.findByTestId('role-holders');
    await waitFor(() => expect(within(holders).getAllByRole('row')).toHaveLength(4));
    expect(within(holders).getByRole('combobox', { name: 'Role of root' })).toBeDisabled();
    expect(within(holders).getByRole('combobox', { name: 'Role of me' })).toBeDisabled();
    await ui.click(within(holders).getByRole('combobox', { name: 'Role of bob' }));
    expect(await screen.findByRole('option', { name: 'Super admin' })).toHaveAttribute('aria-disabled', 'true');
    await ui.click(screen.getByRole('option', { name: 'Tenant admin' }));
    await ui.click(await screen.findByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(assigned).toEqual([['u-bob', 'tenant_admin']]));
    expect(await screen.findByText('bob now has the role "Tenant admin"')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId('role-cards')).getByText('2 users')).toBeInTheDocument());
  });

  it('offers super admin to a super admin', async () => {
    const { ui } = setup('super_admin');
    const holders = await screen.findByTestId('role-holders');
    await waitFor(() => expect(within(holders).getByRole('combobox', { name: 'Role of bob' })).toBeEnabled());
    await ui.click(within(holders).getByRole('combobox', { name: 'Role of bob' }));
    expect(await screen.findByRole('option', { name: 'Super admin' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('says no to a plain user', async () => {
    setup('user');
    expect(await screen.findByTestId('no-permission')).toBeInTheDocument();
  });
});
