import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TENANT_ID } from '../../../../schemas/common';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { useSession } from '../../session';
import DatasetTasksPage from '../../system/dataset/dataset-tasks-page';
import { KnowledgeApiContext } from './knowledge-api';
import { knowledgePaths } from './knowledge-nav';
import KnowledgeUnitAddTablePage from './knowledge-unit-add-table-page';
import { createMemoryKnowledgeApi } from './memory-knowledge-api';

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

describe('add a table unit', () => {
  it('uploads one table file, reads its sheets and the headers of the chosen row, then goes on with them', async () => {
    const api = createMemoryKnowledgeApi();
    const ds = api.datasets[0]!.id;
    const router = createMemoryRouter(
      [
        { path: '/operation/workspace/:workspace_id/knowledge-unit-add-table', element: <KnowledgeApiContext value={api}><KnowledgeUnitAddTablePage /></KnowledgeApiContext> },
        { path: '/operation/workspace/:workspace_id/knowledge-slice-method-config', element: <p>slice</p> },
      ],
      { initialEntries: [knowledgePaths.addTable(api.workspaceId, ds)] },
    );
    render(<RouterProvider router={router} />);
    // Let a wrong type through the picker's accept filter, to see the page refuse it.
    const user = userEvent.setup({ applyAccept: false });
    await waitFor(() => expect(screen.getByTestId('upload-browse')).toBeEnabled());
    await user.upload(screen.getByTestId('upload-input') as HTMLInputElement, new File(['a;b'], 'report.pdf'));
    expect(screen.getByRole('alert')).toHaveTextContent('Unsupported file type');
    await user.upload(screen.getByTestId('upload-input') as HTMLInputElement, new File(['a,b'], 'prices.csv'));
    expect(await within(await screen.findByTestId('table-headers')).findByText('Price')).toBeInTheDocument();
    const row = screen.getByLabelText(/^Header row/);
    await user.clear(row);
    await user.type(row, '2');
    expect(await screen.findByText('Widget')).toBeInTheDocument();
    await user.click(screen.getByTestId('add-next'));
    await screen.findByText('slice');
    const sp = new URLSearchParams(router.state.location.search);
    expect(sp.get('kind')).toBe('table');
    expect(sp.get('sheet')).toBe('Sheet1');
    expect(sp.get('header_row')).toBe('2');
    expect(api.calls.find((c) => c.method === 'excelHeaders' && (c.args as unknown[])[2] === 2)).toBeTruthy();
  });
});

describe('dataset tasks (admin)', () => {
  it('lists tasks with their state and cancels a queued one after confirming', async () => {
    useSession.setState({ user: { id: 'u', tenant_id: DEFAULT_TENANT_ID, username: 'admin', role: 'super_admin' } as never, tenantId: DEFAULT_TENANT_ID, accessToken: 't' });
    const api = createMemoryKnowledgeApi({ advance: false, units: [{ name: 'a.pdf', status: 'completed' }, { name: 'b.txt', status: 'queued', queue_position: 1 }] });
    render(
      <KnowledgeApiContext value={api}>
        <DatasetTasksPage />
        <Toaster />
      </KnowledgeApiContext>,
    );
    const user = userEvent.setup();
    const queued = (await screen.findAllByTestId('task-row')).find((r) => r.dataset.status === 'queued')!;
    expect(within(queued).getByText('In queue, position 1')).toBeInTheDocument();
    await user.click(within(queued).getByRole('button', { name: 'Cancel queued task' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.documents.find((d) => d.name === 'b.txt')!.status).toBe('cancelled'));
    expect(api.calls.some((c) => c.method === 'cancelAdminQueue')).toBe(true);
  });

  it('shows no permission to an ordinary user', () => {
    useSession.setState({ user: { id: 'u', tenant_id: DEFAULT_TENANT_ID, username: 'bob', role: 'user' } as never });
    render(
      <KnowledgeApiContext value={createMemoryKnowledgeApi()}>
        <DatasetTasksPage />
      </KnowledgeApiContext>,
    );
    expect(screen.getByTestId('no-permission')).toBeInTheDocument();
  });
});

describe('task log', () => {
  it('shows the log lines of a failed unit', async () => {
    const { default: KnowledgeUnitPage } = await import('./knowledge-unit-page');
    const api = createMemoryKnowledgeApi({ advance: false, units: [{ name: 'scan.pdf', status: 'failed', error: 'The file has no text layer' }] });
    const router = createMemoryRouter([{ path: '/operation/workspace/:workspace_id/knowledge-unit', element: <KnowledgeApiContext value={api}><KnowledgeUnitPage /></KnowledgeApiContext> }], {
      initialEntries: [knowledgePaths.units(api.workspaceId, api.datasets[0]!.id)],
    });
    render(<RouterProvider router={router} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Task log of scan.pdf' }));
    const dialog = await screen.findByTestId('task-log-dialog');
    expect(await within(dialog).findByText('The file has no text layer')).toBeInTheDocument();
    expect(within(dialog).getByText('error')).toBeInTheDocument();
  });
});
