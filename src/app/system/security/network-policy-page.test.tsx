import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../../schemas/auth';
import { NetworkPolicyBody, type NetworkPolicy } from '../../../../schemas/network-policy';
import { ApiError } from '../../../api/request';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { useSession } from '../../session';
import { SystemApiProvider, type SystemApi } from '../users/system-api';
import NetworkPolicyPage from './network-policy-page';

beforeAll(async () => {
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

/** The two calls of the page, checking the body as the server does. */
function fakeApi(allowPrivate = false) {
  let policy: NetworkPolicy = {
    env: { allow: ['127.0.0.1:11434'], mcp_stdio_commands: ['/opt/mcp/bin/files'], allow_private: allowPrivate },
    stored: { allow: ['db.corp.local:1521'], mcp_stdio_commands: [] },
    updated_at: null,
    updated_by: null,
  };
  const saved: unknown[] = [];
  const api: Partial<SystemApi> = {
    getNetworkPolicy: async () => policy,
    saveNetworkPolicy: async (body) => {
      saved.push(body);
      const parsed = NetworkPolicyBody.safeParse(body);
      if (!parsed.success) {
        throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error', data: parsed.error.issues.map((i) => ({ path: `body/${i.path.join('/')}`, message: i.message })) });
      }
      policy = { ...policy, stored: parsed.data, updated_at: '2026-11-20T10:00:00.000Z', updated_by: 'admin' };
      return policy;
    },
  };
  return { api, saved };
}

function setup(role: CurrentUser['role'], allowPrivate = false) {
  useSession.setState({ user: { id: 'u1', username: 'admin', role, tenant_id: 't1' } as unknown as CurrentUser, tenantId: 't1', accessToken: 'x' });
  const fake = fakeApi(allowPrivate);
  render(
    <SystemApiProvider api={fake.api}>
      <NetworkPolicyPage />
      <Toaster />
    </SystemApiProvider>,
  );
  return { ...fake, user: userEvent.setup() };
}

describe('NetworkPolicyPage', () => {
  it('shows the environment lists read-only beside the stored ones, and saves edited lists', async () => {
    const { saved, user } = setup('super_admin');
    const allow = await screen.findByRole('textbox', { name: 'Allowed destinations' });
    expect(allow).toHaveValue('db.corp.local:1521');
    expect(screen.getByTestId('env-allow')).toHaveTextContent('127.0.0.1:11434');
    expect(screen.getByTestId('env-commands')).toHaveTextContent('/opt/mcp/bin/files');
    expect(screen.queryByText(/WEFT_HTTP_ALLOW_PRIVATE is set/)).toBeNull();
    await user.clear(allow);
    await user.type(allow, 'db.corp.local:1521\n\n  10.20.0.0/16  ');
    await user.type(screen.getByRole('textbox', { name: 'Allowed commands' }), '/opt/mcp/bin/git-server');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Security settings saved: they apply now');
    expect(saved.at(-1)).toEqual({ allow: ['db.corp.local:1521', '10.20.0.0/16'], mcp_stdio_commands: ['/opt/mcp/bin/git-server'] });
    expect(screen.getByText(/Last saved by admin/)).toBeInTheDocument();
  });

  it('names the wrong line of each list and saves nothing', async () => {
    const { user } = setup('super_admin');
    const allow = await screen.findByRole('textbox', { name: 'Allowed destinations' });
    await user.type(allow, '\n10.0.0.0/33');
    await user.type(screen.getByRole('textbox', { name: 'Allowed commands' }), 'node --inspect');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByText(/Line 2 \(10\.0\.0\.0\/33\): The prefix length \/33 is longer than 32/)).toBeInTheDocument());
    expect(screen.getByText(/Line 1 \(node --inspect\): One command name or path/)).toBeInTheDocument();
    expect(allow).toHaveAttribute('aria-invalid', 'true');
  });

  it('warns about the deprecated switch, and is for super admins only', async () => {
    setup('super_admin', true);
    expect(await screen.findByText(/WEFT_HTTP_ALLOW_PRIVATE is set \(deprecated\)/)).toBeInTheDocument();
    cleanup();
    setup('tenant_admin');
    expect(await screen.findByTestId('no-permission')).toHaveTextContent('Only a super admin can change the security settings.');
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
