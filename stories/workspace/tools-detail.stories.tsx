import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { MemberRole } from '../../schemas/workspace';
import { ToolApiContext } from '../../src/app/workspace/tools/tool-api';
import ToolDetailPage from '../../src/app/workspace/tools/tool-detail-page';
import { createMemoryToolApi, DEMO_TOOL_IDS, demoToolOptions, type MemoryToolApi } from '../../src/app/workspace/tools/memory-tool-api';
import { ResourceStory } from './resource-story';

type Args = { role?: MemberRole; tool: keyof typeof DEMO_TOOL_IDS; mcpFails?: string };

const meta = {
  title: 'Workspace/Tool detail page',
  args: { tool: 'weather' },
  loaders: [async ({ args }) => ({ api: createMemoryToolApi(demoToolOptions({ role: (args as Args).role, mcpFails: (args as Args).mcpFails, latencyMs: 40 })) })],
  render: (args, { loaded }) => {
    const api = loaded.api as MemoryToolApi;
    return (
      <ToolApiContext value={api}>
        <ResourceStory
          start={`/operation/workspace/${api.workspaceId}/tool/${DEMO_TOOL_IDS[(args as Args).tool]}`}
          routes={[{ path: '/operation/workspace/:workspace_id/tool/:toolId', element: <ToolDetailPage /> }]}
        />
      </ToolApiContext>
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A custom tool: its functions; publishing adds version 1. */
export const CustomTool: Story = {
  args: { role: 'owner', tool: 'weather' },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('link', { name: 'get_weather' }, { timeout: 3000 })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish the tool' }, { timeout: 3000 });
    await userEvent.type(within(dialog).getByRole('textbox'), 'First release');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await expect(await within(canvas.getByTestId('tool-versions')).findByText('First release', {}, { timeout: 3000 })).toBeVisible();
  },
};

/** An MCP server: its tools listed live, each with a switch. */
export const McpServer: Story = {
  args: { role: 'owner', tool: 'mcp' },
  play: async ({ canvas }) => {
    const sw = await canvas.findByRole('switch', { name: /write_file/ }, { timeout: 3000 });
    await expect(sw).not.toBeChecked();
    // The switches stay disabled until the caller's role is known.
    await waitFor(() => expect(sw).toBeEnabled(), { timeout: 3000 });
    await userEvent.click(sw);
    await waitFor(() => expect(canvas.getByRole('switch', { name: /write_file/ })).toBeChecked(), { timeout: 3000 });
  },
};

export const McpUnreachable: Story = { args: { tool: 'mcp', mcpFails: 'Could not connect to the MCP server at the command "npx": spawn npx ENOENT' } };
export const WorkflowTool: Story = { args: { tool: 'workflow' } };
export const OrdinaryMember: Story = { args: { role: 'ordinary_member', tool: 'weather' } };
