import { isVisible } from '../../../schemas/ui';
import { builtinPlugins } from '../builtin-plugins';
import { describeObject } from '../../kit/schema/fields';
import { createNodeRegistry } from '../../plugin-sdk';
import { RUN_SETTINGS_GROUP } from '../inspector/logic';
import type { WorkspaceResources } from './context';
import { createFlowStore, type FlowStore } from '../store/create-flow-store';

/**
 * A chatflow with the real built-in kinds for the inspector and widget tests (tests may import
 * plugins/; core code never does): start (a text input `q`, a number `n`) → llm → if-else →
 * answer, plus an iteration over `q`-less array with a code node inside, and env/conversation
 * variables.
 */
export function makeBuiltinStore(): FlowStore {
  const registry = createNodeRegistry(builtinPlugins);
  const store = createFlowStore({ registry, mode: 'chatflow', history: { mergeWindowMs: 60_000 } });
  store.updateConfig('start', ['variables'], [
    { name: 'q', label: 'Question', type: 'text', required: true, options: [], allowed_extensions: [] },
    { name: 'n', label: 'Count', type: 'number', required: false, options: [], allowed_extensions: [] },
  ]);
  store.deleteNodes(['answer']);
  store.addNode('llm', { from: { nodeId: 'start' } });
  store.addNode('if-else', { from: { nodeId: 'llm_1' } });
  store.addNode('answer', { from: { nodeId: 'if-else_1', handleId: 'true' } });
  store.addNode('iteration', { from: { nodeId: 'llm_1' } });
  store.updateConfig('iteration_1', ['iterator'], ['sys', 'files']);
  store.addNode('code', { parentId: 'iteration_1', from: { nodeId: 'iteration_1-start_1' } });
  store.edit((d) => {
    d.variables.env.push({ id: 'e1', name: 'API_KEY', type: 'secret', description: '' });
    d.variables.conversation.push({ id: 'c1', name: 'topic', type: 'string', value: '', description: '' });
  });
  store.setSelection({ nodes: [] });
  // The fixture's own edits are not the test's history.
  return createFlowStore({ registry, mode: 'chatflow', document: store.toDocument(), history: { mergeWindowMs: 60_000 } });
}

/** The built-in kinds (tests and stories only). */
export const registry = createNodeRegistry(builtinPlugins);

/** A model list and workspace resources for stories and tests. */
export const sampleModels = [
  { provider: 'openai', model: 'gpt-4o', label: 'GPT-4o' },
  { provider: 'deepseek', model: 'deepseek-chat' },
];

export const sampleResources: WorkspaceResources = {
  knowledgeBases: { list: async () => [{ id: 'kb1', name: 'Product manual', description: '42 documents' }, { id: 'kb2', name: 'Support FAQ' }] },
  tools: {
    list: async () => [
      {
        id: 'weather',
        name: 'Weather',
        functions: [
          {
            id: 'current',
            name: 'Current weather',
            description: 'The weather now',
            parameters: [
              { name: 'city', type: 'string', required: true, description: 'City name' },
              { name: 'units', type: 'string' },
            ],
          },
          { id: 'forecast', name: 'Forecast', parameters: [{ name: 'city', type: 'string', required: true }, { name: 'days', type: 'integer' }] },
        ],
      },
    ],
  },
  mcpServers: { list: async () => [{ id: 'files', name: 'File server', tools: [{ id: 'read_file', name: 'read_file' }] }] },
};

/** A flow in a mode the kind allows, and the id of the node to inspect. */
export function flowFor(kind: string): { store: FlowStore; nodeId: string } {
  const plugin = registry.get(kind)!;
  const mode = plugin.modes.includes('chatflow') ? 'chatflow' : plugin.modes[0];
  const store = createFlowStore({ registry, mode });
  store.updateConfig('start', ['variables'], [{ name: 'query_text', label: 'Question', type: 'text', required: true, options: [], allowed_extensions: [] }]);
  if (kind === 'start') return { store, nodeId: 'start' };
  if (kind === 'note') return { store, nodeId: store.addNode('note')! };
  const upstream = registry.list(mode).some((p) => p.kind === 'llm') ? store.addNode('llm', { from: { nodeId: 'start' } })! : 'start';
  const container = registry.plugins.find((p) => p.container?.startKind === kind);
  if (container) {
    const id = store.addNode(container.kind, { from: { nodeId: upstream } })!;
    return { store, nodeId: store.toDocument().nodes.find((n) => n.parentId === id && n.kind === kind)!.id };
  }
  if (kind === 'agent') store.addNode('agent', { from: { nodeId: upstream }, title: 'Billing agent' });
  return { store, nodeId: store.addNode(kind, { from: { nodeId: upstream } })! };
}

/** Fields the first tab shows for a new node of the kind (visible, not hidden, not run settings). */
export function expectedFields(kind: string): string[] {
  const plugin = registry.get(kind)!;
  const defaults = registry.defaults(kind);
  return describeObject(plugin.configSchema)
    .filter((f) => f.widget !== 'hidden' && f.group !== RUN_SETTINGS_GROUP && isVisible(f.visibleWhen, defaults))
    .map((f) => f.name);
}

