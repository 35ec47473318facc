import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, within } from 'storybook/test';
import type { MemberRole } from '../../schemas/workspace';
import { ToolApiContext } from '../../src/app/workspace/tools/tool-api';
import ToolsPage from '../../src/app/workspace/tools/tools-page';
import ToolDetailPage from '../../src/app/workspace/tools/tool-detail-page';
import { createMemoryToolApi, demoToolOptions, type MemoryToolApi } from '../../src/app/workspace/tools/memory-tool-api';
import { ResourceStory } from './resource-story';

type Args = { role?: MemberRole; empty?: boolean; listFails?: boolean };

const meta = {
  title: 'Workspace/Tools page',
  loaders: [
    async ({ args }) => {
      const a = args as Args;
      return { api: createMemoryToolApi(a.empty ? { role: a.role, listFails: a.listFails } : demoToolOptions({ role: a.role, latencyMs: 40, listFails: a.listFails })) };
    },
  ],
  render: (_a, { loaded }) => {
    const api = loaded.api as MemoryToolApi;
    const base = '/operation/workspace/:workspace_id/tool';
    return (
      <ToolApiContext value={api}>
        <ResourceStory
          start={`/operation/workspace/${api.workspaceId}/tool`}
          routes={[
            { path: base, element: <ToolsPage /> },
            { path: `${base}/:toolId`, element: <ToolDetailPage /> },
          ]}
        />
      </ToolApiContext>
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** Owner: the list with its counts, then a custom tool made by hand opens its detail page. */
export const Owner: Story = {
  args: { role: 'owner' },
  play: async ({ canvas }) => {
    const row = await canvas.findByRole('row', { name: /Weather API/ }, { timeout: 3000 });
    await expect(within(row).getByText('Custom')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: /New tool/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Create by hand' }));
    const dialog = await screen.findByRole('dialog', { name: 'New custom tool' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expect(await within(dialog).findByText('This form field is required!')).toBeVisible();
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await userEvent.type(name, 'Stock quotes');
    await expect(name).toHaveValue('Stock quotes');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expect(await canvas.findByRole('heading', { name: /Stock quotes/ }, { timeout: 3000 })).toBeVisible();
  },
};

export const OrdinaryMember: Story = {
  args: { role: 'ordinary_member' },
  play: async ({ canvas }) => {
    await canvas.findByRole('row', { name: /Weather API/ }, { timeout: 3000 });
    await expect(canvas.queryByRole('button', { name: /New tool/ })).not.toBeInTheDocument();
  },
};

export const Empty: Story = { args: { empty: true } };
export const LoadError: Story = { args: { listFails: true, empty: true } };
