import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, within } from 'storybook/test';
import type { DatasetDocument } from '../../src/api/datasets-contract';
import { knowledgePaths } from '../../src/app/workspace/knowledge/knowledge-nav';
import { createMemoryKnowledgeApi, type MemoryKnowledgeApi } from '../../src/app/workspace/knowledge/memory-knowledge-api';
import { KnowledgeStory } from './knowledge-story';

type Args = { datasets?: number; units?: Partial<DatasetDocument>[]; listFails?: boolean; screen?: 'list' | 'units' | 'details' };

const UNITS: Partial<DatasetDocument>[] = [
  { name: 'handbook.pdf', file_type: 'pdf', status: 'completed', graph_status: 'enabled', segment_count: 24, qa_count: 3, hit_count: 17 },
  { name: 'pricing.docx', file_type: 'docx', status: 'indexing', progress: 40 },
  { name: 'faq.txt', file_type: 'txt', status: 'queued', queue_position: 2, progress: 0 },
  { name: 'scan.pdf', file_type: 'pdf', status: 'failed', error: 'The file has no text layer' },
  { name: 'notes.txt', file_type: 'txt', upload_status: 'uploading', status: 'waiting', progress: 60 },
];

const meta = {
  title: 'Workspace/Knowledge',
  loaders: [
    async ({ args }) => {
      const a = args as Args;
      return { api: createMemoryKnowledgeApi({ datasets: a.datasets, units: a.units ?? UNITS, listFails: a.listFails, latencyMs: 60, advance: false }) };
    },
  ],
  render: (args, { loaded }) => {
    const api = loaded.api as MemoryKnowledgeApi;
    const wsId = api.workspaceId;
    const ds = api.datasets[0]?.id ?? '';
    const start =
      args.screen === 'units' ? knowledgePaths.units(wsId, ds) : args.screen === 'details' ? knowledgePaths.details(wsId, ds, api.documents[0]?.id ?? '') : knowledgePaths.list(wsId);
    return <KnowledgeStory api={api} start={start} />;
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** The list: cards, then a new knowledge base whose name is checked first. */
export const List: Story = {
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Product manuals', {}, { timeout: 3000 })).toBeVisible();
    await userEvent.click(canvas.getByTestId('kb-create'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByTestId('kb-name'), 'Support FAQ');
    await userEvent.click(within(dialog).getByTestId('kb-save'));
    await expect(await within(dialog).findByText('This name is already used')).toBeVisible();
  },
};
export const EmptyList: Story = { args: { datasets: 0 } };
export const ListError: Story = { args: { listFails: true } };

/** Units in every state: done, vectorising, queued with position, failed, uploading. */
export const Units: Story = {
  args: { screen: 'units' },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('In queue, position 2', {}, { timeout: 3000 })).toBeVisible();
    await expect(canvas.getByText('Vectorising 40%')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Graph analysis of handbook.pdf' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Graph analysis of pricing.docx' })).not.toBeInTheDocument();
  },
};
export const NoUnits: Story = { args: { screen: 'units', units: [] } };

/** A unit's segments, Q&A pairs, hit test and graph. */
export const Details: Story = {
  args: { screen: 'details' },
  play: async ({ canvas }) => {
    await expect((await canvas.findAllByTestId('segment', {}, { timeout: 3000 })).length).toBeGreaterThan(0);
    await userEvent.click(canvas.getByTestId('details-tab-hit'));
    await userEvent.type(canvas.getByTestId('hit-query'), 'segments retrieval');
    await userEvent.click(canvas.getByTestId('hit-run'));
    await expect((await canvas.findAllByTestId('hit-result')).length).toBeGreaterThan(0);
  },
};

/** The Q&A screen's "Generate Q&A with AI": the task's state while it runs, then the generated pairs. */
export const QaGeneration: Story = {
  args: { screen: 'details' },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByTestId('details-tab-qa', {}, { timeout: 3000 }));
    await userEvent.click(await canvas.findByTestId('qa-generate'));
    await expect(await canvas.findByText('Generated', {}, { timeout: 8000 })).toBeVisible();
    await expect((await canvas.findAllByTestId('qa-pair')).length).toBe(2);
  },
};
