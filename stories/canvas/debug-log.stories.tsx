import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, within } from 'storybook/test';
import { LogApiContext } from '../../src/app/screens/app/log-api';
import LogPage from '../../src/app/screens/app/log-page';
import { createMemoryLogApi, type MemoryLogApi } from '../../src/app/screens/app/memory-log-api';
import { Toaster } from '../../src/ui/toast';

/** The app's log tab on fixture data: runs over the last months, conversations, traces with an iteration. */

type Args = { type: 'chatflow' | 'workflow'; runs?: number; listFails?: boolean };

const meta = {
  title: 'Canvas/App log',
  loaders: [
    async ({ args }) => ({
      api: createMemoryLogApi({ runs: (args as Args).runs ?? 30, conversations: 5, latencyMs: 60, listFails: (args as Args).listFails, mode: (args as Args).type }),
    }),
  ],
  render: (args, { loaded }) => {
    const api = loaded.api as MemoryLogApi;
    return (
      <LogApiContext value={api}>
        <LogPage app={{ id: api.appId, workspace_id: api.workspaceId, type: (args as Args).type }} />
        <Toaster />
      </LogApiContext>
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** Chat app: all time, open the newest run on its trace. */
export const ChatApp: Story = {
  args: { type: 'chatflow' },
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('radio', { name: 'All time' }));
    const rows = await canvas.findAllByTestId(/^run-row-/, {}, { timeout: 4000 });
    await userEvent.click(within(rows[0]).getByRole('button', { name: 'View' }));
    const sheet = await screen.findByTestId('run-sheet');
    await expect(await within(sheet).findByTestId('trace-item-iteration')).toBeInTheDocument();
  },
};

/** Workflow app: each run's inputs and outputs (a workflow has no question or reply), its source and version. */
export const WorkflowApp: Story = {
  args: { type: 'workflow' },
  play: async ({ canvas }) => {
    const rows = await canvas.findAllByTestId(/^run-row-/, {}, { timeout: 4000 });
    await expect(within(rows[0]).getByTestId('run-inputs')).toHaveTextContent('topic: topic 1');
    await expect(within(rows[0]).getByTestId('run-source')).toHaveTextContent('Debug');
  },
};
export const Empty: Story = { args: { type: 'chatflow', runs: 0 } };
export const LoadError: Story = { args: { type: 'chatflow', listFails: true } };
