import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/request';
import { i18n, initI18n } from '../../i18n';
import { FlowStoreProvider } from '../react/flow-store-context';
import { makeBuiltinStore } from '../widgets/test-flow.fixture';
import { NodeInspector } from './node-inspector';
import { createSingleRunMemory, type SingleRunMemory, type SingleRunResult } from './single-run';
import { SingleRunApiContext, type SingleRunApi } from './single-run-api';
import { SingleRunSection } from './single-run-section';

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

const result = (over: Partial<SingleRunResult> = {}): SingleRunResult => ({
  runId: 'r1',
  status: 'succeeded',
  inputs: { a: 'hello' },
  outputs: { result: 'HELLO' },
  elapsedMs: 42,
  usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
  ...over,
});

let scopes = 0;

/** A scripted API whose run waits until the test settles it (its own memory scope each time). */
function scripted() {
  let settle: { resolve(r: SingleRunResult): void; reject(e: unknown): void } | undefined;
  const api: SingleRunApi & { run: ReturnType<typeof vi.fn>; stop: ReturnType<typeof vi.fn>; prepare: ReturnType<typeof vi.fn> } = {
    scope: `app${++scopes}`,
    prepare: vi.fn(async () => null),
    run: vi.fn((_node: string, _inputs: Record<string, unknown>) => new Promise<SingleRunResult>((resolve, reject) => (settle = { resolve, reject }))),
    stop: vi.fn(async () => true),
  };
  return { api, settle: () => settle! };
}

/** The fixture's code node (inside an iteration) reading the start's question and the llm's text. */
function codeStore() {
  const store = makeBuiltinStore();
  store.updateConfig('code_1', ['inputs'], [
    { name: 'q', selector: ['start', 'q'] },
    { name: 'n', selector: ['start', 'n'] },
    { name: 'usage', selector: ['llm_1', 'usage'] },
  ]);
  return store;
}

/** The inspector (with the page-wide memory) on a node of the fixture flow. */
function show(api: SingleRunApi | null, nodeId = 'code_1') {
  const store = codeStore();
  const ui = (
    <FlowStoreProvider store={store}>
      <SingleRunApiContext.Provider value={api}>
        <NodeInspector nodeId={nodeId} />
      </SingleRunApiContext.Provider>
    </FlowStoreProvider>
  );
  return { store, ...render(ui), ui };
}

const section = () => screen.getByTestId('single-run');

describe('run this node', () => {
  it('asks for each variable the node reads, runs it with them and shows status, time, tokens and outputs', async () => {
    const user = userEvent.setup();
    const { api, settle } = scripted();
    show(api);
    await user.click(within(section()).getByText('Run this node'));
    const fields = within(section()).getAllByRole('textbox');
    expect(fields.map((f) => f.getAttribute('aria-label'))).toEqual(['Value of start.q', 'Value of start.n', 'Value of llm_1.usage']);
    expect(within(section()).getByTestId('single-run-field-start.q')).toHaveTextContent('Start / qString');
    await user.type(fields[0], 'hello');
    await user.type(fields[1], '3');
    await user.click(within(section()).getByTestId('single-run-start'));
    await waitFor(() => expect(api.run).toHaveBeenCalledTimes(1));
    expect(api.prepare).toHaveBeenCalled();
    // An empty field is left out.
    expect(api.run.mock.calls[0].slice(0, 2)).toEqual(['code_1', { 'start.q': 'hello', 'start.n': 3 }]);
    expect(within(section()).getByRole('status')).toHaveTextContent('Running…');
    expect(within(section()).getByTestId('single-run-stop')).toBeInTheDocument();
    settle().resolve(result());
    const shown = await within(section()).findByTestId('single-run-result');
    expect(shown).toHaveAttribute('data-status', 'succeeded');
    expect(within(shown).getByTestId('run-status')).toHaveTextContent('Succeeded');
    expect(within(shown).getByTestId('single-run-elapsed')).toHaveTextContent('42 ms');
    expect(within(shown).getByTestId('single-run-tokens')).toHaveTextContent('7 tokens');
    expect(within(shown).getByTestId('single-run-outputs')).toHaveTextContent('"result": "HELLO"');
    expect(within(section()).getByTestId('single-run-start')).toHaveTextContent('Run again');
  });

  it('names a value that does not parse and sends nothing', async () => {
    const user = userEvent.setup();
    const { api } = scripted();
    show(api);
    await user.click(within(section()).getByText('Run this node'));
    await user.type(within(section()).getByRole('textbox', { name: 'Value of start.n' }), 'three');
    await user.type(within(section()).getByRole('textbox', { name: 'Value of llm_1.usage' }), '{{oops');
    await user.click(within(section()).getByTestId('single-run-start'));
    expect(await within(section()).findByText('start.n is not a number')).toBeInTheDocument();
    expect(within(section()).getByText('llm_1.usage is not valid JSON')).toBeInTheDocument();
    expect(api.run).not.toHaveBeenCalled();
  });
});

describe('the run section alone', () => {
  function alone(api: SingleRunApi, memory: SingleRunMemory) {
    const store = codeStore();
    const node = store.registry.normalizeNode(store.toDocument().nodes.find((n) => n.id === 'code_1')!);
    const ui = (
      <SingleRunApiContext.Provider value={api}>
        <SingleRunSection registry={store.registry} node={node} variables={[]} typeOf={() => 'string'} memory={memory} />
      </SingleRunApiContext.Provider>
    );
    return render(ui);
  }

  it('stops a run: the server stops it and the result says so with its code', async () => {
    const user = userEvent.setup();
    const { api, settle } = scripted();
    api.stop.mockImplementation(async () => {
      settle().resolve(result({ status: 'stopped', outputs: {}, error: { code: 'RUN-CANCELLED', message: 'The run was stopped' } }));
      return true;
    });
    alone(api, createSingleRunMemory());
    await user.click(screen.getByText('Run this node'));
    await user.click(screen.getByTestId('single-run-start'));
    await user.click(await screen.findByTestId('single-run-stop'));
    expect(api.stop).toHaveBeenCalledWith('code_1');
    const shown = await screen.findByTestId('single-run-result');
    expect(shown).toHaveAttribute('data-status', 'stopped');
    expect(within(shown).getByTestId('single-run-error')).toHaveTextContent('RUN-CANCELLED The run was stopped');
  });

  it('gives up waiting when nothing was found to stop', async () => {
    const user = userEvent.setup();
    const { api } = scripted();
    api.run.mockImplementation((_n: string, _i: Record<string, unknown>, signal: AbortSignal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))));
    api.stop.mockResolvedValue(false);
    alone(api, createSingleRunMemory());
    await user.click(screen.getByText('Run this node'));
    await user.click(screen.getByTestId('single-run-start'));
    await user.click(await screen.findByTestId('single-run-stop'));
    expect(await screen.findByRole('alert')).toHaveTextContent('STOPPED The run was stopped');
  });

  it('shows a refused request with its code, and an unsaved draft', async () => {
    const user = userEvent.setup();
    const { api } = scripted();
    api.run.mockRejectedValue(new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Node "x" cannot be found' }));
    alone(api, createSingleRunMemory());
    await user.click(screen.getByText('Run this node'));
    await user.click(screen.getByTestId('single-run-start'));
    expect(await screen.findByRole('alert')).toHaveTextContent('VALIDATION-1000 Node "x" cannot be found');
    api.prepare.mockResolvedValue('conflict');
    await user.click(screen.getByTestId('single-run-start'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('settle the save conflict'));
    expect(api.run).toHaveBeenCalledTimes(1);
  });

  it('remembers the inputs and the last result of the node when the inspector opens again', async () => {
    const user = userEvent.setup();
    const { api, settle } = scripted();
    const memory = createSingleRunMemory();
    const first = alone(api, memory);
    await user.click(screen.getByText('Run this node'));
    const field = screen.getAllByRole('textbox')[0];
    await user.type(field, 'kept');
    await user.click(screen.getByTestId('single-run-start'));
    settle().resolve(result({ status: 'failed', outputs: {}, error: { code: 'LLM-ERROR', message: 'no model' } }));
    await screen.findByTestId('single-run-result');
    first.unmount();
    alone(api, memory);
    // It opens by itself on what was left.
    expect(screen.getByTestId('single-run')).toHaveAttribute('open');
    expect(screen.getAllByRole('textbox')[0]).toHaveValue('kept');
    expect(screen.getByTestId('single-run-result')).toHaveAttribute('data-status', 'failed');
    expect(screen.getByTestId('single-run-error')).toHaveTextContent('LLM-ERROR no model');
  });

  it('starts afresh for another node: its own inputs and result', async () => {
    const user = userEvent.setup();
    const { api, settle } = scripted();
    const store = codeStore();
    const ui = (nodeId: string) => (
      <FlowStoreProvider store={store}>
        <SingleRunApiContext.Provider value={api}>
          <NodeInspector nodeId={nodeId} />
        </SingleRunApiContext.Provider>
      </FlowStoreProvider>
    );
    const { rerender } = render(ui('code_1'));
    await user.click(screen.getByText('Run this node'));
    await user.type(screen.getByRole('textbox', { name: 'Value of start.q' }), 'x');
    await user.click(screen.getByTestId('single-run-start'));
    settle().resolve(result());
    await screen.findByTestId('single-run-result');
    rerender(ui('llm_1'));
    expect(screen.getByTestId('single-run')).not.toHaveAttribute('open');
    expect(screen.queryByTestId('single-run-result')).not.toBeInTheDocument();
    rerender(ui('code_1'));
    expect(screen.getByTestId('single-run')).toHaveAttribute('open');
    expect(screen.getByRole('textbox', { name: 'Value of start.q' })).toHaveValue('x');
  });

  it('is absent without an API and for kinds that do not run alone', () => {
    show(null);
    expect(screen.queryByTestId('single-run')).not.toBeInTheDocument();
    cleanup();
    show(scripted().api, 'start');
    expect(screen.queryByTestId('single-run')).not.toBeInTheDocument();
  });
});
