import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import ToolsPage from '../../src/app/system/tools/tools-page';
import { superAdmin, tenantAdmin } from './fake-system-api';
import { pluginPageLoader, withPluginPage, type PluginPageStoryParams } from './plugin-story';

/** System › Tools (/operation/system/tool): built-in tools and installed plugins' tools, with their credentials state. */
const meta = {
  title: 'System/Tools page',
  component: ToolsPage,
  loaders: [pluginPageLoader],
  decorators: [withPluginPage],
  parameters: { layout: 'fullscreen', pluginPages: { path: '/operation/system/tool' } satisfies PluginPageStoryParams },
  globals: { locale: 'en' },
} satisfies Meta<typeof ToolsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

const pluginPages = (p: PluginPageStoryParams) => ({ pluginPages: { path: '/operation/system/tool', ...p } });

export const TenantAdmin: Story = {
  parameters: pluginPages({ me: tenantAdmin }),
  play: async ({ canvas }) => {
    const table = await canvas.findByTestId('system-tools', {}, { timeout: 3000 });
    await expect(within(table).getAllByRole('row')).toHaveLength(5);
    const sign = within(canvas.getByTestId('tool-row-weft.signer/sign_text'));
    await expect(sign.getByText('Plugin Signer 1.2.0')).toBeVisible();
    await expect(sign.getByText('Not set')).toBeVisible();
    await expect(within(canvas.getByTestId('tool-row-builtin/calculator')).getByText('None needed')).toBeVisible();
  },
};

export const CredentialsSet: Story = {
  parameters: pluginPages({ me: superAdmin, fake: { credentialsSet: true } }),
  play: async ({ canvas }) => {
    const row = await canvas.findByTestId('tool-row-weft.signer/sign_text', {}, { timeout: 3000 });
    await expect(within(row).getByText('Set')).toBeVisible();
  },
};

export const Chinese: Story = {
  parameters: pluginPages({}),
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    const row = await canvas.findByTestId('tool-row-builtin/calculator', {}, { timeout: 3000 });
    await expect(within(row).getByText('计算器：计算算术表达式')).toBeVisible();
    await expect(within(canvas.getByTestId('tool-row-weft.signer/sign_text')).getByText('未设置')).toBeVisible();
  },
};

export const Loading: Story = {
  parameters: pluginPages({ fake: { hang: true } }),
  play: async ({ canvas }) => {
    // The list's spinner says it by its label (role status), not by text.
    await expect(await canvas.findByRole('status', { name: 'Loading…' })).toBeVisible();
  },
};

export const LoadFailed: Story = {
  parameters: pluginPages({ fake: { fail: true } }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('button', { name: 'Retry' }, { timeout: 3000 })).toBeVisible();
  },
};

export const User: Story = {
  parameters: pluginPages({ me: { ...tenantAdmin, role: 'user' } }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('no-permission')).toBeVisible();
  },
};
