import { describe, expect, it } from 'vitest';
import { createFlowGraph } from '../../plugin-sdk';
import { makeBuiltinStore } from './test-flow.fixture';
import { filterVariables, findVariable, listVariables } from './variables';

const setup = () => {
  const store = makeBuiltinStore();
  const graph = createFlowGraph(store.toDocument());
  return { store, graph, list: (id: string) => listVariables(store.registry, graph, id) };
};
const selectors = (groups: ReturnType<ReturnType<typeof setup>['list']>) => groups.flatMap((g) => g.options.map((o) => o.selector.join('.')));

describe('listVariables', () => {
  it('lists exactly the upstream outputs, nearest node first, then sys, env and conversation', () => {
    const { list } = setup();
    const groups = list('if-else_1');
    expect(groups.map((g) => g.id)).toEqual(['llm_1', 'start', 'sys', 'env', 'conversation']);
    const all = selectors(groups);
    expect(all).toContain('llm_1.text');
    expect(all).toContain('llm_1.usage.total_tokens');
    expect(all).toEqual(expect.arrayContaining(['start.q', 'start.n', 'sys.query', 'sys.files', 'sys.conversation_id', 'sys.user_id', 'sys.app_id', 'sys.workflow_run_id', 'env.API_KEY', 'conversation.topic']));
    // Not upstream: itself, its downstream answer, the iteration beside it.
    expect(all.some((s) => s.startsWith('if-else_1.') || s.startsWith('answer') || s.startsWith('iteration_1.'))).toBe(false);
  });

  it('types the options (number input, nested usage, env secrets as strings)', () => {
    const { list } = setup();
    const groups = list('answer_1');
    expect(findVariable(groups, ['start', 'n'])?.option.type).toBe('number');
    expect(findVariable(groups, ['llm_1', 'usage', 'total_tokens'])?.option).toMatchObject({ type: 'number', depth: 1 });
    expect(findVariable(groups, ['env', 'API_KEY'])?.option.type).toBe('string');
    expect(findVariable(groups, ['sys', 'files'])?.option.type).toBe('array[file]');
  });

  it('shows the container’s item and index inside an iteration, not its final output', () => {
    const { list } = setup();
    const groups = list('code_1');
    const container = groups.find((g) => g.id === 'iteration_1');
    expect(container?.kind).toBe('container');
    expect(container?.options.map((o) => [o.name, o.type])).toEqual([
      ['item', 'file'],
      ['index', 'number'],
    ]);
    // The container's upstream stays visible inside it.
    expect(selectors(groups)).toEqual(expect.arrayContaining(['llm_1.text', 'start.q']));
  });

  it('lets a container pick outputs of the nodes inside it', () => {
    const { list } = setup();
    expect(list('iteration_1').map((g) => g.id)).toEqual(expect.arrayContaining(['code_1', 'llm_1', 'start']));
  });

  it('leaves conversation variables and chat-only sys variables out of a workflow', () => {
    const { store } = setup();
    const doc = { ...store.toDocument(), mode: 'workflow' as const };
    const groups = listVariables(store.registry, createFlowGraph(doc), 'if-else_1');
    const all = selectors(groups);
    expect(all).not.toContain('sys.query');
    expect(all).not.toContain('conversation.topic');
    expect(all).toContain('sys.files');
  });
});

describe('filterVariables', () => {
  it('keeps only the allowed types and drops empty groups', () => {
    const { list } = setup();
    const out = filterVariables(list('if-else_1'), { types: ['number'] });
    expect(selectors(out)).toEqual(expect.arrayContaining(['start.n', 'llm_1.usage.total_tokens']));
    expect(out.every((g) => g.options.every((o) => o.type === 'number'))).toBe(true);
    expect(out.map((g) => g.id)).not.toContain('env');
  });

  it('searches paths, selectors, labels and group titles', () => {
    const { list } = setup();
    const groups = list('if-else_1');
    expect(selectors(filterVariables(groups, { search: 'TOTAL' }))).toEqual(['llm_1.usage.total_tokens']);
    expect(selectors(filterVariables(groups, { search: 'start.q' }))).toEqual(['start.q']);
    expect(selectors(filterVariables(groups, { search: 'generated', label: (o) => (o.name === 'text' ? 'Generated text' : '') }))).toEqual(['llm_1.text']);
    expect(filterVariables(groups, { search: 'nothing-like-this' })).toEqual([]);
  });
});
