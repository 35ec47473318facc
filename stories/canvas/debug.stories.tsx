import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { featuresOf, type FlowMode } from '../../schemas/flow';
import { builtinPlugins } from '../../src/canvas/builtin-plugins';
import { createFlowStore, type FlowStore } from '../../src/canvas';
import { DebugApiContext, DebugPane } from '../../src/canvas/debug';
import { createScriptedDebugApi } from '../../src/canvas/debug/scripted-debug-api';
import { FlowEditor } from '../../src/canvas/editor';
import { createNodeRegistry } from '../../src/plugin-sdk';
import { Toaster } from '../../src/ui/toast';

/**
 * The debug pane beside the canvas, against a scripted event stream (no server): the chat streams its
 * reply word by word while the canvas nodes light up; the workflow runs an iteration of two rounds.
 */

const registry = createNodeRegistry(builtinPlugins);

interface Built {
  store: FlowStore;
  chatIds: { start: string; llm: string; answer: string };
  workflowIds: { start: string; iteration: string; code: string; http: string; end: string };
}

/** A chatflow start → llm → answer, or a workflow start → iteration (code inside) → end with an unused http node. */
function buildFlow(mode: FlowMode): Built {
  const store = createFlowStore({ registry, mode });
  store.updateConfig('start', ['variables'], [{ name: 'topic', label: 'Topic', type: 'text', required: true, options: [], allowed_extensions: [] }]);
  const chatIds = { start: 'start', llm: 'llm', answer: 'answer' };
  const workflowIds = { start: 'start', iteration: 'iteration', code: 'code', http: 'http', end: 'end' };
  if (mode === 'workflow') {
    const doc = store.getState().document;
    store.deleteEdges(doc.edges.map((e) => e.id));
    store.moveNodes({ end: { x: 1100, y: 240 } });
    const iteration = store.addNode('iteration', { position: { x: 380, y: 160 }, from: { nodeId: 'start' } })!;
    const inner = store.getState().document.nodes.find((n) => n.parentId === iteration)!;
    const code = store.addNode('code', { parentId: iteration, from: { nodeId: inner.id }, position: { x: 220, y: 60 } })!;
    const http = store.addNode('http-request', { position: { x: 380, y: 480 } })!;
    store.connect({ source: iteration, target: 'end' });
    Object.assign(workflowIds, { iteration, code, http });
  } else if (mode !== 'chatflow') {
    // Agent modes: the default flow's agent node is where the reply comes from.
    chatIds.llm = 'agent';
  } else {
    store.deleteEdges(store.getState().document.edges.map((e) => e.id));
    store.moveNodes({ answer: { x: 760, y: 240 } });
    const llm = store.addNode('llm', { position: { x: 420, y: 240 }, from: { nodeId: 'start' } })!;
    store.connect({ source: llm, target: 'answer' });
    chatIds.llm = llm;
  }
  store.setSelection({ nodes: [], edges: [] });
  return { store, chatIds, workflowIds };
}

function DebugStory({ mode, failing, opening }: { mode: FlowMode; failing?: boolean; opening?: boolean }) {
  const [{ store, api }] = useState(() => {
    const built = buildFlow(mode);
    if (opening) {
      built.store.edit((d) => {
        d.features = {
          ...featuresOf({}),
          opening_statement: 'Hello! I know the weather of every city. Ask away.',
          suggested_questions: ['Will it rain today?', 'Is it windy in Oslo?', 'Do I need a coat?', 'When does the sun set?'],
          suggested_questions_random_count: 3,
        };
      });
    }
    return { store: built.store, api: createScriptedDebugApi({ delayMs: 80, failing, chatIds: built.chatIds, workflowIds: built.workflowIds }) };
  });
  return (
    <DebugApiContext value={api}>
      <div style={{ display: 'flex', height: 680, border: '1px solid var(--color-border)' }}>
        <FlowEditor store={store} className="story-editor" />
        <DebugPane store={store} appId="app-story" workspaceId="ws-story" />
      </div>
      <Toaster />
    </DebugApiContext>
  );
}

const meta = {
  title: 'Canvas/Debug pane',
  component: DebugStory,
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<typeof DebugStory>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Chatflow: fill the input, send, watch the reply stream and the nodes' status; open the trace. */
export const Chatflow: Story = {
  args: { mode: 'chatflow' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(within(await c.findByTestId('run-field-topic')).getByRole('textbox'), 'weather');
    await userEvent.type(c.getByTestId('chat-input'), 'Will it rain?');
    await userEvent.click(c.getByTestId('chat-send'));
    await waitFor(() => expect(c.getByTestId('chat-answer-text')).toHaveTextContent('You said'), { timeout: 8000 });
    await waitFor(() => expect(c.getByTestId('chat-send')).toBeInTheDocument(), { timeout: 8000 });
    await expect(c.getByTestId('node-answer')).toHaveAttribute('data-run-status', 'succeeded');
    await userEvent.click(within(c.getByTestId('chat-trace')).getByText('Show trace'));
    await expect(c.getAllByTestId(/^trace-item-/).length).toBeGreaterThanOrEqual(3);
  },
};

/** The app's features: a new conversation opens with the opening statement and three of the four questions; a click asks one. */
export const OpeningAndSuggestions: Story = {
  args: { mode: 'chatflow', opening: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByTestId('chat-opening')).toHaveTextContent('Hello! I know the weather');
    await expect(within(c.getByTestId('chat-suggestions')).getAllByRole('button')).toHaveLength(3);
  },
};

/** Agent mode: the default flow start → agent → answer. */
export const Agent: Story = { args: { mode: 'agent' } };

/** Workflow: the start form, run, outputs and the iteration unfolded by round. */
export const Workflow: Story = {
  args: { mode: 'workflow' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(within(await c.findByTestId('run-field-topic')).getByRole('textbox'), 'sales');
    await userEvent.click(c.getByTestId('workflow-run'));
    await expect(await c.findByTestId('workflow-outputs', {}, { timeout: 8000 })).toHaveTextContent('"A"');
    await expect(c.getByTestId('trace-round-1')).toBeInTheDocument();
  },
};

/** A run that fails at the model node: the error shows on the answer and in the trace. */
export const FailingRun: Story = { args: { mode: 'chatflow', failing: true } };
