import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent } from 'storybook/test';
import type { MemberRole } from '../../schemas/workspace';
import { createMemoryPromptApi, type MemoryPromptApi } from '../../src/app/workspace/prompts/memory-prompt-api';
import PromptAddPage from '../../src/app/workspace/prompts/prompt-add-page';
import { PromptApiContext } from '../../src/app/workspace/prompts/prompt-api';
import PromptsPage from '../../src/app/workspace/prompts/prompts-page';
import { ResourceStory } from './resource-story';

type Args = { role?: MemberRole; empty?: boolean; start?: 'list' | 'add' | 'edit' };

const meta = {
  title: 'Workspace/Prompts page',
  loaders: [
    async ({ args }) => {
      const a = args as Args;
      const seed = a.empty
        ? []
        : [
            { name: 'support reply', description: 'Answers customer questions', tags: ['support', 'en'], template_type: 'jinja2' as const, scene: 'retrieval_chain' as const, content: 'Use {{ context }} to answer {{ question }}', variables: [{ name: 'context', description: 'retrieved text', default: '' }, { name: 'question', description: '', default: '' }] },
            { name: 'summary', tags: ['report'], content: 'Summarise {text} in {words} words' },
          ];
      return { api: createMemoryPromptApi({ role: a.role, seed, latencyMs: 60 }) };
    },
  ],
  render: (args, { loaded }) => {
    const api = loaded.api as MemoryPromptApi;
    const base = `/operation/workspace/${api.workspaceId}`;
    const start = args.start === 'add' ? `${base}/prompt-add` : args.start === 'edit' ? `${base}/prompt-add/${api.stored[0]?.id}` : `${base}/prompt`;
    const wrap = (el: React.ReactNode) => <PromptApiContext value={api}>{el}</PromptApiContext>;
    return (
      <ResourceStory
        start={start}
        routes={[
          { path: '/operation/workspace/:workspace_id/prompt', element: wrap(<PromptsPage />) },
          { path: '/operation/workspace/:workspace_id/prompt-add/:promptId?', element: wrap(<PromptAddPage />) },
        ]}
      />
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

export const List: Story = {
  args: { role: 'owner' },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('row', { name: /support reply/ }, { timeout: 3000 })).toBeVisible();
  },
};

export const AddPrompt: Story = {
  args: { role: 'owner', start: 'add' },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Save' }, { timeout: 3000 }));
    await expect((await canvas.findAllByText('This form field is required!')).length).toBe(2);
  },
};

export const EditPrompt: Story = { args: { role: 'owner', start: 'edit' } };
export const Empty: Story = { args: { role: 'owner', empty: true } };
