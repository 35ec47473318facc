import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Approval, ApprovalAction, ApprovalDetail, ApprovalState } from '../../../schemas/approval';
import { configureRequest } from '../../api/request';
import { ok, startServer, type TestServer } from '../../api/testing/http-server';
import { i18n, initI18n } from '../../i18n';
import ApprovalsPage from './approvals-page';

// The approvals page against a real HTTP server: the "to approve" box, an approval's history, a return
// that needs a comment (refused before any call without one), and "submitted by me" marking decisions seen.

const at = '2026-11-01T09:00:00.000Z';
const ID = '55555555-5555-4555-8555-555555555555';
const approval = (over: Partial<Approval> = {}): Approval => ({
  id: ID,
  kind: 'store',
  state: 'processing',
  title: 'Greeter',
  item_type: 'prompt',
  source_id: '66666666-6666-4666-8666-666666666666',
  app_mode: null,
  version: null,
  workspace_id: '77777777-7777-4777-8777-777777777777',
  workspace_name: 'Alpha',
  submitted_by: '88888888-8888-4888-8888-888888888888',
  submitted_by_name: 'Olga',
  submitted_at: at,
  decided_at: null,
  updated_at: at,
  last_comment: '',
  can_decide: true,
  can_cancel: false,
  can_recall: false,
  can_force_recall: false,
  ...over,
});
const step = (action: ApprovalAction, to: ApprovalState, comment = '') => ({ id: crypto.randomUUID(), action, from_state: null, to_state: to, actor_id: '88888888-8888-4888-8888-888888888888', actor_name: 'Olga', comment, created_at: at });
let current: ApprovalDetail = { ...approval(), steps: [step('submit', 'processing')], approvers: [{ kind: 'role', id: 'tenant_admin', name: '' }] };

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.path === '/api/v1/console/approvals') return ok(res, { items: req.query.get('box') === 'todo' ? [current] : [], total: 1, page: 1, page_size: 100 });
    if (req.path === '/api/v1/console/approvals/seen') return ok(res, { to_approve: 0, decided: 0 });
    if (req.path === `/api/v1/console/approvals/${ID}/return`) {
      const { comment } = JSON.parse(req.body) as { comment: string };
      current = { ...current, state: 'returned', can_decide: false, last_comment: comment, steps: [...current.steps, step('return', 'returned', comment)] };
      return ok(res, current);
    }
    if (req.path === `/api/v1/console/approvals/${ID}`) return ok(res, current);
    return ok(res, null);
  });
  configureRequest({ baseUrl: server.url });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(() => server.close());

describe('ApprovalsPage', () => {
  it('lists what waits for the approver, and a return needs a comment', async () => {
    render(
      <MemoryRouter>
        <ApprovalsPage />
      </MemoryRouter>,
    );
    const row = await screen.findByTestId('approval-row');
    expect(row).toHaveTextContent('Greeter');
    expect(row).toHaveTextContent('Processing');
    fireEvent.click(within(row).getByTestId('approval-open'));
    const dialog = await screen.findByTestId('approval-dialog');
    await within(dialog).findByText('Olga: Submit');
    expect(within(dialog).getByTestId('approval-approvers')).toHaveTextContent('Tenant admins');
    fireEvent.click(within(dialog).getByTestId('approval-return'));
    expect(await within(dialog).findByText('Say what to change before returning it')).toBeInTheDocument();
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByTestId('approval-comment'), { target: { value: 'Add a description' } });
    fireEvent.click(within(dialog).getByTestId('approval-return'));
    await waitFor(() => expect(within(dialog).getByTestId('approval-state')).toHaveAttribute('data-state', 'returned'));
    expect(within(dialog).getByText('Add a description')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('approval-agree')).toBeNull();
    const post = server.requests.find((r) => r.method === 'POST');
    expect(post?.path).toBe(`/api/v1/console/approvals/${ID}/return`);
    expect(JSON.parse(post!.body)).toEqual({ comment: 'Add a description' });
  });

  it('opens "submitted by me" from ?box=mine and marks its decisions seen', async () => {
    render(
      <MemoryRouter initialEntries={['/operation/approvals?box=mine']}>
        <ApprovalsPage />
      </MemoryRouter>,
    );
    expect(await screen.findByTestId('approvals-empty')).toHaveTextContent('You have no submissions under approval');
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/v1/console/approvals/seen')).toBe(true));
  });
});
