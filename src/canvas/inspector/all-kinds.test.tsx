import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../../i18n';
import { FlowStoreProvider } from '../react/flow-store-context';
import { ModelListContext, WorkspaceResourcesContext } from '../widgets/context';
import { expectedFields, flowFor, registry, sampleModels, sampleResources } from '../widgets/test-flow.fixture';
import { NodeInspector } from './node-inspector';

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

describe('NodeInspector for every built-in kind', () => {
  it.each(registry.plugins.map((p) => p.kind))('renders the settings of %s with translated labels', async (kind) => {
    const { store, nodeId } = flowFor(kind);
    const { container } = render(
      <FlowStoreProvider store={store}>
        <ModelListContext.Provider value={{ models: sampleModels }}>
          <WorkspaceResourcesContext.Provider value={sampleResources}>
            <NodeInspector nodeId={nodeId} />
          </WorkspaceResourcesContext.Provider>
        </ModelListContext.Provider>
      </FlowStoreProvider>,
    );
    expect(screen.getByRole('complementary', { name: /^Node settings/ })).toBeInTheDocument();
    for (const name of expectedFields(kind)) {
      const field = container.querySelector(`[data-field="${name}"]`);
      expect(field, name).not.toBeNull();
      // A label that is still an i18n key means a missing text.
      expect(field!.querySelector('label')?.textContent ?? '', name).not.toMatch(/^fields\.|^model\.|^run\./);
    }
  });
});
