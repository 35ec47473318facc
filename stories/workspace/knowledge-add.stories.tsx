import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { knowledgePaths } from '../../src/app/workspace/knowledge/knowledge-nav';
import { createMemoryKnowledgeApi, type MemoryKnowledgeApi } from '../../src/app/workspace/knowledge/memory-knowledge-api';
import { KnowledgeStory } from './knowledge-story';

type Args = { step: 'text' | 'url' | 'table' | 'slice' };

const meta = {
  title: 'Workspace/Knowledge add',
  loaders: [async () => ({ api: createMemoryKnowledgeApi({ latencyMs: 120 }) })],
  render: (args, { loaded }) => {
    const api = loaded.api as MemoryKnowledgeApi;
    const ws = api.workspaceId;
    const ds = api.datasets[0]!.id;
    const start =
      args.step === 'table'
        ? knowledgePaths.addTable(ws, ds)
        : args.step === 'slice'
          ? knowledgePaths.slice(ws, ds, { kind: 'text', file_ids: ['f-1'] })
          : knowledgePaths.add(ws, ds, args.step === 'url' ? 'url' : 'text');
    return <KnowledgeStory api={api} start={start} />;
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** Text files: a wrong type and a duplicate name are refused with their messages; a good file uploads. */
export const TextFiles: Story = {
  args: { step: 'text' },
  play: async ({ canvas }) => {
    // Picking waits for the names of the base's units (the duplicate rule).
    await waitFor(() => expect(canvas.getByTestId('upload-browse')).toBeEnabled());
    const input = canvas.getByTestId('upload-input') as HTMLInputElement;
    await userEvent.upload(input, [new File(['x'], 'virus.exe'), new File(['hello'], 'guide.pdf'), new File(['hello'], 'notes.txt')], { applyAccept: false });
    await expect(await canvas.findByText(/Unsupported file type/)).toBeVisible();
    await expect(await canvas.findByText('A file of this name is already in the knowledge base')).toBeVisible();
    await expect(await canvas.findByText('Upload success', {}, { timeout: 3000 })).toBeVisible();
  },
};
export const WebPage: Story = { args: { step: 'url' } };
export const TableFile: Story = {
  args: { step: 'table' },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByTestId('upload-browse')).toBeEnabled());
    await userEvent.upload(canvas.getByTestId('upload-input') as HTMLInputElement, new File(['a,b'], 'prices.csv'));
    await expect(await canvas.findByText('Price', {}, { timeout: 3000 })).toBeVisible();
  },
};
/** Segmentation: the preview follows the settings; an overlap over the length is refused. */
export const Segmentation: Story = {
  args: { step: 'slice' },
  play: async ({ canvas }) => {
    await expect((await canvas.findAllByTestId('preview-segment', {}, { timeout: 3000 })).length).toBeGreaterThan(0);
    const overlap = canvas.getByLabelText(/^Segment overlap/);
    await userEvent.clear(overlap);
    await userEvent.type(overlap, '900');
    await expect(await canvas.findByText('The overlap must be less than the maximum length')).toBeVisible();
  },
};
