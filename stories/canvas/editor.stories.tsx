import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { FlowMode } from '../../schemas/flow';
import { builtinPlugins } from '../../src/canvas/builtin-plugins';
import { createFlowStore, type FlowStore } from '../../src/canvas';
import { FlowEditor, paletteGroups } from '../../src/canvas/editor';
import { createMemoryFlowImport } from '../../src/canvas/editor/memory-flow-import';
import { NodeInspector } from '../../src/canvas/inspector';
import { ModelListContext, WorkspaceResourcesContext, type ModelList, type WorkspaceResources } from '../../src/canvas/widgets';
import { createNodeRegistry } from '../../src/plugin-sdk';
import { Toaster } from '../../src/ui/toast';

const registry = createNodeRegistry(builtinPlugins);

/** Adds `kind` after `from` (as the "+" of a handle does) at a given place. */
function step(store: FlowStore, kind: string, from: string | undefined, x: number, y: number, handleId?: string, parentId?: string): string {
  const id = store.addNode(kind, { position: { x, y }, ...(from ? { from: { nodeId: from, handleId } } : {}), ...(parentId ? { parentId } : {}) });
  if (!id) throw new Error(`${kind} cannot be added to this flow`);
  return id;
}

/** A sample flow of each mode, built from the built-in node kinds through the store's own operations. */
function sampleStore(mode: FlowMode): FlowStore {
  const store = createFlowStore({ registry, mode });
  const doc = store.getState().document;
  const first = doc.nodes[0].id;
  if (mode === 'workflow') {
    // start → llm → if-else → (template transform | http request); iteration with a code step inside; a note.
    store.deleteEdges(doc.edges.map((e) => e.id));
    store.moveNodes({ end: { x: 1460, y: 240 } });
    const llm = step(store, 'llm', first, 380, 240);
    const branch = step(store, 'if-else', llm, 680, 240);
    const handles = registry.sourceHandlesOf(store.getState().document.nodes.find((n) => n.id === branch)!);
    const tt = step(store, 'template-transform', branch, 1000, 180, handles[0]?.id);
    step(store, 'http-request', branch, 1000, 360, handles[handles.length - 1]?.id);
    store.connect({ source: tt, target: 'end' });
    const loop = step(store, 'iteration', undefined, 380, 480);
    const inner = store.getState().document.nodes.find((n) => n.parentId === loop)!;
    step(store, 'code', inner.id, 340, 80);
    const note = step(store, 'note', undefined, 80, 40);
    store.updateConfig(note, ['text'], 'A sample workflow: branches, an iteration, a note.');
  } else if (mode === 'chatflow') {
    store.deleteEdges(doc.edges.map((e) => e.id));
    store.moveNodes({ answer: { x: 1100, y: 240 } });
    const kr = step(store, 'knowledge-retrieval', first, 380, 240);
    const llm = step(store, 'llm', kr, 740, 240);
    store.connect({ source: llm, target: 'answer' });
    // The LLM reads the retrieval's result as its context (a reference a delete would break).
    store.updateConfig(llm, ['contextEnabled'], true);
    store.updateConfig(llm, ['context'], [kr, 'result']);
    store.updateConfig(llm, ['prompts'], [{ role: 'system', text: 'Answer from {{#context#}}' }, { role: 'user', text: '{{#sys.query#}}' }]);
  } else if (mode === 'agent') {
    step(store, 'tool', 'agent', 740, 420);
  } else {
    // agent_team: the entry agent hands off to a second agent.
    step(store, 'agent', 'agent', 740, 440);
  }
  store.setSelection({ nodes: [], edges: [] });
  return store;
}

/** One node of every kind the palette offers in `mode`, in a grid: each kind's body on the canvas. */
function everyKindStore(mode: FlowMode): FlowStore {
  const store = createFlowStore({ registry, mode });
  const kinds = paletteGroups(registry, mode, '', (k) => k).flatMap((g) => g.plugins.map((p) => p.kind));
  kinds.forEach((kind, i) => step(store, kind, undefined, 40 + (i % 4) * 360, 200 + Math.floor(i / 4) * 260));
  store.setSelection({ nodes: [], edges: [] });
  return store;
}

const models: ModelList = { models: [{ provider: 'openai', model: 'gpt-4o-mini' }, { provider: 'anthropic', model: 'claude-sonnet-4', label: 'Claude Sonnet 4' }] };
const resources: WorkspaceResources = {
  knowledgeBases: { list: async () => [{ id: 'kb-1', name: 'Product handbook', description: '120 documents' }] },
  tools: { list: async () => [{ id: 'tool-1', name: 'Weather', functions: [{ id: 'current', name: 'Current weather' }] }] },
};

function EditorStory({ mode, readOnly, everyKind }: { mode: FlowMode; readOnly?: boolean; everyKind?: boolean }) {
  const [store] = useState(() => {
    const s = everyKind ? everyKindStore(mode) : sampleStore(mode);
    s.setReadOnly(Boolean(readOnly));
    return s;
  });
  // The toolbar's import against an in-memory server (the real one replaces the app's draft).
  const [importer] = useState(() => createMemoryFlowImport(store));
  return (
    <div style={{ height: 640, border: '1px solid var(--color-border)' }}>
      <ModelListContext.Provider value={models}>
        <WorkspaceResourcesContext.Provider value={resources}>
          <FlowEditor
            store={store}
            flowFile={{ name: `Sample ${mode}`, description: 'A story' }}
            importer={importer}
            renderInspector={(id) => <NodeInspector nodeId={id} onClose={() => store.setSelection({ nodes: [], edges: [] })} />}
          />
        </WorkspaceResourcesContext.Provider>
      </ModelListContext.Provider>
      <Toaster />
    </div>
  );
}

const meta = {
  title: 'Canvas/Flow editor',
  component: EditorStory,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof EditorStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Workflow: Story = {
  args: { mode: 'workflow' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByTestId('node-llm_1')).toBeVisible());
    expect(c.getByTestId('node-iteration_1')).toBeInTheDocument();
    expect(c.getByTestId('node-code_1')).toBeInTheDocument();
    // The palette offers workflow kinds only (no answer node in a workflow).
    await userEvent.click(c.getByTestId('toolbar-add-node'));
    expect(c.getByTestId('palette-item-end')).toBeInTheDocument();
    expect(c.queryByTestId('palette-item-answer')).toBeNull();
    // The checklist lists what stops the run and selects the node clicked.
    await userEvent.click(c.getByTestId('toolbar-checklist'));
    const panel = c.getByTestId('checklist-panel');
    await waitFor(() => expect(within(panel).getAllByRole('button').length).toBeGreaterThan(1));
    await userEvent.click(within(panel).getAllByTestId(/^checklist-entry-/)[0]);
    // The clicked node opens in the inspector.
    await waitFor(() => expect(c.getByTestId('inspector-slot').querySelector('[data-slot="node-inspector"]')).not.toBeNull());
  },
};

/** The inspector of an LLM node beside the canvas, its model list from `ModelListContext`. */
export const WithInspector: Story = {
  args: { mode: 'workflow' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByTestId('node-title-llm_1'));
    const inspector = await c.findByTestId('inspector-slot');
    // The model picker is the kit's Select: its options show once it is opened.
    await waitFor(() => expect(inspector.querySelector('[data-field="model"] [role="combobox"]')).not.toBeNull());
    await userEvent.click(inspector.querySelector('[data-field="model"] [role="combobox"]') as HTMLElement);
    await waitFor(() => expect(within(document.body).getByRole('option', { name: 'Claude Sonnet 4 · anthropic' })).toBeInTheDocument());
    await userEvent.keyboard('{Escape}');
  },
};

/** Environment variables through the toolbar dialog: added, saved, and taken back with undo. */
export const EnvironmentVariables: Story = {
  args: { mode: 'chatflow' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await c.findByTestId('toolbar-env-variables'));
    const dialog = await body.findByTestId('variables-dialog-env');
    await userEvent.click(within(dialog).getByTestId('variable-add'));
    await userEvent.type(within(dialog).getByTestId('variable-name'), 'region');
    await userEvent.type(within(dialog).getByTestId('variable-value'), 'eu-west');
    await userEvent.click(within(dialog).getByTestId('variables-save'));
    await waitFor(() => expect(body.queryByTestId('variables-dialog-env')).toBeNull());
    await userEvent.click(c.getByTestId('toolbar-env-variables'));
    await waitFor(() => expect(within(body.getByTestId('variables-dialog-env')).getByTestId('variable-name')).toHaveValue('region'));
    // Chat modes also have conversation variables.
    expect(c.getByTestId('toolbar-conversation-variables')).toBeInTheDocument();
  },
};

/** Deleting a node other nodes read from asks first and lists every reference that would break. */
export const DeleteWithReferences: Story = {
  args: { mode: 'chatflow' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await c.findByTestId('node-title-knowledge-retrieval_1'));
    await userEvent.keyboard('{Delete}');
    const refs = await body.findByTestId('delete-references');
    // Named by titles and labels ("LLM: Context uses Knowledge retrieval / result"), not by ids and paths.
    expect(refs.textContent).toContain(' / result');
    expect(refs.textContent).not.toContain('{{#');
    await userEvent.click(body.getByTestId('delete-cancel'));
    expect(c.getByTestId('node-knowledge-retrieval_1')).toBeInTheDocument();
  },
};

/** Every workflow kind's node body on the canvas. */
export const EveryKindWorkflow: Story = {
  args: { mode: 'workflow', everyKind: true },
  play: async ({ canvasElement }) => {
    const kinds = paletteGroups(registry, 'workflow', '', (k) => k).flatMap((g) => g.plugins.map((p) => p.kind));
    await waitFor(() => kinds.forEach((k) => expect(canvasElement.querySelector(`[data-kind="${k}"]`)).not.toBeNull()));
  },
};

/** Every chatflow kind's node body on the canvas (answer, conversation kinds). */
export const EveryKindChatflow: Story = {
  args: { mode: 'chatflow', everyKind: true },
  play: async ({ canvasElement }) => {
    const kinds = paletteGroups(registry, 'chatflow', '', (k) => k).flatMap((g) => g.plugins.map((p) => p.kind));
    await waitFor(() => kinds.forEach((k) => expect(canvasElement.querySelector(`[data-kind="${k}"]`)).not.toBeNull()));
  },
};

export const Chatflow: Story = {
  args: { mode: 'chatflow' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByTestId('node-knowledge-retrieval_1')).toBeVisible());
    await userEvent.click(c.getByTestId('toolbar-add-node'));
    expect(c.getByTestId('palette-item-answer')).toBeInTheDocument();
    expect(c.queryByTestId('palette-item-end')).toBeNull();
  },
};

export const Agent: Story = {
  args: { mode: 'agent' },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(within(canvasElement).getByTestId('node-agent')).toBeVisible());
  },
};

export const AgentTeam: Story = {
  args: { mode: 'agent_team' },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(within(canvasElement).getByTestId('node-agent_1')).toBeVisible());
  },
};

export const ReadOnly: Story = {
  args: { mode: 'workflow', readOnly: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByTestId('node-llm_1')).toBeVisible());
    expect(c.queryByTestId('toolbar-add-node')).toBeNull();
    expect(c.queryByTestId('add-next-llm_1-source')).toBeNull();
  },
};
