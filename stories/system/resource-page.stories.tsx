import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import ResourcePage from '../../src/app/system/resource/resource-page';
import { superAdmin, tenantAdmin } from './fake-system-api';
import { pluginPageLoader, withPluginPage, type PluginPageStoryParams } from './plugin-story';

/** System › Resources (/operation/system/resource): the server's figures, super admins only. */
const meta = {
  title: 'System/Resources page',
  component: ResourcePage,
  loaders: [pluginPageLoader],
  decorators: [withPluginPage],
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<typeof ResourcePage>;

export default meta;
type Story = StoryObj<typeof meta>;

const pluginPages = (p: PluginPageStoryParams) => ({ pluginPages: { me: superAdmin, path: '/operation/system/resource', ...p } });

export const SuperAdmin: Story = {
  parameters: pluginPages({}),
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('resource-database', {}, { timeout: 3000 })).toHaveTextContent('174.0 MB');
    await expect(canvas.getByTestId('resource-database')).toHaveTextContent('Embedded (PGlite)');
    await expect(canvas.getByTestId('resource-queue')).toHaveTextContent('Queued 12 · running 2 · failed 1');
    await expect(canvas.getByTestId('resource-providers')).toHaveTextContent('openai (3 tenants)');
    await expect(canvas.getByTestId('resource-plugins')).toHaveTextContent('Installed 2 · active 1 · failed 1');
    await expect(canvas.getByTestId('resource-uptime')).toHaveTextContent('3d 4h 3m');
  },
};

export const Chinese: Story = {
  parameters: pluginPages({}),
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('resource-sandbox', {}, { timeout: 3000 })).toHaveTextContent('运行 1 / 4 · 等待 0');
    await expect(canvas.getByTestId('resource-files')).toHaveTextContent('1284 个文件');
  },
};

export const LoadFailed: Story = {
  parameters: pluginPages({ fake: { fail: true } }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('button', { name: 'Retry' }, { timeout: 3000 })).toBeVisible();
    await expect(canvas.getByTestId('resource-refresh')).toBeVisible();
  },
};

export const TenantAdmin: Story = {
  parameters: pluginPages({ me: tenantAdmin }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('no-permission')).toBeVisible();
  },
};
