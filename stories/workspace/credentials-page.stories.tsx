import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { MemberRole } from '../../schemas/workspace';
import { CredentialApiContext } from '../../src/app/workspace/credentials/credential-api';
import CredentialsPage from '../../src/app/workspace/credentials/credentials-page';
import { createMemoryCredentialApi, type MemoryCredentialApi } from '../../src/app/workspace/credentials/memory-credential-api';
import { ResourceStory } from './resource-story';

type Args = { role?: MemberRole; count?: number; listFails?: boolean };

const meta = {
  title: 'Workspace/Credentials page',
  loaders: [
    async ({ args }) => {
      const a = args as Args;
      const seed = Array.from({ length: a.count ?? 3 }, (_, i) => ({
        identifier: ['payments', 'maps', 'sms-gateway'][i] ?? `service-${i + 1}`,
        ak: `AK${1000 + i}`,
        sk: i % 2 ? 'short' : `sk-live-${'x'.repeat(12)}${i}`,
        cred_id: i % 3 ? '' : `app-${i}`,
        description: i === 0 ? 'Stripe live keys' : '',
      }));
      return { api: createMemoryCredentialApi({ role: a.role, seed, latencyMs: 60, listFails: a.listFails }) };
    },
  ],
  render: (_a, { loaded }) => {
    const api = loaded.api as MemoryCredentialApi;
    const path = `/operation/workspace/${api.workspaceId}/certificate`;
    return (
      <ResourceStory
        start={path}
        routes={[{ path: '/operation/workspace/:workspace_id/certificate', element: <CredentialApiContext value={api}><CredentialsPage /></CredentialApiContext> }]}
      />
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** Owner: reveal an SK, then add a credential. */
export const Owner: Story = {
  args: { role: 'owner' },
  play: async ({ canvas }) => {
    const row = await canvas.findByRole('row', { name: /payments/ }, { timeout: 3000 });
    await userEvent.click(within(row).getByRole('button', { name: 'Show SK' }));
    await waitFor(() => expect(within(row).getByTestId('credential-sk')).toHaveTextContent('sk-live-'));
    await userEvent.click(canvas.getByRole('button', { name: 'New credential' }));
    const dialog = await screen.findByRole('dialog', { name: 'New credential' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Identifier/ }), 'weather');
    await userEvent.type(within(dialog).getByLabelText(/^SK/), 'k-123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expect(await canvas.findByRole('row', { name: /weather/ }, { timeout: 3000 })).toBeVisible();
  },
};

export const OrdinaryMember: Story = {
  args: { role: 'ordinary_member' },
  play: async ({ canvas }) => {
    await canvas.findByRole('row', { name: /payments/ }, { timeout: 3000 });
    await expect(canvas.queryByRole('button', { name: 'Show SK' })).not.toBeInTheDocument();
  },
};

export const Empty: Story = { args: { count: 0 } };
export const ManyRows: Story = { args: { count: 45 } };
export const LoadError: Story = { args: { listFails: true } };
