import { cleanup, render } from '@testing-library/react';
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
