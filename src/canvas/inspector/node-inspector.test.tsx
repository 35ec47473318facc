import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, setConfig } from '../../app/config';
import { i18n, initI18n } from '../../i18n';
import { FlowStoreProvider } from '../react/flow-store-context';
import type { FlowStore } from '../store/create-flow-store';
import { ModelListContext } from '../widgets/context';
import { optionLabels, pickOption } from '../widgets/inspector.fixture';
import { makeBuiltinStore } from '../widgets/test-flow.fixture';
import { NodeInspector } from './node-inspector';

// Radix's Switch measures itself; jsdom has no ResizeObserver.
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

const models = [
  { provider: 'openai', model: 'gpt-4o', label: 'GPT-4o' },
  { provider: 'local', model: 'qwen2.5' },
];

function renderInspector(store: FlowStore, nodeId: string) {
  return render(
    <FlowStoreProvider store={store}>
      <ModelListContext.Provider value={{ models }}>
        <NodeInspector nodeId={nodeId} />
      </ModelListContext.Provider>
    </FlowStoreProvider>,
  );
}

const config = (store: FlowStore, id: string) => store.toDocument().nodes.find((n) => n.id === id)!.config as Record<string, never>;

describe('NodeInspector on an llm node', () => {
  it('shows the kind, its issues at their fields, and edits the model through the store', async () => {
    const store = makeBuiltinStore();
    const user = userEvent.setup();
    renderInspector(store, 'llm_1');
    expect(screen.getByRole('textbox', { name: 'Node name' })).toHaveAttribute('placeholder', 'LLM');
    expect(screen.getByText('Calls a large language model with your prompts')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Output variables' })).getAllByRole('listitem').map((li) => li.querySelector('code')?.textContent)).toEqual([
      'text',
      'reasoning_content',
      'usage',
      'prompt_tokens',
      'completion_tokens',
      'total_tokens',
    ]);
    const modelField = document.querySelector('[data-field="model"]') as HTMLElement;
    expect(within(modelField).getByRole('alert')).toHaveTextContent('Choose a model');
    expect(within(document.querySelector('[data-field="prompts"]') as HTMLElement).getByRole('alert')).toHaveTextContent('The prompt is empty');

    await pickOption(user, within(modelField).getByRole('combobox', { name: 'Model' }), 'GPT-4o · openai');
    expect(config(store, 'llm_1').model).toMatchObject({ provider: 'openai', name: 'gpt-4o' });
    expect(within(modelField).queryByRole('alert')).not.toBeInTheDocument();

    // Completion parameters: switching one on gives it a value in its range.
    await user.click(within(modelField).getByRole('switch', { name: 'Use Max tokens' }));
    expect((config(store, 'llm_1').model as { params: { max_tokens?: number } }).params.max_tokens).toBeGreaterThan(0);
  });

  it('merges typing in a prompt into one undo step, and undo restores the text', async () => {
    const store = makeBuiltinStore();
    const user = userEvent.setup();
    renderInspector(store, 'llm_1');
    const system = screen.getByRole('textbox', { name: 'Message 1 (System)' });
    await user.type(system, 'Be brief');
    expect((config(store, 'llm_1').prompts as { text: string }[])[0].text).toBe('Be brief');
    expect(system).toHaveValue('Be brief');
    act(() => void store.undo());
    expect((config(store, 'llm_1').prompts as { text: string }[])[0].text).toBe('');
    expect(screen.getByRole('textbox', { name: 'Message 1 (System)' })).toHaveValue('');
    act(() => void store.redo());
    expect(screen.getByRole('textbox', { name: 'Message 1 (System)' })).toHaveValue('Be brief');
  });

  it('completes a variable reference typed with {', async () => {
    const store = makeBuiltinStore();
    const user = userEvent.setup();
    renderInspector(store, 'llm_1');
    const userMsg = screen.getByRole('textbox', { name: 'Message 2 (User)' });
    await user.type(userMsg, 'Answer {{{{#start.q');
    const list = screen.getByRole('listbox', { name: 'Available variables' });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual([expect.stringContaining('q')]);
    await user.keyboard('{Enter}');
    expect((config(store, 'llm_1').prompts as { text: string }[])[1].text).toBe('Answer {{#start.q#}}');
  });

  it('edits the node title with undo, and keeps run settings in their own tab', async () => {
    const store = makeBuiltinStore();
    const user = userEvent.setup();
    renderInspector(store, 'llm_1');
    await user.type(screen.getByRole('textbox', { name: 'Node name' }), 'Writer');
    expect(store.toDocument().nodes.find((n) => n.id === 'llm_1')!.title).toBe('Writer');
    act(() => void store.undo());
    expect(screen.getByRole('textbox', { name: 'Node name' })).toHaveValue('');

    expect(screen.queryByText('On error')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Errors and retries' }));
    expect(screen.getByText('On error')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Retry on failure' }));
    expect(config(store, 'llm_1').retryEnabled).toBe(true);
  });

  it('says when no model is configured', () => {
    const store = makeBuiltinStore();
    render(
      <FlowStoreProvider store={store}>
        <NodeInspector nodeId="llm_1" />
      </FlowStoreProvider>,
    );
    expect(screen.getByText('No model configured, ask an admin to add one in System > Models')).toBeInTheDocument();
  });
});

describe('NodeInspector on an if-else node', () => {
  it('builds a condition: variable, operators for its type, value, and adds an ELIF branch', async () => {
    const store = makeBuiltinStore();
    const user = userEvent.setup();
    renderInspector(store, 'if-else_1');
    const cases = document.querySelector('[data-field="cases"]') as HTMLElement;
    expect(within(cases).getByRole('alert')).toHaveTextContent('Branch 1 has no conditions yet');
    await user.click(within(cases).getByRole('button', { name: 'Add condition' }));
    await user.click(within(cases).getByRole('button', { name: 'Variable of condition 1' }));
    const list = await screen.findByRole('listbox', { name: 'Available variables' });
    await user.click(within(within(list).getByRole('group', { name: 'Start' })).getByRole('option', { name: /^n/ }));
    const operator = within(cases).getByRole('combobox', { name: 'Operator of condition 1' });
    const ops = await optionLabels(user, operator);
    expect(ops).toEqual(expect.arrayContaining(['=', '>', '≤']));
    expect(ops).not.toContain('contains');
    await pickOption(user, operator, '>');
    await user.type(within(cases).getByRole('textbox', { name: 'Value of condition 1' }), '3');
    const first = (config(store, 'if-else_1').cases as { conditions: unknown[] }[])[0];
    expect(first.conditions).toEqual([expect.objectContaining({ selector: ['start', 'n'], operator: '>', value: '3' })]);

    await user.click(within(cases).getByRole('button', { name: 'Add ELIF' }));
    const ids = (config(store, 'if-else_1').cases as { id: string }[]).map((c) => c.id);
    expect(ids).toEqual(['true', 'case_1']);
    expect(store.registry.sourceHandlesOf(store.toDocument().nodes.find((n) => n.id === 'if-else_1')!).map((h) => h.id)).toEqual(['true', 'case_1', 'false']);
    act(() => void store.undo());
    expect((config(store, 'if-else_1').cases as unknown[]).length).toBe(1);
  });

  it("shows the server's cap under a code node's timeout, and warns when the timeout is above it", async () => {
    setConfig({ ...DEFAULT_CONFIG, sandbox: { maxTimeoutSeconds: 45 } });
    try {
      const store = makeBuiltinStore();
      const user = userEvent.setup();
      renderInspector(store, 'code_1');
      await user.click(screen.getByRole('tab', { name: 'Errors and retries' }));
      const field = document.querySelector('[data-field="timeoutSeconds"]') as HTMLElement;
      const input = within(field).getByRole('textbox', { name: 'Timeout (seconds)' });
      expect(input).toHaveValue('30');
      expect(within(field).getByTestId('sandbox-timeout-cap')).toHaveTextContent('Code runs for at most 45 s on this server');
      await user.clear(input);
      await user.type(input, '120');
      expect(config(store, 'code_1').timeoutSeconds).toBe(120);
      expect(within(field).getByTestId('sandbox-timeout-cap')).toHaveTextContent('This server stops code after 45 s, sooner than this timeout');
      expect(within(field).getByTestId('sandbox-timeout-cap')).toHaveAttribute('data-capped', 'true');
    } finally {
      setConfig(null);
    }
  });

  it('shows nothing to edit for a missing node', () => {
    renderInspector(makeBuiltinStore(), 'nope');
    expect(screen.getByText('Select a node to edit its settings')).toBeInTheDocument();
  });
});
