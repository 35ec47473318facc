import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { createNodeRegistry } from '../../plugin-sdk';
import { builtinPlugins } from '../builtin-plugins';
import { createFlowStore } from '../store/create-flow-store';
import { FlowEditor } from './flow-editor';
import { stubBrowserForReactFlow } from './test-setup';

const registry = createNodeRegistry(builtinPlugins);

beforeAll(async () => {
  stubBrowserForReactFlow();
  await initI18n('en');
});
afterEach(cleanup);

describe('the delete warning', () => {
  it('names the nodes by their titles and the fields by their labels, not by id and config path', async () => {
    const store = createFlowStore({ registry, mode: 'workflow', freeze: false });
    const llm = store.addNode('llm', { from: { nodeId: 'start' } })!;
    store.setTitle(llm, 'Summarise');
    const end = store.addNode('end', { from: { nodeId: llm } })!;
    store.updateConfig(end, ['outputs'], [{ name: 'answer', selector: [llm, 'text'] }]);
    render(<FlowEditor store={store} checklistDelayMs={0} />);
    act(() => store.setSelection({ nodes: [llm], edges: [] }));
    fireEvent.keyDown(screen.getByTestId('flow-editor'), { key: 'Delete' });
    const refs = await screen.findByTestId('delete-references');
    const text = refs.textContent ?? '';
    // The referencing node (an untitled end: its kind's title), its field's label, the node deleted by its title.
    expect(text).toContain('End');
    expect(text).toContain('Output variables');
    expect(text).toContain('Summarise');
    expect(text).not.toContain(llm);
    expect(text).not.toContain(end);
    expect(text).not.toContain('outputs.0');
  });
});
