import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import type { FlowMode } from '../../schemas/flow';
import type { LogPeriod } from '../../schemas/run-api';
import { ChartCard } from '../../src/app/screens/app/overview/chart-card';
import { createMemoryOverviewApi, fixtureOverview, type MemoryOverviewOptions } from '../../src/app/screens/app/overview/memory-overview-api';
import { chartsFor } from '../../src/app/screens/app/overview/metrics';
import { OverviewApiContext } from '../../src/app/screens/app/overview/overview-api';
import OverviewPage from '../../src/app/screens/app/overview/overview-page';

/** The overview tab on fixture figures: chart cards drawn by ECharts in the design tokens' colours. */

type PageArgs = MemoryOverviewOptions & { mode: FlowMode };

const meta = {
  title: 'App/Overview',
  args: { mode: 'chatflow' },
  loaders: [async ({ args }) => ({ api: createMemoryOverviewApi({ latencyMs: 60, ...(args as PageArgs) }) })],
  render: ({ mode }, { loaded }) => (
    <OverviewApiContext value={loaded.api as ReturnType<typeof createMemoryOverviewApi>}>
      <OverviewPage app={{ id: 'a1', workspace_id: 'w1', type: mode }} timeZone="Asia/Shanghai" />
    </OverviewApiContext>
  ),
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<PageArgs>;
export default meta;
type Story = StoryObj<PageArgs>;

/** A chat app over the past 7 days; switching to 30 days redraws every chart. */
export const ChatApp: Story = {
  play: async ({ canvas }) => {
    await canvas.findByTestId('chart-card-conversations', {}, { timeout: 4000 });
    // ECharts drew SVG into the box.
    await waitFor(() => expect(canvas.getByTestId('chart-messages').querySelector('svg')).not.toBeNull());
    await userEvent.click(canvas.getByRole('radio', { name: 'Past 30 days' }));
    await waitFor(() => expect(canvas.getByTestId('overview-page').querySelector('[data-period="30d"]')).not.toBeNull());
  },
};
export const Workflow: Story = { args: { mode: 'workflow' } };
export const Empty: Story = { args: { empty: true } };
export const LoadError: Story = { args: { fails: true } };
export const Dark: Story = { globals: { theme: 'dark' } };
export const Chinese: Story = { globals: { locale: 'zh' } };

/** One chart card alone (the latency card: two series, a legend, both totals). */
export const LatencyCard: StoryObj<{ period: LogPeriod }> = {
  args: { period: '30d' },
  render: ({ period }) => (
    <div style={{ maxWidth: 560 }}>
      <ChartCard spec={chartsFor('chatflow').find((c) => c.id === 'latency')!} overview={fixtureOverview(period)} locale="en" />
    </div>
  ),
  parameters: { layout: 'padded' },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByTestId('chart-latency').querySelectorAll('path').length).toBeGreaterThan(2));
    await expect(canvas.getByTestId('total-latency')).toHaveTextContent('·');
  },
};
