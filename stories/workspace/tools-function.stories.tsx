import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import type { MemberRole } from '../../schemas/workspace';
import { ToolApiContext } from '../../src/app/workspace/tools/tool-api';
import FunctionPage from '../../src/app/workspace/tools/function-page';
import { createMemoryToolApi, DEMO_FUNCTION_ID, DEMO_TOOL_IDS, demoToolOptions, type MemoryToolApi } from '../../src/app/workspace/tools/memory-tool-api';
import { ResourceStory } from './resource-story';

type Args = { role?: MemberRole; fresh?: boolean };

const meta = {
  title: 'Workspace/Tool function page',
  loaders: [async ({ args }) => ({ api: createMemoryToolApi(demoToolOptions({ role: (args as Args).role, latencyMs: 40 })) })],
  render: (args, { loaded }) => {
    const api = loaded.api as MemoryToolApi;
    const fn = (args as Args).fresh ? 'new' : DEMO_FUNCTION_ID;
    return (
      <ToolApiContext value={api}>
        <ResourceStory
          start={`/operation/workspace/${api.workspaceId}/tool/${DEMO_TOOL_IDS.weather}/capability/${fn}`}
          routes={[{ path: '/operation/workspace/:workspace_id/tool/:toolId/capability/:capabilityId', element: <FunctionPage /> }]}
        />
      </ToolApiContext>
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** An API-key function: the parameter tables, then a test call with a sample city. */
export const Existing: Story = {
  args: { role: 'owner' },
  play: async ({ canvas }) => {
    const panel = await canvas.findByTestId('function-test', {}, { timeout: 3000 });
    await userEvent.type(within(panel).getByRole('textbox', { name: /city/ }), 'Paris');
    await userEvent.click(within(panel).getByRole('button', { name: 'Test' }));
    await expect(await within(panel).findByTestId('function-test-body', {}, { timeout: 3000 })).toHaveTextContent('Paris');
    await expect(within(panel).getByText('Status 200')).toBeVisible();
  },
};

/** A new function: saving empty shows the required messages. */
export const NewFunction: Story = {
  args: { role: 'owner', fresh: true },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Save' }, { timeout: 3000 }));
    await expect((await canvas.findAllByText('This form field is required!')).length).toBeGreaterThan(0);
  },
};

export const ReadOnlyMember: Story = { args: { role: 'ordinary_member' } };
