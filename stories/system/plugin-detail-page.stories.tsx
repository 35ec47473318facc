import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import PluginDetailPage from '../../src/app/system/plugins/plugin-detail-page';
import { superAdmin, tenantAdmin } from './fake-system-api';
import { pluginPageLoader, withPluginPage, type PluginPageStoryParams } from './plugin-story';

/**
 * A plugin's detail (/operation/system/plugin/detail): its manifest, kinds and tools, the apps using
 * it, this tenant's credentials (the form drawn from its schema, the server's field issues under
 * their fields, the delete confirmation) and its version history.
 */
const meta = {
  title: 'System/Plugin detail page',
  component: PluginDetailPage,
  loaders: [pluginPageLoader],
  decorators: [withPluginPage],
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<typeof PluginDetailPage>;

export default meta;
type Story = StoryObj<typeof meta>;

const pluginPages = (p: PluginPageStoryParams = {}) => ({ pluginPages: { me: superAdmin, path: '/operation/system/plugin/detail?id=weft.signer', ...p } });
const credentials = async () => within(await screen.findByTestId('plugin-credentials', {}, { timeout: 3000 }));
const fieldError = (name: string) => screen.getByTestId('plugin-credentials').querySelector(`[data-field="${name}"] [data-slot="field-error"]`)?.textContent ?? null;
const input = (name: string) => screen.getByTestId('plugin-credentials').querySelector<HTMLInputElement>(`[data-field="${name}"] input`)!;

export const VersionHistory: Story = {
  parameters: pluginPages(),
  play: async ({ canvas }) => {
    const history = within(await canvas.findByTestId('plugin-history', {}, { timeout: 3000 }));
    const rows = history.getAllByRole('row').slice(1);
    await expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['1.2.0', '1.1.0', '1.0.0']);
    await expect(within(rows[2]).getByText('Installed')).toBeVisible();
    await expect(within(rows[1]).getByText('ops.li')).toBeVisible();
    await expect(canvas.getByTestId('plugin-usage-list')).toHaveTextContent('Contract signer (signer)');
  },
};

export const CredentialsForm: Story = {
  parameters: pluginPages(),
  play: async () => {
    const creds = await credentials();
    await expect(await creds.findByText('Not set')).toBeVisible();
    await expect(creds.getByRole('textbox', { name: /^Signature/ })).toBeVisible();
    await expect(input('api_key')).toBeVisible();
  },
};

/** The server refuses what the form let through: each issue shows under its own field. */
export const CredentialsRefusedByServer: Story = {
  parameters: pluginPages(),
  play: async () => {
    const creds = await credentials();
    await userEvent.type(await creds.findByRole('textbox', { name: /^Signature/ }), '<b>ACME</b>');
    await userEvent.type(input('api_key'), 'sk-123456');
    await userEvent.click(creds.getByRole('button', { name: 'Save credentials' }));
    await waitFor(() => expect(fieldError('api_key')).toBe('must be at least 12 characters'));
    await expect(fieldError('signature')).toBe('A signature may not hold markup');
    await expect(creds.getByText('Not set')).toBeVisible();
  },
};

export const CredentialsRefusedChinese: Story = {
  parameters: pluginPages(),
  globals: { locale: 'zh' },
  play: async () => {
    const creds = await credentials();
    await userEvent.type(await creds.findByRole('textbox', { name: /^签名/ }), 'ACME');
    await userEvent.type(input('api_key'), 'sk-123456');
    await userEvent.click(creds.getByRole('button', { name: '保存凭证' }));
    await waitFor(() => expect(fieldError('api_key')).toBe('长度不能少于 12'));
  },
};

export const DeleteCredentials: Story = {
  parameters: pluginPages({ fake: { credentialsSet: true } }),
  play: async () => {
    const creds = await credentials();
    await expect(await creds.findByText('Set')).toBeVisible();
    await expect(input('api_key')).toHaveValue('sk-a****6789');
    await userEvent.click(creds.getByRole('button', { name: 'Delete credentials' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    // Once the dialog's fade-in has run.
    await waitFor(() => expect(dialog.getByText("This tenant's nodes of this plugin will run without them.")).toBeVisible());
    await userEvent.click(dialog.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(creds.getByText('Not set')).toBeVisible());
  },
};

export const FailedToLoad: Story = {
  parameters: pluginPages({ fake: { failedPlugin: true } }),
  play: async ({ canvas }) => {
    const manifest = within(await canvas.findByTestId('plugin-manifest', {}, { timeout: 3000 }));
    await expect(manifest.getByText('Failed')).toBeVisible();
    await expect(manifest.getByText(/defines other kinds than the manifest lists/)).toBeVisible();
  },
};

export const TenantAdmin: Story = {
  parameters: pluginPages({ me: tenantAdmin }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('no-permission')).toBeVisible();
  },
};
