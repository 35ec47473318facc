import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { LogApiContext } from './log-api';
import LogPage from './log-page';
import { createMemoryLogApi, type MemoryLogOptions } from './memory-log-api';

// Radix selects use pointer capture and scrollIntoView, which jsdom lacks.
beforeAll(async () => {
  Object.assign(Element.prototype, {
    hasPointerCapture: () => false,
    setPointerCapture: () => {},
    releasePointerCapture: () => {},
    scrollIntoView: () => {},
  });
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

  it("shows each run's source and version, and filters by source", async () => {
    const { api, user } = setup('chatflow', { runs: 7 });
    await user.click(screen.getByRole('radio', { name: 'All time' }));
    await waitFor(() => expect(runRows()).toHaveLength(7));
    const row = (i: number) => screen.getByTestId(`run-row-${api.runs[i].run.id}`);
    expect(within(row(0)).getByTestId('run-source')).toHaveTextContent('Debug');
    expect(within(row(0)).getByTestId('run-version')).toHaveTextContent('Draft');
    expect(within(row(1)).getByTestId('run-source')).toHaveTextContent('Portal');
    expect(within(row(1)).getByTestId('run-version')).toHaveTextContent('v1.0.1');
    expect(within(row(3)).getByTestId('run-source')).toHaveTextContent('API');
    expect(within(row(4)).getByTestId('run-source')).toHaveTextContent('Workflow tool');
    // The user who ran it keeps a column of its own.
    expect(row(0)).toHaveTextContent('Ada');

    await user.click(screen.getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: 'Portal' }));
    await waitFor(() => expect(runRows()).toHaveLength(2));
    expect(api.calls.at(-1)).toMatchObject({ method: 'listRuns', args: [{ source: 'portal', period: 'all' }] });
    for (const r of runRows()) expect(within(r).getByTestId('run-source')).toHaveTextContent('Portal');
  });

  it("shows a workflow's inputs and outputs in the list and at the top of a run's details", async () => {
    const { api, user } = setup('workflow', { mode: 'workflow' });
    await waitFor(() => expect(runRows().length).toBeGreaterThan(0));
    const first = api.runs[0].run;
    const row = screen.getByTestId(`run-row-${first.id}`);
    expect(within(row).getByTestId('run-inputs')).toHaveTextContent('topic: topic 1');
    expect(within(row).getByTestId('run-inputs')).toHaveTextContent('pages: 1');
    expect(within(row).getByTestId('run-outputs')).toHaveTextContent('summary: summary 1');
    expect(screen.queryByRole('columnheader', { name: 'Reply' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Outputs' })).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'View' }));
    const sheet = await screen.findByTestId('run-sheet');
    const facts = await within(sheet).findByTestId('run-facts');
    expect(within(facts).getByTestId('run-detail-inputs')).toHaveTextContent('"topic": "topic 1"');
    expect(within(facts).getByTestId('run-detail-outputs')).toHaveTextContent('"summary": "summary 1"');
  });

  it('shows only runs for a workflow app', async () => {
    setup('workflow');
    await waitFor(() => expect(runRows().length).toBeGreaterThan(0));
    expect(screen.queryByRole('tab', { name: 'Conversations' })).toBeNull();
  });
});
