import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { useSession } from '../../src/app/session';
import DatasetTasksPage from '../../src/app/system/dataset/dataset-tasks-page';
import { KnowledgeApiContext } from '../../src/app/workspace/knowledge/knowledge-api';
import { createMemoryKnowledgeApi, type MemoryKnowledgeApi } from '../../src/app/workspace/knowledge/memory-knowledge-api';
import { Toaster } from '../../src/ui/toast';
import { superAdmin } from '../system/fake-system-api';

const meta = {
  title: 'System/Dataset tasks',
  loaders: [
    async () => {
      useSession.setState({ user: superAdmin, tenantId: DEFAULT_TENANT_ID, accessToken: 'story-token' });
      return {
        api: createMemoryKnowledgeApi({
          latencyMs: 60,
          advance: false,
          units: [
            { name: 'handbook.pdf', status: 'completed' },
            { name: 'pricing.docx', status: 'indexing', progress: 55 },
            { name: 'faq.txt', status: 'queued', queue_position: 1, progress: 0 },
            { name: 'scan.pdf', status: 'failed' },
          ],
        }),
      };
    },
  ],
  render: (_a, { loaded }) => (
    <KnowledgeApiContext value={loaded.api as MemoryKnowledgeApi}>
      <DatasetTasksPage />
      <Toaster />
    </KnowledgeApiContext>
  ),
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

export const Tasks: StoryObj = {
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('In queue, position 1', {}, { timeout: 3000 })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Cancel queued task' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Stop task' })).toBeVisible();
  },
};
