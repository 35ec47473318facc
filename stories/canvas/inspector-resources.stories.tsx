import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { FlowStoreProvider } from '../../src/canvas';
import { NodeInspector, SingleRunApiContext, singleRunMemory, type SingleRunApi, type SingleRunState } from '../../src/canvas/inspector';
import { ModelListContext, WorkspaceResourcesContext } from '../../src/canvas/widgets';
import { flowFor, sampleModels, sampleResources } from '../../src/canvas/widgets/test-flow.fixture';

/**
 * The inspector with the workspace's resources and "Run this node": a tool node whose chosen
 * function fills its parameters, and a code node run alone (scripted answers; the editor route
 * gives the real API).
 */
const meta = {
  title: 'Canvas/NodeInspector/Resources and single run',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

/** A code node reading the start's question. */
function codeFlow() {
  const { store, nodeId } = flowFor('code');
  store.updateConfig(nodeId, ['inputs'], [{ name: 'text', selector: ['start', 'query_text'] }]);
  return { store, nodeId };
}

/** Answers after a moment with the text shouted back; `never` keeps it running. */
const scriptedApi = (scope: string, answer: 'ok' | 'fail' | 'never' = 'ok'): SingleRunApi => ({
  scope,
  prepare: async () => null,
  run: (_node, inputs, signal) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')));
      if (answer === 'never') return;
      setTimeout(() => {
        const text = String(inputs['start.query_text'] ?? '');
        resolve(
          answer === 'ok'
            ? { runId: 'r1', status: 'succeeded', inputs: { text }, outputs: { result: text.toUpperCase() }, elapsedMs: 38, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } }
            : {
                runId: 'r2',
                status: 'failed',
                inputs: { text },
                outputs: {},
                error: { code: 'CODE-RUNTIME-ERROR', message: 'ReferenceError: x is not defined' },
                elapsedMs: 12,
                usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
              },
        );
      }, 150);
    }),
  stop: async () => false,
});

function Demo({ kind, api, seed }: { kind: 'tool' | 'code'; api?: SingleRunApi; seed?: { texts: Record<string, string>; state: SingleRunState } }) {
  const [{ store, nodeId }] = useState(() => {
    const flow = kind === 'code' ? codeFlow() : flowFor(kind);
    if (api && seed) singleRunMemory.update(api.scope, flow.nodeId, seed);
    return flow;
  });
  return (
    <FlowStoreProvider store={store}>
      <ModelListContext.Provider value={{ models: sampleModels }}>
        <WorkspaceResourcesContext.Provider value={sampleResources}>
          <SingleRunApiContext.Provider value={api ?? null}>
            <div style={{ width: 440, border: '1px solid var(--color-border)', borderRadius: 8 }}>
              <NodeInspector nodeId={nodeId} />
            </div>
          </SingleRunApiContext.Provider>
        </WorkspaceResourcesContext.Provider>
      </ModelListContext.Provider>
    </FlowStoreProvider>
  );
}

/** Choosing a tool's function lists its parameters and fills the params form with them. */
export const ToolFunctionParameters: StoryObj = {
  render: () => <Demo kind="tool" />,
  play: async ({ canvasElement }) => {
    const field = (name: string) => within(canvasElement.querySelector(`[data-field="${name}"]`) as HTMLElement);
    // The kit's Selects: open each, then pick the option by its label (a listbox in a portal).
    await userEvent.click(await field('toolId').findByRole('combobox', { name: 'Tool' }));
    await userEvent.click(await within(document.body).findByRole('option', { name: 'Weather' }));
    await userEvent.click(await field('toolId').findByRole('combobox', { name: 'Tool function' }));
    await userEvent.click(await within(document.body).findByRole('option', { name: /^current/i }));
    await waitFor(() => expect(field('toolId').getByRole('list', { name: 'Parameters of the function' })).toHaveTextContent(/city.*required/));
    await waitFor(() => expect(field('params').getAllByRole('textbox', { name: 'Variable name' })).toHaveLength(2));
  },
};

/** A code node run alone: type the input, run, see the outputs. */
export const SingleRun: StoryObj = {
  render: () => <Demo kind="code" api={scriptedApi('story-run')} />,
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByText('Run this node'));
    await userEvent.type(canvas.getByRole('textbox', { name: 'Value of start.query_text' }), 'hello');
    await userEvent.click(canvas.getByTestId('single-run-start'));
    const result = await canvas.findByTestId('single-run-result');
    await expect(result).toHaveAttribute('data-status', 'succeeded');
    await expect(within(result).getByTestId('single-run-outputs')).toHaveTextContent('"result": "HELLO"');
  },
};

/** Still running: Stop instead of Run. */
export const SingleRunRunning: StoryObj = {
  render: () => <Demo kind="code" api={scriptedApi('story-running', 'never')} seed={{ texts: { 'start.query_text': 'slow' }, state: { status: 'idle' } }} />,
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByTestId('single-run-start'));
    await expect(await canvas.findByTestId('single-run-stop')).toBeVisible();
  },
};

/** The last run failed: its status and error code, the inputs kept. */
export const SingleRunFailed: StoryObj = {
  render: () => (
    <Demo
      kind="code"
      api={scriptedApi('story-failed', 'fail')}
      seed={{
        texts: { 'start.query_text': 'hello' },
        state: {
          status: 'done',
          result: {
            runId: 'r2',
            status: 'failed',
            inputs: { text: 'hello' },
            outputs: {},
            error: { code: 'CODE-RUNTIME-ERROR', message: 'ReferenceError: x is not defined' },
            elapsedMs: 12,
            usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
          },
        },
      }}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByTestId('single-run-error')).toHaveTextContent('CODE-RUNTIME-ERROR');
    await expect(canvas.getByRole('textbox', { name: 'Value of start.query_text' })).toHaveValue('hello');
  },
};
