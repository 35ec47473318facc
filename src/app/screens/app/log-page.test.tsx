import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { LogApiContext } from './log-api';
import LogPage from './log-page';
import { createMemoryLogApi, type MemoryLogOptions } from './memory-log-api';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

function setup(type: 'chatflow' | 'workflow' = 'chatflow', opts: MemoryLogOptions = {}) {
  const api = createMemoryLogApi({ runs: 12, conversations: 3, now: Date.parse('2026-06-15T12:00:00Z'), ...opts });
  render(
    <LogApiContext value={api}>
      <LogPage app={{ id: api.appId, workspace_id: api.workspaceId, type }} />
      <Toaster />
    </LogApiContext>,
  );
  return { api, user: userEvent.setup() };
}

const runRows = () => screen.queryAllByTestId(/^run-row-/);

describe('LogPage', () => {
  it('lists the runs of the past 7 days first and follows the period filter', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(runRows().length).toBeGreaterThan(0));
    // Run i happened i*i/2 days ago: within 7 days are runs 1-4.
    expect(runRows()).toHaveLength(4);
    expect(api.calls[0]).toMatchObject({ method: 'listRuns', args: [{ period: '7d', page: 1, page_size: 20 }] });
    await user.click(screen.getByRole('radio', { name: 'All time' }));
    await waitFor(() => expect(runRows()).toHaveLength(12));
    await user.click(screen.getByRole('radio', { name: 'Today' }));
    await waitFor(() => expect(runRows()).toHaveLength(1));
    expect(screen.getByRole('radio', { name: 'Today' })).toHaveAttribute('aria-checked', 'true');
  });

  it('opens a run on its full trace with the iteration unfolded by round', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(runRows().length).toBeGreaterThan(0));
    const first = api.runs[0].run;
    await user.click(within(screen.getByTestId(`run-row-${first.id}`)).getByRole('button', { name: 'View' }));
    const sheet = await screen.findByTestId('run-sheet');
    const trace = await within(sheet).findByTestId('trace-view');
    expect(within(trace).getAllByTestId(/^trace-item-/).map((el) => el.dataset.testid)).toContain('trace-item-iteration');
    expect(within(trace).getByTestId('trace-item-iteration')).toHaveTextContent('3 rounds');
    expect(within(trace).getByTestId('trace-round-2')).toBeInTheDocument();
    expect(within(sheet).getByText('question 1')).toBeInTheDocument();
  });

  it('lists conversations, opens one on its messages and a message on its trace, and deletes one', async () => {
    const { api, user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Conversations' }));
    await user.click(screen.getByRole('radio', { name: 'All time' }));
    const conv = api.conversations[0];
    const row = await screen.findByTestId(`conversation-row-${conv.id}`);
    await user.click(within(row).getByRole('button', { name: 'View' }));
    const sheet = await screen.findByTestId('conversation-sheet');
    const messages = await within(sheet).findAllByTestId('log-message');
    expect(messages).toHaveLength(conv.message_count);
    await user.click(within(messages[0]).getByText('Show trace'));
    expect(await within(messages[0]).findByTestId('trace-view')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('conversation-sheet')).toBeNull());

    await user.click(within(screen.getByTestId(`conversation-row-${conv.id}`)).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete the conversation?' });
    await user.click(within(confirm).getByRole('button', { name: /confirm|delete/i }));
    await waitFor(() => expect(screen.queryByTestId(`conversation-row-${conv.id}`)).toBeNull());
    expect(api.calls.some((c) => c.method === 'deleteConversation')).toBe(true);
  });

  it('shows only runs for a workflow app', async () => {
    setup('workflow');
    await waitFor(() => expect(runRows().length).toBeGreaterThan(0));
    expect(screen.queryByRole('tab', { name: 'Conversations' })).toBeNull();
  });
});
