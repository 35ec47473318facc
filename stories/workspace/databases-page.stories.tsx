import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, within } from 'storybook/test';
import type { MemberRole } from '../../schemas/workspace';
import { DatabaseApiContext } from '../../src/app/workspace/databases/database-api';
import DatabasesPage from '../../src/app/workspace/databases/databases-page';
import { createMemoryDatabaseApi, type MemoryDatabaseApi } from '../../src/app/workspace/databases/memory-database-api';
import { ResourceStory } from './resource-story';

type Args = { role?: MemberRole; empty?: boolean; listFails?: boolean };

const meta = {
  title: 'Workspace/Databases page',
  loaders: [
    async ({ args }) => {
      const a = args as Args;
      const seed = a.empty
        ? []
        : [
            { name: 'orders', type: 'mysql' as const, host: 'db1.internal', port: 3306 },
            { name: 'ledger', type: 'oracle' as const, host: '10.0.0.7', port: 1521, database: '', sid: 'ORCL', status: 'failed' as const, status_code: 'auth_failed' as const, status_message: 'Authentication failed for user "fin"' },
            { name: 'events', type: 'clickhouse' as const, host: 'ch.internal', port: 8123, status: 'detecting' as const, status_message: '' },
          ];
      return { api: createMemoryDatabaseApi({ role: a.role, seed, latencyMs: 60, listFails: a.listFails }) };
    },
  ],
  render: (_a, { loaded }) => {
    const api = loaded.api as MemoryDatabaseApi;
    return (
      <ResourceStory
        start={`/operation/workspace/${api.workspaceId}/database`}
        routes={[{ path: '/operation/workspace/:workspace_id/database', element: <DatabaseApiContext value={api}><DatabasesPage /></DatabaseApiContext> }]}
      />
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** Owner: the connection check fails with the server's message. */
export const CheckConnection: Story = {
  args: { role: 'owner' },
  play: async ({ canvas }) => {
    await canvas.findByRole('row', { name: /orders/ }, { timeout: 3000 });
    await userEvent.click(canvas.getByRole('button', { name: 'Add database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add database' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Host/ }), 'db.internal');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Account/ }), 'weft');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'nope');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check connection' }));
    await expect(await within(dialog).findByTestId('database-check-result', {}, { timeout: 3000 })).toHaveTextContent('Wrong account or password');
  },
};

export const OrdinaryMember: Story = { args: { role: 'ordinary_member' } };
export const Empty: Story = { args: { empty: true } };
export const LoadError: Story = { args: { listFails: true } };
