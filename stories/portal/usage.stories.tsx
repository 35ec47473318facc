import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { UsageRecord } from '../../schemas/portal';
import { createMemoryPortalApi, demoPortalApps, memoryId } from '../../src/app/portal/memory-portal-api';
import { PortalApiContext } from '../../src/app/portal/portal-api';
import { UsageRecords } from '../../src/app/portal/usage/usage-records';

const apps = demoPortalApps(3);
const records: UsageRecord[] = Array.from({ length: 23 }, (_, i) => ({
  id: memoryId('8'),
  app_id: apps[i % 3].id,
  app_name: apps[i % 3].name,
  app_mode: apps[i % 3].mode,
  source: i % 5 === 0 ? 'api' : 'portal',
  conversation_id: null,
  status: i % 7 === 0 ? 'failed' : 'succeeded',
  query: apps[i % 3].mode === 'workflow' ? '' : `Question number ${i + 1}`,
  usage: { promptTokens: 100 + i, completionTokens: 200, totalTokens: 300 + i },
  elapsed_ms: 1200,
  created_at: new Date(Date.UTC(2025, 2, 1, 9, i)).toISOString(),
}));

const meta = {
  title: 'Portal/Usage records',
  render: () => (
    <PortalApiContext value={createMemoryPortalApi({ apps, usage: records })}>
      <div style={{ maxWidth: 900 }}>
        <UsageRecords />
      </div>
    </PortalApiContext>
  ),
  globals: { locale: 'en' },
} satisfies Meta;

export default meta;

/** 10 a page: app, source, question, status, tokens, time; the pager. */
export const Records: StoryObj = {
  play: async ({ canvas }) => {
    const table = await canvas.findByTestId('usage-records', {}, { timeout: 3000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(11));
    await expect(within(table).getAllByText('Portal').length).toBeGreaterThan(0);
    await expect(within(table).getByText('300')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
  },
};
