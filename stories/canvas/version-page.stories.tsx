import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { createMemoryVersionApi, type MemoryVersionApi, type MemoryVersionOptions } from '../../src/app/screens/app/memory-version-api';
import { VersionApiContext } from '../../src/app/screens/app/version-api';
import VersionPage from '../../src/app/screens/app/version-page';
import { Toaster } from '../../src/ui/toast';

/** The app editor's version tab on fixture data: published versions, publish, delete, restore into the draft. */

type Args = MemoryVersionOptions;

const meta = {
  title: 'Canvas/App versions',
  loaders: [async ({ args }) => ({ api: createMemoryVersionApi({ latencyMs: 60, ...(args as Args) }) })],
  render: (_args, { loaded }) => {
    const api = loaded.api as MemoryVersionApi;
    return (
      <VersionApiContext value={api}>
        <VersionPage app={{ id: api.appId, workspace_id: api.workspaceId, type: 'workflow' }} />
        <Toaster />
      </VersionApiContext>
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** Publish the next version (v1.0.3 is suggested after v1.0.2). */
export const Publish: Story = {
  args: {},
  play: async ({ canvas }) => {
    await canvas.findAllByTestId(/^version-row-/, {}, { timeout: 4000 });
    await userEvent.click(canvas.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByTestId('publish-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('publish-version')).toHaveValue('v1.0.3'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(canvas.getAllByTestId(/^version-row-/)[0]).toHaveTextContent('v1.0.3'), { timeout: 4000 });
  },
};

/** The draft cannot run: the dialog lists the problems. */
export const DraftCannotRun: Story = {
  args: { draftInvalid: true },
  play: async ({ canvas }) => {
    await canvas.findAllByTestId(/^version-row-/, {}, { timeout: 4000 });
    await userEvent.click(canvas.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByTestId('publish-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('publish-version')).toHaveValue('v1.0.3'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await expect(await within(dialog).findByTestId('publish-problems', {}, { timeout: 4000 })).toHaveTextContent('node/lost');
  },
};

/** Someone saved the draft after the page loaded it: restoring asks before overwriting. */
export const RestoreConflict: Story = {
  args: { concurrentSave: true },
  play: async ({ canvas }) => {
    const rows = await canvas.findAllByTestId(/^version-row-/, {}, { timeout: 4000 });
    await canvas.findByTestId('draft-line', {}, { timeout: 4000 });
    await userEvent.click(within(rows[1]).getByRole('button', { name: 'Restore to draft' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Restore to draft' }));
    await expect(await screen.findByRole('alertdialog', { name: 'Someone else changed the draft' }, { timeout: 4000 })).toBeInTheDocument();
  },
};

export const Member: Story = { args: { role: 'ordinary_member' } };
export const Empty: Story = { args: { versions: 0 } };
export const LoadError: Story = { args: { listFails: true } };
