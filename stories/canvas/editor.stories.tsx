import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { FlowMode } from '../../schemas/flow';
import { builtinPlugins } from '../../plugins';
import { createFlowStore, type FlowStore } from '../../src/canvas';
import { FlowEditor } from '../../src/canvas/editor';
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
  } else if (mode === 'agent') {
    step(store, 'tool', 'agent', 740, 420);
  } else {
    // agent_team: the entry agent hands off to a second agent.
    step(store, 'agent', 'agent', 740, 440);
  }
  store.setSelection({ nodes: [], edges: [] });
  return store;
}

function EditorStory({ mode, readOnly }: { mode: FlowMode; readOnly?: boolean }) {
  const [store] = useState(() => {
    const s = sampleStore(mode);
    s.setReadOnly(Boolean(readOnly));
    return s;
  });
  return (
    <div style={{ height: 640, border: '1px solid var(--color-border)' }}>
      <FlowEditor store={store} renderInspector={(id) => <p style={{ padding: 16 }} data-testid="inspector-stand-in">{id}</p>} />
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
    await waitFor(() => expect(c.getByTestId('inspector-stand-in')).toBeInTheDocument());
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
