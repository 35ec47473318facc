import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import NetworkPolicyPage from '../../src/app/system/security/network-policy-page';
import { tenantAdmin } from './fake-system-api';
import { systemLoader, withSystemApi, type SystemStoryParams } from './system-story';

const meta = {
  title: 'System/Security page',
  component: NetworkPolicyPage,
  loaders: [systemLoader],
  decorators: [withSystemApi],
  parameters: { layout: 'fullscreen', system: {} satisfies SystemStoryParams },
  globals: { locale: 'en' },
} satisfies Meta<typeof NetworkPolicyPage>;

export default meta;
type Story = StoryObj<typeof meta>;

const system = (p: SystemStoryParams) => ({ system: p });
const loaded = () => screen.findByRole('textbox', { name: 'Allowed destinations' }, { timeout: 3000 });

export const SuperAdmin: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await expect(await loaded()).toHaveValue('db.corp.local:1521');
    await expect(canvas.getByTestId('env-allow')).toHaveTextContent('10.20.0.0/16');
    await expect(canvas.getByTestId('env-commands')).toHaveTextContent('/opt/mcp/bin/files-server');
  },
};

export const WrongEntry: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await userEvent.type(await loaded(), '\nhttp://intranet');
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(canvas.getByText(/^Line 2 \(http:\/\/intranet\)/)).toBeVisible());
  },
};

export const Chinese: Story = {
  parameters: system({}),
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    await screen.findByRole('textbox', { name: '允许的目标' }, { timeout: 3000 });
    await expect(canvas.getByRole('heading', { name: 'stdio MCP 服务' })).toBeVisible();
  },
};

export const TenantAdmin: Story = {
  parameters: system({ me: tenantAdmin }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('no-permission')).toBeVisible();
  },
};
