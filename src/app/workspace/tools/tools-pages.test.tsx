import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import FunctionPage from './function-page';
import { createMemoryToolApi, DEMO_FUNCTION_ID, DEMO_TOOL_IDS, demoToolOptions, type MemoryToolOptions } from './memory-tool-api';
import { ToolApiContext } from './tool-api';
import ToolDetailPage from './tool-detail-page';
import ToolsPage from './tools-page';

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

function setup(path: string, opts: MemoryToolOptions = {}) {
  const api = createMemoryToolApi(demoToolOptions(opts));
  const base = '/operation/workspace/:workspace_id/tool';
  const router = createMemoryRouter(
    [
      { path: base, element: <ToolsPage /> },
      { path: `${base}/:toolId`, element: <ToolDetailPage /> },
      { path: `${base}/:toolId/capability/:capabilityId`, element: <FunctionPage /> },
    ],
    { initialEntries: [path.replace(':ws', api.workspaceId)] },
  );
  render(
    <ToolApiContext value={api}>
      <RouterProvider router={router} />
      <Toaster />
    </ToolApiContext>,
  );
  return { api, router, user: userEvent.setup() };
}

describe('tool screens', () => {
  it('shows a stdio MCP server this server may not start as not allowed here, says why, and never contacts it', async () => {
    const { api } = setup('/operation/workspace/:ws/tool', { mcpNotAllowed: true });
    const row = await screen.findByRole('row', { name: /Filesystem/ }, { timeout: 4000 });
    expect(within(row).getByTestId('mcp-not-allowed-badge')).toHaveTextContent('Not allowed here');
    expect(within(await screen.findByRole('row', { name: /Weather API/ })).queryByTestId('mcp-not-allowed-badge')).toBeNull();
    cleanup();
    const detail = setup(`/operation/workspace/:ws/tool/${DEMO_TOOL_IDS.mcp}`, { mcpNotAllowed: true });
    const notice = await screen.findByTestId('mcp-not-allowed', {}, { timeout: 4000 });
    expect(notice).toHaveTextContent('This MCP server is not allowed on this server');
    expect(notice).toHaveTextContent('Its command “npx” would run as a process on the server');
    expect(notice).toHaveTextContent('System > Security');
    expect(detail.api.calls.some((c) => c.method === 'mcpTools')).toBe(false);
    expect(api.calls.some((c) => c.method === 'mcpTools')).toBe(false);
  });

  it('offers only published workflow apps as a workflow tool source, with their newest version', async () => {
    const { api, user } = setup('/operation/workspace/:ws/tool');
    await screen.findByRole('row', { name: /Weather API/ }, { timeout: 4000 });
    await user.click(screen.getByRole('button', { name: /New tool/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Workflow tool' }));
    const dialog = await screen.findByRole('dialog', { name: 'Offer a workflow as a tool' });
    await waitFor(() => expect(api.calls.some((c) => c.method === 'workflowApps')).toBe(true));
    await user.click(within(dialog).getByRole('combobox', { name: 'Workflow app' }));
    const published = await screen.findByRole('option', { name: 'Translate flow · v1.0.0' });
    expect(published).not.toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Unpublished flow (not published)' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(published);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'createWorkflow')).toMatchObject({ args: [{ app_id: '0a000000-0000-4000-8000-000000000001' }] }));
  });

  it('drops an old OpenAPI parse error once a new document is loaded from a file', async () => {
    const { user } = setup('/operation/workspace/:ws/tool');
    await screen.findByRole('row', { name: /Weather API/ }, { timeout: 4000 });
    await user.click(screen.getByRole('button', { name: /New tool/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Import OpenAPI' }));
    const dialog = await screen.findByTestId('create-tool-dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Document/ }), 'this is not a document');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    const doc = JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} });
    await user.upload(within(dialog).getByTestId('openapi-file'), new File([doc], 'pets.json', { type: 'application/json' }));
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /Document/ })).toHaveValue(doc));
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('lists tools with type, status and counts, filters by name, and adds an MCP server from its config JSON', async () => {
    const { api, user, router } = setup('/operation/workspace/:ws/tool');
    const row = await screen.findByRole('row', { name: /Weather API/ }, { timeout: 4000 });
    expect(within(row).getByText('Custom')).toBeInTheDocument();
    expect(within(row).getByText('Published')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(await screen.findByTestId('builtin-tools')).getByText('calculator')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search tool names' }), 'files');
    await waitFor(() => expect(screen.queryByRole('row', { name: /Weather API/ })).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: /New tool/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Add MCP server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an MCP server' });
    const json = within(dialog).getByRole('textbox', { name: 'Add an MCP server' });
    await user.clear(json);
    await user.type(json, '{{ "mcpServers": {{ "Docs": {{ "url": "https://docs.example.com/mcp" } } }');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/tool\/0f/));
    expect(api.calls.find((c) => c.method === 'createMcp')?.args[0]).toMatchObject({ config: { mcpServers: { Docs: { url: 'https://docs.example.com/mcp' } } } });
  });

  it('shows an MCP tool’s live list and switches a tool on', async () => {
    const { api, user } = setup(`/operation/workspace/:ws/tool/${DEMO_TOOL_IDS.mcp}`);
    const sw = await screen.findByRole('switch', { name: /write_file/ }, { timeout: 4000 });
    expect(screen.getByRole('switch', { name: /read_file/ })).toBeChecked();
    await user.click(sw);
    await waitFor(() => expect(sw).toBeChecked());
    expect(api.stored.find((t) => t.id === DEMO_TOOL_IDS.mcp)?.mcp_enabled).toEqual(['read_file', 'write_file']);
  });

  it('edits a function with the parameter tables and tests it with sample inputs', async () => {
    const { api, user } = setup(`/operation/workspace/:ws/tool/${DEMO_TOOL_IDS.weather}/capability/${DEMO_FUNCTION_ID}`);
    const panel = await screen.findByTestId('function-test', {}, { timeout: 4000 });
    expect(screen.getByDisplayValue('https://api.weather.example.com/v1/current/{city}')).toBeInTheDocument();
    await user.type(within(panel).getByRole('textbox', { name: /city/ }), 'Paris');
    await user.click(within(panel).getByRole('button', { name: 'Test' }));
    expect(await within(panel).findByTestId('function-test-body')).toHaveTextContent('"city": "Paris"');
    expect(api.calls.find((c) => c.method === 'testFunction')?.args[2]).toEqual({ city: 'Paris' });
    const desc = screen.getAllByRole('textbox', { name: 'Description' })[0];
    await user.clear(desc);
    await user.type(desc, 'Weather now');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'updateFunction')).toBe(true));
    expect(api.calls.find((c) => c.method === 'updateFunction')?.args[1]).toMatchObject({ id: DEMO_FUNCTION_ID, description: 'Weather now', auth: { type: 'api_key', location: 'query', key: 'appid' } });
  });
});
