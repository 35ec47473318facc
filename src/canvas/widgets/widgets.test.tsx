import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../../i18n';
import { NodeInspector } from '../inspector/node-inspector';
import { FlowStoreProvider } from '../react/flow-store-context';
import type { FlowStore } from '../store/create-flow-store';
import { ModelListContext, WorkspaceResourcesContext, type WorkspaceResources } from './context';
import { nextClassId } from './list-widgets';
import { flowFor, sampleModels, sampleResources } from './test-flow.fixture';

class NoResize {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeAll(async () => {
  globalThis.ResizeObserver ??= NoResize as unknown as typeof ResizeObserver;
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterAll(() => i18n.changeLanguage('zh'));
afterEach(cleanup);

function show(kind: string, resources: WorkspaceResources = sampleResources) {
  const { store, nodeId } = flowFor(kind);
  render(
    <FlowStoreProvider store={store}>
      <ModelListContext.Provider value={{ models: sampleModels }}>
        <WorkspaceResourcesContext.Provider value={resources}>
          <NodeInspector nodeId={nodeId} />
        </WorkspaceResourcesContext.Provider>
      </ModelListContext.Provider>
    </FlowStoreProvider>,
  );
  const config = () => store.toDocument().nodes.find((n) => n.id === nodeId)!.config as Record<string, never>;
  return { store, nodeId, config, field: (name: string) => document.querySelector(`[data-field="${name}"]`) as HTMLElement };
}

describe('class list', () => {
  it('generates the next numeric id', () => {
    expect(nextClassId(['1', '2'])).toBe('3');
    expect(nextClassId(['7', 'other'])).toBe('8');
    expect(nextClassId([])).toBe('1');
  });

  it('adds a class with a fresh id, which becomes a branch', async () => {
    const user = userEvent.setup();
    const { config, field, store, nodeId } = show('question-classifier');
    await user.click(within(field('classes')).getByRole('button', { name: 'Add class' }));
    await user.type(within(field('classes')).getByRole('textbox', { name: 'Class 3' }), 'Refunds');
    expect(config().classes).toEqual([
      { id: '1', name: '' },
      { id: '2', name: '' },
      { id: '3', name: 'Refunds' },
    ]);
    expect(store.registry.sourceHandlesOf(store.toDocument().nodes.find((n) => n.id === nodeId)!).map((h) => h.id)).toContain('3');
  });
});

describe('workspace resource pickers', () => {
  it('say so when the workspace has no tool', () => {
    const { field } = show('tool', { tools: { list: async () => [] } });
    return waitFor(() => expect(within(field('toolId')).getByRole('note')).toHaveTextContent('This project space has no tool yet'));
  });

  it('say so when no source is given, and when loading fails', async () => {
    show('knowledge-retrieval', {});
    expect(await screen.findByText('This project space has no knowledge base yet')).toBeInTheDocument();
    cleanup();
    show('mcp', { mcpServers: { list: () => Promise.reject(new Error('down')) } });
    expect(await screen.findByText('Could not load the list; try again later')).toBeInTheDocument();
  });

  it('pick a tool and then one of its functions', async () => {
    const user = userEvent.setup();
    const { config, field } = show('tool');
    const tool = await within(field('toolId')).findByRole('combobox', { name: 'Tool' });
    await user.selectOptions(tool, 'weather');
    await user.selectOptions(within(field('toolId')).getByRole('combobox', { name: 'Tool function' }), 'current');
    expect(config()).toMatchObject({ toolId: 'weather', functionId: 'current' });
    // The function's parameters fill the params form, and are listed under the picker.
    expect(config().params).toEqual([
      { name: 'city', source: 'text', selector: [], text: '' },
      { name: 'units', source: 'text', selector: [], text: '' },
    ]);
    expect(within(field('params')).getAllByRole('textbox', { name: 'Variable name' }).map((e) => (e as HTMLInputElement).value)).toEqual(['city', 'units']);
    expect(within(field('toolId')).getByRole('list', { name: 'Parameters of the function' })).toHaveTextContent(/city.*string.*required.*City name/);
    // Another function: a shared parameter keeps its value, the others follow the function.
    await user.type(within(field('params')).getAllByRole('textbox', { name: 'Value' })[0], 'Paris');
    await user.selectOptions(within(field('toolId')).getByRole('combobox', { name: 'Tool function' }), 'forecast');
    expect(config().params).toEqual([
      { name: 'city', source: 'text', selector: [], text: 'Paris' },
      { name: 'days', source: 'text', selector: [], text: '' },
    ]);
  });

  it('pick knowledge bases', async () => {
    const user = userEvent.setup();
    const { config } = show('knowledge-retrieval');
    await user.click(await screen.findByRole('checkbox', { name: /Support FAQ/ }));
    expect(config().datasetIds).toEqual(['kb2']);
  });

  it('add agent tools from tools and MCP servers, each switchable', async () => {
    const user = userEvent.setup();
    const { config, field } = show('agent');
    const add = await within(field('tools')).findByRole('combobox', { name: 'Add a tool' });
    // Functions of workspace tools and tools of MCP servers, both offered.
    expect(within(add).getAllByRole('option').map((o) => o.textContent)).toEqual(['Add a tool', 'Weather / Current weather', 'Weather / Forecast', 'File server / read_file']);
    await user.selectOptions(add, 'mcp:files:read_file');
    expect(config().tools).toEqual([{ type: 'mcp', providerId: 'files', name: 'read_file', enabled: true }]);
    await user.click(within(field('tools')).getByRole('switch', { name: 'Use File server / read_file' }));
    expect(config().tools).toEqual([{ type: 'mcp', providerId: 'files', name: 'read_file', enabled: false }]);
  });
});

describe('variable picker', () => {
  it('searches the upstream variables and picks one', async () => {
    const user = userEvent.setup();
    const { config, field } = show('question-classifier');
    await user.click(within(field('query')).getByRole('button', { name: 'Input variable' }));
    await user.type(await screen.findByRole('textbox', { name: 'Search variables' }), 'query_t');
    const options = within(screen.getByRole('listbox', { name: 'Available variables' })).getAllByRole('option');
    expect(options).toHaveLength(1);
    await user.click(options[0]);
    expect(config().query).toEqual(['start', 'query_text']);
    expect(within(field('query')).getByRole('button', { name: 'Input variable' })).toHaveTextContent('query_text');
    await user.click(within(field('query')).getByRole('button', { name: 'Clear the variable' }));
    expect(config().query).toEqual([]);
    // The keyboard: arrows move through the list, Enter picks.
    await user.click(within(field('query')).getByRole('button', { name: 'Input variable' }));
    await user.type(await screen.findByRole('textbox', { name: 'Search variables' }), 'query{ArrowDown}{Enter}');
    expect(config().query).toEqual(['sys', 'query']);
    await user.click(within(field('query')).getByRole('button', { name: 'Clear the variable' }));
    expect(config().query).toEqual([]);
  });
});

describe('row widgets', () => {
  it('edit code outputs with typed rows', async () => {
    const user = userEvent.setup();
    const { config, field } = show('code');
    await user.click(within(field('outputs')).getByRole('button', { name: 'Add output' }));
    const names = within(field('outputs')).getAllByRole('textbox', { name: 'Variable name' });
    await user.type(names[1], 'count');
    await user.selectOptions(within(field('outputs')).getAllByRole('combobox', { name: 'Type' })[1], 'number');
    expect(config().outputs).toEqual([
      { name: 'result', type: 'string' },
      { name: 'count', type: 'number' },
    ]);
  });

  it('edit http headers with references in values', async () => {
    const user = userEvent.setup();
    const { config, field } = show('http-request');
    await user.click(within(field('headers')).getByRole('button', { name: 'Add row' }));
    await user.type(within(field('headers')).getByRole('textbox', { name: 'Key' }), 'X-Query');
    await user.type(within(field('headers')).getByRole('textbox', { name: 'Value' }), '/query_t');
    await user.keyboard('{Enter}');
    expect(config().headers).toEqual([{ key: 'X-Query', value: '{{#start.query_text#}}' }]);
  });

  it('refuses edits when the editor is read-only', () => {
    const { store, field } = show('if-else');
    act(() => (store as FlowStore).setReadOnly(true));
    expect(within(field('cases')).queryByRole('button', { name: 'Add condition' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Node name' })).toHaveAttribute('readonly');
  });
});
