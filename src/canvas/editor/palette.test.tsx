import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
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

describe('the palette and one-per-flow kinds', () => {
  it('does not offer a second start node: the item is disabled with the reason, and comes back once the start is gone', () => {
    const store = createFlowStore({ registry, mode: 'workflow', freeze: false });
    render(<FlowEditor store={store} checklistDelayMs={0} />);
    fireEvent.click(screen.getByTestId('toolbar-add-node'));
    const item = within(screen.getByTestId('palette')).getByTestId('palette-item-start');
    expect(item).toBeDisabled();
    expect(item).toHaveAttribute('draggable', 'false');
    expect(item).toHaveAccessibleDescription('The flow already has one; only one is allowed');
    fireEvent.click(item);
    expect(store.getState().document.nodes.filter((n) => n.kind === 'start')).toHaveLength(1);
    // Other kinds stay offered.
    expect(within(screen.getByTestId('palette')).getByTestId('palette-item-llm')).toBeEnabled();

    // (The start itself cannot be deleted from the canvas; an imported flow may lack one.)
    act(() => store.edit((d) => void (d.nodes = d.nodes.filter((n) => n.kind !== 'start'))));
    expect(within(screen.getByTestId('palette')).getByTestId('palette-item-start')).toBeEnabled();
  });
});
