import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { ApiKeys } from '../../src/app/screens/app/api-tab/api-keys';
import { ApiTabApiContext, appKeys, type KeySource } from '../../src/app/screens/app/api-tab/api-tab-api';
import { createMemoryApiTabApi, type MemoryApiTabApi, type MemoryApiTabOptions } from '../../src/app/screens/app/api-tab/memory-api-tab-api';
import { Toaster } from '../../src/ui/toast';

/** The api tab's keys table on fixture data: masked keys, create (the secret shown once), revoke. */

type Args = MemoryApiTabOptions;

const meta = {
  title: 'App/API keys',
  loaders: [
    async ({ args }) => {
      const api = createMemoryApiTabApi({ latencyMs: 60, ...(args as Args) });
      return { api, source: appKeys(api, api.appId, api.workspaceId) };
    },
  ],
  render: (args, { loaded }) => {
    const api = loaded.api as MemoryApiTabApi;
    return (
      <ApiTabApiContext value={api}>
        <ApiKeys source={loaded.source as KeySource} canManage={(args.role ?? 'owner') !== 'ordinary_member'} />
        <Toaster />
      </ApiTabApiContext>
    );
  },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

export const Keys: Story = { args: {} };

/** Create a key: its secret is shown once, in a dialog only its own button closes; the list has it masked. */
export const CreateShowsSecretOnce: Story = {
  args: {},
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryApiTabApi;
    await canvas.findAllByTestId(/^key-row-/, {}, { timeout: 4000 });
    await userEvent.click(canvas.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByTestId('key-create-dialog');
    await userEvent.type(within(dialog).getByTestId('key-name'), 'Website help desk');
    await userEvent.click(within(dialog).getByTestId('key-create-submit'));
    const secret = await screen.findByTestId('key-secret', {}, { timeout: 4000 });
    await expect(secret).toHaveValue(api.secrets[0]);
    await userEvent.click(screen.getByTestId('key-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('key-secret-dialog')).toBeNull());
    await expect(document.body.innerHTML).not.toContain(api.secrets[0]);
    await waitFor(() => expect(canvas.getAllByTestId(/^key-row-/)[0]).toHaveTextContent('Website help desk'));
  },
};

export const Member: Story = { args: { role: 'ordinary_member' } };
export const Empty: Story = { args: { keys: 0 } };
export const LoadError: Story = { args: { listFails: true } };
export const Chinese: Story = { args: {}, globals: { locale: 'zh' } };
