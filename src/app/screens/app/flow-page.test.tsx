import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppDetail, AppDraft } from '../../../../schemas/app';
import { ErrorCode } from '../../../../schemas/errors';
import { builtinPlugins } from '../../../canvas/builtin-plugins';
import { ApiError } from '../../../api/request';
import { stubBrowserForReactFlow } from '../../../canvas/editor/test-setup';
import { initI18n } from '../../../i18n';
import { optionLabels } from '../../../canvas/widgets/inspector.fixture';
import userEvent from '@testing-library/user-event';
import { createNodeRegistry } from '../../../plugin-sdk';
import { replaceExports } from '../../../../tests/unit/replace-exports';
import * as appsApi from '../../../api/apps';
import * as pluginsApi from '../../../api/plugins';
import FlowPage from './flow-page';

const api = { getAppDraft: vi.fn(), saveAppDraft: vi.fn(), importIntoApp: vi.fn() };

const APP = '00000000-0000-4000-8000-000000000001';
const WS = '00000000-0000-4000-8000-000000000002';
const app = { id: APP, workspace_id: WS, name: 'Flow', type: 'workflow' } as AppDetail;
const draft = (revision: number): AppDraft => ({
  app_id: APP,
  revision,
  document: createNodeRegistry(builtinPlugins).createFlow('workflow'),
  updated_at: '2026-11-23T00:00:00.000Z',
  updated_by: { id: WS, name: 'Bob' },
  secrets_set: [],
});

function renderPage(setSaveStatus = vi.fn(), models: { provider: string; model: string }[] = []) {
  const router = createMemoryRouter([
    { id: 'app', path: '/', loader: () => ({ app, models }), HydrateFallback: () => null, element: <Outlet context={{ app, setSaveStatus }} />, children: [{ index: true, element: <FlowPage /> }] },
  ]);
  render(<RouterProvider router={router} />);
  return { setSaveStatus };
}

beforeAll(async () => {
  replaceExports(appsApi, api);
  // No plugin package is installed: the editor's kinds are the built-ins.
  replaceExports(pluginsApi, { listInstalledForEditor: async () => [], fetchBrowserBundle: vi.fn() });
  stubBrowserForReactFlow();
  await initI18n('en');
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

/** An edit through the UI: the palette adds a template transform at the centre. */
async function addNode() {
  fireEvent.click(await screen.findByTestId('toolbar-add-node'));
  fireEvent.click(within(screen.getByTestId('palette')).getByTestId('palette-item-template-transform'));
  await waitFor(() => expect(screen.getByTestId('node-template-transform_1')).toBeInTheDocument());
}

describe('FlowPage', () => {
  it('loads the draft, autosaves after an edit and reports the status to the header', async () => {
    api.getAppDraft.mockResolvedValue(draft(3));
    api.saveAppDraft.mockResolvedValue({ app_id: APP, revision: 4, updated_at: '', updated_by: null, secrets_set: [] });
    const { setSaveStatus } = renderPage();
    await screen.findByTestId('flow-editor');
    expect(api.getAppDraft).toHaveBeenCalledWith(WS, APP, expect.anything());
    expect(setSaveStatus).not.toHaveBeenCalledWith('saved');
    await addNode();
    await waitFor(() => expect(api.saveAppDraft).toHaveBeenCalledTimes(1), { timeout: 3000 });
    const [ws, body] = api.saveAppDraft.mock.calls[0];
    expect(ws).toBe(WS);
    expect(body.base_revision).toBe(3);
    expect(body.document.nodes.map((n: { id: string }) => n.id)).toContain('template-transform_1');
    await waitFor(() => expect(setSaveStatus).toHaveBeenLastCalledWith('saved'));
    expect(setSaveStatus).toHaveBeenCalledWith('saving');
  });

  it('offers reload or overwrite when the save is refused as based on an older draft', async () => {
    api.getAppDraft.mockResolvedValue(draft(3));
    api.saveAppDraft
      .mockRejectedValueOnce(new ApiError({ status: 409, code: ErrorCode.CONFLICT, data: { app_id: APP, revision: 7, updated_at: '2026-11-23T00:00:00.000Z', updated_by: { id: WS, name: 'Bob' } } }))
      .mockResolvedValueOnce({ app_id: APP, revision: 8, updated_at: '', updated_by: null, secrets_set: [] });
    const { setSaveStatus } = renderPage();
    await addNode();
    const dialog = await screen.findByTestId('conflict-dialog', {}, { timeout: 3000 });
    expect(dialog).toHaveTextContent('Bob changed this draft');
    expect(setSaveStatus).toHaveBeenLastCalledWith('conflict');
    await act(async () => fireEvent.click(within(dialog).getByTestId('conflict-overwrite')));
    await waitFor(() => expect(api.saveAppDraft).toHaveBeenCalledTimes(2));
    expect(api.saveAppDraft.mock.calls[1][1].base_revision).toBe(7);
    await waitFor(() => expect(screen.queryByTestId('conflict-dialog')).toBeNull());
  });

  it('opens the selected node in the inspector, with the models of the app guard in the model picker', async () => {
    api.getAppDraft.mockResolvedValue(draft(3));
    api.saveAppDraft.mockResolvedValue({ app_id: APP, revision: 4, updated_at: '', updated_by: null, secrets_set: [] });
    renderPage(vi.fn(), [{ provider: 'openai', model: 'gpt-4o' }]);
    fireEvent.click(await screen.findByTestId('toolbar-add-node'));
    fireEvent.click(within(screen.getByTestId('palette')).getByTestId('palette-item-llm'));
    const inspector = await screen.findByTestId('inspector-slot');
    // The model picker is the kit's Select: its options show once it is opened.
    const picker = inspector.querySelector('[data-field="model"] [role="combobox"]') as HTMLElement;
    expect(await optionLabels(userEvent.setup(), picker)).toContain('gpt-4o · openai');
    // The toolbar offers tidy-up, export, import and the variables of the flow.
    for (const id of ['toolbar-layout', 'toolbar-export', 'toolbar-import', 'toolbar-env-variables']) expect(screen.getByTestId(id)).toBeInTheDocument();
    fireEvent.click(within(inspector).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('inspector-slot')).toBeNull());
  });

  it('saves what is pending when the builder leaves', async () => {
    api.getAppDraft.mockResolvedValue(draft(3));
    api.saveAppDraft.mockResolvedValue({ app_id: APP, revision: 4, updated_at: '', updated_by: null, secrets_set: [] });
    renderPage();
    await addNode();
    expect(api.saveAppDraft).not.toHaveBeenCalled();
    cleanup();
    await waitFor(() => expect(api.saveAppDraft).toHaveBeenCalledTimes(1));
  });

  it('imports through the server: what waits is saved first, then POST /apps/{id}/import, then the stored draft is reloaded', async () => {
    const imported = draft(9);
    imported.document = { ...imported.document, nodes: [...imported.document.nodes, { ...imported.document.nodes[0]!, id: 'from_file', kind: 'template-transform', title: 'From the file', config: {} }] };
    api.getAppDraft.mockResolvedValueOnce(draft(3)).mockResolvedValue(imported);
    api.saveAppDraft.mockResolvedValue({ app_id: APP, revision: 4, updated_at: '', updated_by: null, secrets_set: [] });
    api.importIntoApp.mockResolvedValue({ app, report: { format: 'dify', mapped: 3, unmapped: [], warnings: [{ key: 'warnings.edgesDropped', params: { count: 1 } }] } });
    renderPage();
    await addNode();
    fireEvent.click(screen.getByTestId('toolbar-import'));
    const dialog = await screen.findByTestId('import-dialog');
    fireEvent.change(within(dialog).getByTestId('import-file'), { target: { files: [new File(['kind: app'], 'dify.yml')] } });
    await within(dialog).findByTestId('import-chosen');
    fireEvent.click(within(dialog).getByTestId('import-replace'));
    expect(await within(dialog).findByTestId('import-report')).toHaveTextContent('3 nodes imported');
    expect(api.saveAppDraft).toHaveBeenCalledTimes(1);
    expect(api.saveAppDraft.mock.invocationCallOrder[0]).toBeLessThan(api.importIntoApp.mock.invocationCallOrder[0]!);
    expect(api.importIntoApp).toHaveBeenCalledWith(WS, APP, { content: 'kind: app' }, { reaction: 'silent' });
    expect(api.getAppDraft).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.getByTestId('node-from_file')).toBeInTheDocument());
    expect(screen.queryByTestId('node-template-transform_1')).toBeNull();
  });
});
