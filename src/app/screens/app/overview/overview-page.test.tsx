import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../../i18n';
import { chartsFor, dayValue, formatFigure, isEmptyOverview, rateAxisMax } from './metrics';
import { createMemoryOverviewApi, fixtureOverview, type MemoryOverviewOptions } from './memory-overview-api';
import { OverviewApiContext } from './overview-api';
import OverviewPage from './overview-page';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

// jsdom has no canvas, which ECharts measures text with: the charts are drawn in Chromium (the stories
// and tests/e2e/app-api.test.ts); here each is a box naming its series and days.
vi.mock('./overview-chart', () => ({
  OverviewChart: ({ spec, days, names }: { spec: { id: string }; days: { date: string }[]; names: string[] }) => (
    <div data-testid={`chart-${spec.id}`} data-days={days.length}>
      {names.join(',')}
    </div>
  ),
}));

function setup(opts: MemoryOverviewOptions = {}, type: 'workflow' | 'chatflow' = 'chatflow') {
  const api = createMemoryOverviewApi(opts);
  render(
    <OverviewApiContext value={api}>
      <OverviewPage app={{ id: 'a1', workspace_id: 'w1', type }} timeZone="Asia/Shanghai" />
    </OverviewApiContext>,
  );
  return { api, user: userEvent.setup() };
}

describe('overview figures', () => {
  it('reads counts, latency and rates in the UI language', () => {
    expect(formatFigure(12345, 'count', 'en')).toBe('12,345');
    expect(formatFigure(1_234_567, 'count', 'en')).toBe('1.2M');
    expect(formatFigure(640.4, 'ms', 'en')).toBe('640 ms');
    expect(formatFigure(1530, 'ms', 'en')).toBe('1.53 s');
    expect(formatFigure(0.125, 'percent', 'en')).toBe('12.5%');
    expect(formatFigure(0.0042, 'percent', 'en')).toBe('0.42%');
  });

  it('draws conversations and messages for chat apps, runs for workflows', () => {
    expect(chartsFor('chatflow').map((c) => c.id)).toEqual(['conversations', 'messages', 'activeUsers', 'tokens', 'latency', 'errorRate']);
    expect(chartsFor('workflow').map((c) => c.id)).toEqual(['runs', 'activeUsers', 'tokens', 'latency', 'errorRate']);
    expect(isEmptyOverview(fixtureOverview('7d', { empty: true }).totals)).toBe(true);
    expect(isEmptyOverview(fixtureOverview('7d').totals)).toBe(false);
  });
});

describe('chart values', () => {
  it('leaves a gap for latency and error rate on days without runs, and counts zero there', () => {
    const [latency] = chartsFor('workflow').filter((c) => c.id === 'latency');
    const [runs] = chartsFor('workflow');
    const quiet = fixtureOverview('7d', { empty: true }).days[0];
    expect(dayValue(latency, quiet, 'avg_latency_ms')).toBeNull();
    expect(dayValue(runs, quiet, 'runs')).toBe(0);
    const busy = fixtureOverview('7d').days[0];
    expect(dayValue(latency, busy, 'p95_latency_ms')).toBe(busy.p95_latency_ms);
  });

  it('tops a rate axis at 1%, 2%, 5%… 100%', () => {
    expect(rateAxisMax(0)).toBe(0.01);
    expect(rateAxisMax(0.013)).toBe(0.02);
    expect(rateAxisMax(0.3)).toBe(0.5);
    expect(rateAxisMax(1)).toBe(1);
  });
});

describe('OverviewPage', () => {
  it('asks for the past 7 days in the browser’s zone and shows each chart with its total', async () => {
    const { api } = setup();
    expect(await screen.findByTestId('chart-card-conversations')).toBeInTheDocument();
    expect(api.calls[0]).toEqual({ period: '7d', tz: 'Asia/Shanghai' });
    const totals = fixtureOverview('7d').totals;
    expect(screen.getByTestId('total-messages')).toHaveTextContent(totals.messages.toLocaleString('en'));
    expect(screen.getByTestId('total-latency')).toHaveTextContent(`${formatFigure(totals.avg_latency_ms, 'ms', 'en')} · ${formatFigure(totals.p95_latency_ms, 'ms', 'en')}`);
    expect(screen.getByRole('radio', { name: 'Past 7 days' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText(/time zone Asia\/Shanghai/)).toBeInTheDocument();
    expect(screen.getByTestId('chart-latency')).toHaveTextContent('Average,p95');
    expect(screen.getByTestId('chart-latency')).toHaveAttribute('data-days', '7');
  });

  it('switches the period', async () => {
    const { api, user } = setup({}, 'workflow');
    await screen.findByTestId('chart-card-runs');
    await user.click(screen.getByRole('radio', { name: 'Past six months' }));
    await waitFor(() => expect(api.calls.at(-1)).toEqual({ period: '180d', tz: 'Asia/Shanghai' }));
    await waitFor(() => expect(screen.getByTestId('total-runs')).toHaveTextContent(formatFigure(fixtureOverview('180d').totals.runs, 'count', 'en')));
    expect(screen.queryByTestId('chart-card-conversations')).toBeNull();
  });

  it('shows the empty state when nothing ran, and a retry when loading failed', async () => {
    setup({ empty: true }, 'workflow');
    expect(await screen.findByTestId('overview-empty')).toHaveTextContent('Nothing ran in this period');
    cleanup();
    setup({ fails: true });
    expect(await screen.findByTestId('overview-error')).toHaveTextContent('Could not load the overview');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
