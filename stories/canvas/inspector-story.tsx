import type { StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect } from 'storybook/test';
import { FlowStoreProvider } from '../../src/canvas';
import { NodeInspector } from '../../src/canvas/inspector';
import { ModelListContext, WorkspaceResourcesContext } from '../../src/canvas/widgets';
import { expectedFields, flowFor, sampleModels, sampleResources } from '../../src/canvas/widgets/test-flow.fixture';

/**
 * Story helpers of the node inspector, for each kind's story in its folder
 * (plugins/<kind>/<kind>.stories.tsx): a small flow around one node of the kind (start → llm → the
 * node, see test-flow.fixture.ts), a model list and workspace resources for the pickers. Sample
 * data for stories only; the editor route provides the real ones.
 */

type Setup = (store: ReturnType<typeof flowFor>['store'], nodeId: string) => void;

function InspectorDemo({ kind, setup }: { kind: string; setup?: Setup }) {
  const [{ store, nodeId }] = useState(() => {
    const made = flowFor(kind);
    setup?.(made.store, made.nodeId);
    return made;
  });
  return (
    <FlowStoreProvider store={store}>
      <ModelListContext.Provider value={{ models: sampleModels }}>
        <WorkspaceResourcesContext.Provider value={sampleResources}>
          <div style={{ width: 440, border: '1px solid var(--color-border)', borderRadius: 8 }}>
            <NodeInspector nodeId={nodeId} />
          </div>
        </WorkspaceResourcesContext.Provider>
      </ModelListContext.Provider>
    </FlowStoreProvider>
  );
}

/** The story of one kind: the inspector renders every field of its settings tab (`setup` edits the node first). */
export function inspectorStory(kind: string, setup?: Setup): StoryObj {
  return {
    name: kind,
    render: () => <InspectorDemo kind={kind} setup={setup} />,
    play: async ({ canvas, canvasElement }) => {
      const panel = await canvas.findByRole('complementary', { name: /^Node settings/ });
      await expect(panel).toBeVisible();
      const fields = expectedFields(kind);
      for (const name of fields) await expect(canvasElement.querySelector(`[data-field="${name}"]`)).not.toBeNull();
      if (!fields.length) await expect(canvasElement.querySelector('[data-slot="schema-form"]')).not.toBeNull();
    },
  };
}
