import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createMemoryPromptApi, type MemoryPromptApi } from '../../src/app/workspace/prompts/memory-prompt-api';
import PromptAddPage from '../../src/app/workspace/prompts/prompt-add-page';
import { PromptApiContext } from '../../src/app/workspace/prompts/prompt-api';
import { ResourceStory } from './resource-story';

type Args = { noModels?: boolean };

/** The prompt edit page with its debug panel (in-memory API: the answer streams word by word). */
const meta = {
  title: 'Workspace/Prompt debug panel',
  loaders: [
    async ({ args }) => {
      const a = args as Args;
      const api = createMemoryPromptApi({
        latencyMs: 40,
        debugDelayMs: 120,
        debugChunks: 'Here is a short, friendly answer about the topic you asked for.'.split(/(?<= )/),
        models: a.noModels ? [] : undefined,
        questions: ['What can you do?', 'Explain it to a child', 'Give me three examples'],
        seed: [
          {
            name: 'support reply',
            content: 'You help {customer} with {topic}. Answer briefly.',
            variables: [
              { name: 'customer', description: 'who asks', default: 'Ada' },
              { name: 'topic', description: '', default: 'billing' },
            ],
            model: { provider: 'openai', name: 'gpt-4o-mini' },
          },
        ],
      });
      return { api };
    },
  ],
  render: (_args, { loaded }) => {
    const api = loaded.api as MemoryPromptApi;
    const start = `/operation/workspace/${api.workspaceId}/prompt-add/${api.stored[0].id}`;
    return (
      <ResourceStory
        start={start}
        routes={[{ path: '/operation/workspace/:workspace_id/prompt-add/:promptId?', element: <PromptApiContext value={api}><PromptAddPage /></PromptApiContext> }]}
      />
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

export const Run: Story = {
  play: async ({ canvas }) => {
    const panel = within(await canvas.findByTestId('prompt-debug-panel', {}, { timeout: 3000 }));
    // Run is off until the model list has loaded: a click before it would do nothing.
    const run = await panel.findByRole('button', { name: 'Run' }, { timeout: 3000 });
    await waitFor(() => expect(run).toBeEnabled(), { timeout: 3000 });
    await userEvent.click(run);
    await expect(await panel.findByText(/Tokens:/, {}, { timeout: 5000 })).toBeVisible();
  },
};

export const NoModels: Story = {
  args: { noModels: true },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/No chat model is configured/, {}, { timeout: 3000 })).toBeVisible();
  },
};
