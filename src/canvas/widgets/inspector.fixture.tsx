import { cleanup, render, screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { i18n, initI18n } from '../../i18n';
import { NodeInspector } from '../inspector/node-inspector';
import { FlowStoreProvider } from '../react/flow-store-context';
import { ModelListContext, WorkspaceResourcesContext, type WorkspaceResources } from './context';
import { flowFor, sampleModels, sampleResources } from './test-flow.fixture';

/**
 * The node inspector of one built-in kind, rendered for widget tests (the canvas's and a kind's own,
 * in its folder's view.test.tsx). Call {@link useInspectorTests} once per file for English texts,
 * a ResizeObserver and cleanup.
 */

// Radix Select (the kit's, in every inspector dropdown) opens on pointer events and scrolls its
// chosen item into view: jsdom has neither pointer capture nor scrollIntoView.
Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });

class NoResize {
  observe() {}
  unobserve() {}
  disconnect() {}
}

export function useInspectorTests() {
  beforeAll(async () => {
    globalThis.ResizeObserver ??= NoResize as unknown as typeof ResizeObserver;
    await initI18n('en');
    await i18n.changeLanguage('en');
  });
  afterAll(() => i18n.changeLanguage('zh'));
  afterEach(cleanup);
}

/** The inspector of a new `kind` node in a sample chatflow; `config()` reads the node's config back. */
export function showInspector(kind: string, resources: WorkspaceResources = sampleResources) {
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

type User = ReturnType<typeof userEvent.setup>;

/** Chooses `name` in one of the kit's Selects (a Radix listbox in a portal, not a native select). */
export async function pickOption(user: User, combobox: HTMLElement, name: string | RegExp) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name }));
}

/** The labels a kit Select offers, read by opening it and closing it again with Escape. */
export async function optionLabels(user: User, combobox: HTMLElement): Promise<string[]> {
  await user.click(combobox);
  const labels = (await screen.findAllByRole('option')).map((o) => o.textContent ?? '');
  await user.keyboard('{Escape}');
  return labels;
}
