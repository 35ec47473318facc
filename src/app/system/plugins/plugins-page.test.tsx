import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../../schemas/auth';
import type { InstalledPlugin } from '../../../../schemas/plugin-package';
import { ApiError } from '../../../api/request';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { useSession } from '../../session';
import { replaceExports } from '../../../../tests/unit/replace-exports';
import * as pluginsApi from '../../../api/plugins';
import PluginsPage from './plugins-page';

// The page's calls, answered as the server does (the plugins API module's functions are replaced).
const api = { listPlugins: vi.fn(), installPlugin: vi.fn(), upgradePlugin: vi.fn(), deletePlugin: vi.fn() };

beforeAll(async () => {
  replaceExports(pluginsApi, api);
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const plugin: InstalledPlugin = {
  id: 'weft.text-stats',
  name: 'Text statistics',
  version: '1.0.0',
  author: 'Weft',
  description: '',
  icon: 'whole-word',
  kinds: [{ kind: 'text-stats', version: 2 }],
  tools: [],
  min_weft_version: '0.1.0',
  checksum: 'a'.repeat(64),
  state: 'active',
  error: null,
  installed_by: 'admin',
  installed_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};

function setup(role: CurrentUser['role']) {
  useSession.setState({ user: { id: 'u1', username: 'admin', role, tenant_id: 't1' } as unknown as CurrentUser, tenantId: 't1', accessToken: 'x' });
  render(
    <MemoryRouter>
      <PluginsPage />
      <Toaster />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

describe('PluginsPage', () => {
  it('is for super admins only', async () => {
    setup('tenant_admin');
    expect(await screen.findByText('Only a super admin can manage plugins.')).toBeTruthy();
    expect(api.listPlugins).not.toHaveBeenCalled();
  });

  it('lists packages with their state and why a failed one does not run', async () => {
    api.listPlugins.mockResolvedValue([plugin, { ...plugin, id: 'acme.broken', name: 'Broken', state: 'failed', error: 'the server bundle throws' }]);
    setup('super_admin');
    const row = await screen.findByTestId('plugin-acme.broken');
    expect(row.textContent).toContain('Failed');
    expect(row.textContent).toContain('the server bundle throws');
    expect(screen.getByTestId('plugin-weft.text-stats').textContent).toContain('Active');
  });

  it('shows the catalogue message when an upload is refused', async () => {
    api.listPlugins.mockResolvedValue([]);
    api.installPlugin.mockRejectedValue(new ApiError({ status: 400, code: 'PLUGIN-1001', msg: 'checksum differs', data: null }));
    const user = setup('super_admin');
    await screen.findByText('No plugin is installed');
    await user.upload(screen.getByTestId('plugin-file'), new File([new Uint8Array([1, 2, 3])], 'x.tgz'));
    expect((await screen.findByTestId('plugin-error')).textContent).toContain('its bundles do not match the checksum');
  });

  it('turns a refused delete into the in-use warning, whose forced delete goes through', async () => {
    api.listPlugins.mockResolvedValue([plugin]);
    api.deletePlugin.mockImplementation(async (_id: string, force: boolean) => {
      if (!force) throw new ApiError({ status: 409, code: 'PLUGIN-1002', msg: 'in use', data: { usage: [{ app_id: 'a1', app_name: 'Stats app', kinds: ['text-stats'] }] } });
      return null;
    });
    const user = setup('super_admin');
    const row = await screen.findByTestId('plugin-weft.text-stats');
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByTestId('plugin-usage')).textContent).toContain('Stats app (text-stats)');
    expect(api.deletePlugin).toHaveBeenLastCalledWith('weft.text-stats', false, expect.anything());
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete anyway' }));
    await waitFor(() => expect(api.deletePlugin).toHaveBeenLastCalledWith('weft.text-stats', true, expect.anything()));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});
