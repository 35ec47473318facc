import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import type { Approval } from '../../../../schemas/approval';
import type { MyOverview } from '../../../../schemas/my';
import { i18n, initI18n } from '../../../i18n';
import MyPage from './my-page';

beforeAll(async () => {
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const WS = '00000000-0000-4000-8000-0000000000a1';
const id = (n: number) => `00000000-0000-4000-8000-00000000010${n}`;
const approval = (a: Partial<Approval>): Approval => ({
  id: id(9), kind: 'store', state: 'processing', title: '', item_type: 'app', source_id: id(1), app_mode: null, version: null, workspace_id: WS, workspace_name: 'Team',
  submitted_by: id(0), submitted_by_name: 'Ann', submitted_at: '2026-11-04T08:00:00.000Z', decided_at: null, updated_at: '2026-11-04T08:00:00.000Z', last_comment: '',
  can_decide: false, can_cancel: false, can_recall: false, can_force_recall: false, ...a,
});
const overview: MyOverview = {
  resources: [
    { kind: 'app', id: id(1), name: 'Helpdesk', subtype: 'workflow', workspace_id: WS, workspace_name: 'Team', updated_at: '2026-11-01T08:00:00.000Z' },
    { kind: 'dataset', id: id(2), name: 'Manuals', subtype: '', workspace_id: WS, workspace_name: 'Team', updated_at: '2026-11-01T08:00:00.000Z' },
    { kind: 'tool', id: id(3), name: 'Weather', subtype: 'custom', workspace_id: WS, workspace_name: 'Team', updated_at: '2026-11-01T08:00:00.000Z' },
  ],
  counts: { app: 1, dataset: 1, prompt: 0, tool: 1 },
  submissions: [{ id: id(4), type: 'prompt', name: 'Greeter', review_state: 'rejected', reason: 'Too short', workspace_id: WS, created_at: '2026-11-02T08:00:00.000Z' }],
  approvals: {
    to_approve: [approval({ id: id(6), title: 'Helpdesk', state: 'processing', item_type: 'app', source_id: id(1), app_mode: 'workflow' })],
    submitted: [approval({ id: id(7), title: 'Greeter', state: 'returned', item_type: 'prompt', source_id: id(8), last_comment: 'Say hello first' })],
  },
  runs: [{ id: id(5), app_id: id(1), app_name: 'Helpdesk', app_type: 'workflow', workspace_id: WS, source: 'portal', status: 'failed', elapsed_ms: 1234, created_at: '2026-11-03T08:00:00.000Z' }],
};

describe('MyPage', () => {
  it('lists what the user created with links to where each lives, their submissions with states, their runs', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <MyPage load={async () => overview} />
      </MemoryRouter>,
    );
    const created = await screen.findByTestId('my-created');
    expect(within(created).getByRole('link', { name: 'Helpdesk' })).toHaveAttribute('href', `/operation/app/${id(1)}/agent-flow`);
    expect(within(created).getByRole('link', { name: 'Manuals' })).toHaveAttribute('href', `/operation/workspace/${WS}/knowledge-unit?dataset_id=${id(2)}`);
    expect(within(created).getByRole('link', { name: 'Weather' })).toHaveAttribute('href', `/operation/workspace/${WS}/tool/${id(3)}`);
    expect(screen.getByTestId('my-counts')).toHaveTextContent('Tool 1');
    await user.click(screen.getByRole('tab', { name: 'Store submissions (1)' }));
    const subs = await screen.findByTestId('my-submissions');
    expect(within(subs).getByText('Rejected')).toBeInTheDocument();
    expect(within(subs).getByText('Too short')).toBeInTheDocument();
    // Not released: nothing in the store to open.
    expect(within(subs).queryByRole('link')).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Approvals (2)' }));
    const todo = await screen.findByTestId('my-to-approve');
    expect(within(todo).getByRole('link', { name: 'Helpdesk' })).toHaveAttribute('href', expect.stringContaining(id(1)));
    expect(within(todo).getByText('Processing')).toBeInTheDocument();
    const mine = screen.getByTestId('my-approvals-submitted');
    expect(within(mine).getByText('Returned')).toBeInTheDocument();
    expect(within(mine).getByText('Say hello first')).toBeInTheDocument();
    // An approval's own state and its approver's comment, not the store review's.
    expect(within(mine).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Kind', 'State', 'Latest comment', 'Submitted']);
    await user.click(screen.getByRole('tab', { name: 'Recent runs (1)' }));
    const runs = await screen.findByTestId('my-runs');
    expect(within(runs).getByText('Portal')).toBeInTheDocument();
    expect(within(runs).getByText('Failed')).toBeInTheDocument();
  });

  it('says so when there is nothing yet', async () => {
    render(
      <MemoryRouter>
        <MyPage load={async () => ({ ...overview, resources: [], counts: { app: 0, dataset: 0, prompt: 0, tool: 0 }, submissions: [], runs: [] })} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('You have not created anything in a project space yet')).toBeInTheDocument();
  });
});
