import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import ToolDetailPage from '../../src/app/system/tools/tool-detail-page';
import { tenantAdmin } from './fake-system-api';
import { pluginPageLoader, withPluginPage, type PluginPageStoryParams } from './plugin-story';

/** A tool's detail: its facts, its arguments' JSON Schema and, for a plugin tool, its plugin's credentials for this tenant. */
const meta = {
  title: 'System/Tool detail page',
  component: ToolDetailPage,
  loaders: [pluginPageLoader],
  decorators: [withPluginPage],
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<typeof ToolDetailPage>;

export default meta;
type Story = StoryObj<typeof meta>;

const at = (toolId: string, p: PluginPageStoryParams = {}) => ({ pluginPages: { me: tenantAdmin, path: `/operation/system/tool/detail?id=${encodeURIComponent(toolId)}`, ...p } });

export const PluginTool: Story = {
  parameters: at('weft.signer/sign_text'),
  play: async ({ canvas }) => {
    const facts = within(await canvas.findByTestId('tool-facts', {}, { timeout: 3000 }));
    await expect(facts.getByRole('link', { name: 'Plugin Signer 1.2.0' })).toBeVisible();
    await expect(canvas.getByText(/"required": \[/)).toBeVisible();
    const creds = within(canvas.getByTestId('tool-credentials'));
    // The credentials card loads its set after the facts.
    await expect(await creds.findByText('Not set', {}, { timeout: 3000 })).toBeVisible();
    // Saved through PUT /admin/tools/credentials: the badge turns to Set, the key comes back masked.
    await userEvent.type(creds.getByRole('textbox', { name: /^Signature/ }), 'ACME');
    const key = canvas.getByTestId('tool-credentials').querySelector<HTMLInputElement>('[data-field="api_key"] input')!;
    await userEvent.type(key, 'sk-acme-0123456789');
    await userEvent.click(creds.getByRole('button', { name: 'Save credentials' }));
    await waitFor(() => expect(creds.getByText('Set')).toBeVisible());
    await waitFor(() => expect(canvas.getByTestId('tool-credentials').querySelector<HTMLInputElement>('[data-field="api_key"] input')!.value).toBe('sk-a****6789'));
  },
};

export const BuiltinTool: Story = {
  parameters: at('builtin/calculator'),
  play: async ({ canvas }) => {
    const facts = within(await canvas.findByTestId('tool-facts', {}, { timeout: 3000 }));
    await expect(facts.getByText('Built-in')).toBeVisible();
    await expect(facts.getByText('None needed')).toBeVisible();
    await expect(canvas.queryByTestId('tool-credentials')).toBeNull();
  },
};

export const Chinese: Story = {
  parameters: at('weft.signer/sign_text', { fake: { credentialsSet: true } }),
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    const creds = within(await canvas.findByTestId('tool-credentials', {}, { timeout: 3000 }));
    await expect(await creds.findByText('已设置')).toBeVisible();
    await expect(creds.getByRole('button', { name: '删除凭证' })).toBeVisible();
  },
};
