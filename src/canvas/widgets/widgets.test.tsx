import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FlowStore } from '../store/create-flow-store';
import { pickOption, showInspector as show, useInspectorTests } from './inspector.fixture';
import { registry } from './test-flow.fixture';

useInspectorTests();

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

  it('pick knowledge bases', async () => {
    const user = userEvent.setup();
    const { config } = show('knowledge-retrieval');
    await user.click(await screen.findByRole('checkbox', { name: /Support FAQ/ }));
    expect(config().datasetIds).toEqual(['kb2']);
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
    await pickOption(user, within(field('outputs')).getAllByRole('combobox', { name: 'Type' })[1], /^number$/i);
    expect(config().outputs).toEqual([
      { name: 'result', type: 'string' },
      { name: 'count', type: 'number' },
    ]);
  });

  it('refuses edits when the editor is read-only', () => {
    const { store, field } = show('if-else');
    act(() => (store as FlowStore).setReadOnly(true));
    expect(within(field('cases')).queryByRole('button', { name: 'Add condition' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Node name' })).toHaveAttribute('readonly');
  });
});

describe('conditions on a list of files', () => {
  it('test the files\' properties instead of a value: add a test, choose the property and operator, type the value', async () => {
    const user = userEvent.setup();
    const { store, nodeId, config, field } = show('if-else');
    act(() => store.updateConfig(nodeId, ['cases', 0, 'conditions'], [{ id: 'c_1', selector: ['sys', 'files'], operator: 'contains', value: '' }]));
    const tests = await within(field('cases')).findByRole('group', { name: 'File tests of condition 1' });
    expect(within(field('cases')).queryByRole('textbox', { name: 'Value of condition 1' })).not.toBeInTheDocument();
    await user.click(within(tests).getByRole('button', { name: 'Add a file test' }));
    await pickOption(user, within(tests).getByRole('combobox', { name: 'File property 1' }), 'Type');
    await pickOption(user, within(tests).getByRole('combobox', { name: 'Operator of file test 1' }), 'is in');
    await user.type(within(tests).getByRole('textbox', { name: 'Value of file test 1' }), 'image,video');
    await pickOption(user, within(field('cases')).getByRole('combobox', { name: 'How the file tests of condition 1 combine' }), 'OR');
    expect(config().cases).toMatchObject([
      { conditions: [{ selector: ['sys', 'files'], operator: 'contains', fileConditions: { logicalOperator: 'or', conditions: [{ key: 'type', operator: 'in', value: 'image,video' }] } }] },
    ]);
    // "is empty" on the same list compares the list itself: no file tests.
    await pickOption(user, within(field('cases')).getByRole('combobox', { name: 'Operator of condition 1' }), 'is empty');
    expect(within(field('cases')).queryByRole('group', { name: 'File tests of condition 1' })).not.toBeInTheDocument();
  });
});

describe('iteration input', () => {
  it('offers only arrays from outside the iteration: not its inner nodes’ outputs, not single values', async () => {
    const user = userEvent.setup();
    const { store, nodeId, field } = show('iteration');
    // A code node inside the iteration, with an array output: still not a choice for the iteration's input.
    act(() => {
      const inner = store.addNode('code', { parentId: nodeId, from: { nodeId: `${nodeId}-start_1` } })!;
      store.updateConfig(inner, ['outputs'], [{ name: 'inner_list', type: 'array[string]' }]);
    });
    await user.click(within(field('iterator')).getAllByRole('button')[0]);
    const options = within(await screen.findByRole('listbox', { name: 'Available variables' })).getAllByRole('option');
    const texts = options.map((o) => o.textContent ?? '');
    expect(texts.some((t) => t.includes('files'))).toBe(true);
    expect(texts.filter((t) => /inner_list|query_text|^text/.test(t))).toEqual([]);
  });
});

describe('dropdowns in the inspector', () => {
  // Issue 27: native and custom dropdowns were mixed; every one in the canvas is now the kit's Select.
  it.each(registry.plugins.map((p) => p.kind))('%s shows no native select, only the kit Select', (kind) => {
    show(kind);
    // Radix keeps a hidden native select (aria-hidden) inside forms for form submission: not a dropdown anyone sees.
    expect(document.querySelectorAll('select:not([aria-hidden="true"])')).toHaveLength(0);
    for (const box of screen.queryAllByRole('combobox').filter((e) => e.tagName === 'BUTTON')) expect(box).toHaveAttribute('data-slot', 'select-trigger');
  });
});
