import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEmptyFlow, FlowDocument, type FlowDocumentInput, type FlowNode } from '../../schemas/flow';
import {
  createFlowGraph,
  createNodeRegistry,
  defineNodePlugin,
  NodeMigrationError,
  PluginDefinitionError,
  SDK_NAMESPACE,
  type AnyNodePlugin,
  type NodeIssue,
} from './index';
import { agent, answer, branch, echo, end, repeat, repeatStart, samplePlugins, start } from './samples.fixture';

const registry = createNodeRegistry(samplePlugins);

const node = (id: string, kind: string, config: Record<string, unknown> = {}, extra: Partial<FlowNode> = {}): FlowNode => ({
  id,
  kind,
  kindVersion: registry.get(kind)?.version ?? 1,
  title: '',
  position: { x: 0, y: 0 },
  config,
  ...extra,
});

const edge = (source: string, target: string, sourceHandle = 'source') => ({
  id: `${source}-${sourceHandle}-${target}`,
  source,
  sourceHandle,
  target,
  targetHandle: 'target',
});

/** start(name) → echo1 → end, workflow. */
function workflow(over: Partial<FlowDocumentInput> = {}) {
  return FlowDocument.parse({
    schemaVersion: 1,
    mode: 'workflow',
    nodes: [
      node('start', 'start', { variables: [{ name: 'name', type: 'string' }] }),
      node('echo1', 'echo', { text: 'Hello {{#start.name#}}', source: ['start', 'name'] }),
      node('end', 'end'),
    ],
    edges: [edge('start', 'echo1'), edge('echo1', 'end')],
    variables: { env: [{ id: 'e1', name: 'API_KEY', type: 'secret' }, { id: 'e2', name: 'LIMIT', type: 'number', value: 3 }] },
    ...over,
  });
}

const keys = (issues: NodeIssue[]) => issues.map((i) => `${i.nodeId}:${i.key}`);

describe('createNodeRegistry', () => {
  it('lists plugins in order, by mode, and refuses a kind twice', () => {
    expect(registry.plugins.map((p) => p.kind)).toEqual(samplePlugins.map((p) => p.kind));
    expect(registry.list('workflow').map((p) => p.kind)).not.toContain('answer');
    expect(registry.list('chatflow').map((p) => p.kind)).toEqual(['start', 'answer', 'echo', 'branch', 'repeat', 'repeat-start']);
    expect(registry.get('echo')).toBe(echo);
    expect(registry.has('nope')).toBe(false);
    expect(() => createNodeRegistry([echo, echo])).toThrow(PluginDefinitionError);
  });

  it('is not a singleton: two registries are independent, extend adds plugins', () => {
    const small = createNodeRegistry([start, end]);
    const more = small.extend([echo]);
    expect(small.has('echo')).toBe(false);
    expect(more.has('echo')).toBe(true);
    expect(more.list().map((p) => p.kind)).toEqual(['start', 'end', 'echo']);
  });

  it('gives defaults parsed from the schema and throws for an unknown kind', () => {
    expect(registry.defaults('echo')).toEqual({ text: '', source: [], upper: false, tags: [] });
    expect(registry.defaults('branch')).toEqual({ cases: [{ id: 'case1', when: [] }] });
    expect(() => registry.defaults('nope')).toThrow(/unknown node kind/);
  });

  it('creates nodes at the current version; a container gets its start node inside', () => {
    const { node: e, children } = registry.createNode('echo', { id: 'e1', position: { x: 1, y: 2 } });
    expect(e).toEqual({ id: 'e1', kind: 'echo', kindVersion: 2, title: '', position: { x: 1, y: 2 }, config: registry.defaults('echo') });
    expect(children).toEqual([]);
    const made = registry.createNode('repeat', { id: 'r1', position: { x: 0, y: 0 }, title: 'Loop' });
    expect(made.node).toMatchObject({ kind: 'repeat', width: 600, height: 300, title: 'Loop' });
    expect(made.children).toEqual([
      expect.objectContaining({ id: 'r1-start', kind: 'repeat-start', parentId: 'r1', config: {} }),
    ]);
  });

  it('creates the empty flow of each mode with its versions and defaults', () => {
    const doc = registry.createFlow('agent');
    // The kinds' defaults, with the wiring of a new flow (the reply quotes the agent) over them.
    expect(doc.nodes.map((n) => [n.kind, n.kindVersion, n.config])).toEqual([
      ['start', 1, { variables: [] }],
      ['agent', 1, { instructions: '' }],
      ['answer', 1, { answer: '{{#agent.text#}}' }],
    ]);
    expect(FlowDocument.safeParse(doc).success).toBe(true);
    expect(registry.validateFlow(doc)).toEqual([]);
    expect(registry.createFlow('chatflow').nodes.map((n) => n.kind)).toEqual(['start', 'llm', 'answer']);
  });
});

describe('migrations', () => {
  const v1 = node('e', 'echo', { text: 'x', uppercase: true }, { kindVersion: 1 });

  it('runs the steps in order up to the current version, without touching the input', () => {
    const m = registry.migrate(v1);
    expect(m).toEqual({ ...v1, kindVersion: 2, config: { text: 'x', upper: true } });
    expect(v1.config).toEqual({ text: 'x', uppercase: true });
    expect(registry.migrate(m)).toBe(m);
  });

  it('runs several steps in order', () => {
    const calls: number[] = [];
    const p = defineNodePlugin({
      kind: 'steps',
      version: 4,
      category: 'transform',
      icon: { lucide: 'list' },
      i18n: { zh: { title: '步', description: '步' }, en: { title: 'Steps', description: 'Steps' } },
      configSchema: z.object({ log: z.array(z.number()).default([]) }),
      migrations: [3, 1, 2].map((from) => ({
        from,
        up: (c: Record<string, unknown>) => (calls.push(from), { log: [...((c.log as number[]) ?? []), from] }),
      })),
    });
    const r = createNodeRegistry([p]);
    expect(r.migrate(node('s', 'steps', {}, { kindVersion: 1 })).config).toEqual({ log: [1, 2, 3] });
    expect(r.migrate(node('s', 'steps', { log: [] }, { kindVersion: 3 })).config).toEqual({ log: [3] });
    expect(calls).toEqual([1, 2, 3, 3]);
  });

  it('leaves unknown kinds and newer versions alone; a missing or failing step throws NodeMigrationError', () => {
    const unknown = node('u', 'nope', { a: 1 });
    expect(registry.migrate(unknown)).toBe(unknown);
    const newer = node('e', 'echo', {}, { kindVersion: 9 });
    expect(registry.migrate(newer)).toBe(newer);

    const broken = defineNodePlugin({
      ...{ kind: 'broken', version: 3, category: 'transform', icon: { lucide: 'x' } },
      i18n: { zh: { title: '坏', description: '坏' }, en: { title: 'Broken', description: 'Broken' } },
      configSchema: z.object({}),
      migrations: [{ from: 2, up: () => { throw new Error('boom'); } }],
    });
    const r = createNodeRegistry([broken]);
    expect(() => r.migrate(node('b', 'broken', {}, { kindVersion: 1 }))).toThrow(NodeMigrationError);
    expect(() => r.migrate(node('b', 'broken', {}, { kindVersion: 2 }))).toThrow(/from version 2: boom/);
    const doc = FlowDocument.parse({ schemaVersion: 1, mode: 'workflow', nodes: [node('b', 'broken', {}, { kindVersion: 1 })], edges: [] });
    const result = r.migrateFlow(doc);
    expect(result.failed).toEqual([expect.objectContaining({ nodeId: 'b', from: 1 })]);
    expect(result.document).toBe(doc);
  });

  it('migrates a whole flow and reports which nodes changed', () => {
    const doc = workflow();
    const old = { ...doc, nodes: [...doc.nodes, node('e2', 'echo', { uppercase: false }, { kindVersion: 1 })] };
    const r = registry.migrateFlow(old);
    expect(r.migrated).toEqual(['e2']);
    expect(r.failed).toEqual([]);
    expect(r.document.nodes[3]).toMatchObject({ kindVersion: 2, config: { upper: false } });
    expect(registry.migrateFlow(doc).document).toBe(doc);
  });

  it('normalizes: migrated and defaults filled', () => {
    expect(registry.normalizeNode(node('e', 'echo', { uppercase: true }, { kindVersion: 1 })).config).toEqual({
      text: '',
      source: [],
      upper: true,
      tags: [],
    });
    const invalid = node('e', 'echo', { text: 5 });
    expect(registry.normalizeNode(invalid)).toBe(invalid);
  });
});

describe('ports, handles and types', () => {
  const doc = workflow();
  const graph = createFlowGraph(doc);

  it('computes outputs and handles from the config', () => {
    expect(registry.outputsOf(doc.nodes[0], graph)).toEqual([{ name: 'name', type: 'string' }]);
    expect(registry.outputsOf(node('e', 'echo', { upper: true })).map((p) => p.name)).toEqual(['text', 'meta', 'upper']);
    expect(registry.sourceHandlesOf(node('b', 'branch', { cases: [{ id: 'a', when: [] }, { id: 'b', when: [] }] })).map((h) => h.id)).toEqual([
      'a',
      'b',
      'else',
    ]);
    expect(registry.sourceHandlesOf(node('x', 'end'))).toEqual([]);
    expect(registry.sourceHandlesOf(node('x', 'echo'))).toEqual([{ id: 'source' }]);
    // Old versions are migrated first; unknown kinds and invalid configs have none.
    expect(registry.outputsOf(node('e', 'echo', { uppercase: true }, { kindVersion: 1 })).map((p) => p.name)).toContain('upper');
    expect(registry.outputsOf(node('x', 'nope'))).toEqual([]);
    expect(registry.outputsOf(node('x', 'echo', { upper: 'yes' }))).toEqual([]);
  });

  it('resolves the type of sys, env, conversation and node selectors', () => {
    expect(registry.typeOf(['sys', 'files'], graph)).toBe('array[file]');
    expect(registry.typeOf(['sys', 'query'], graph)).toBeUndefined(); // no query in a workflow
    expect(registry.typeOf(['env', 'API_KEY'], graph)).toBe('string');
    expect(registry.typeOf(['env', 'LIMIT'], graph)).toBe('number');
    expect(registry.typeOf(['start', 'name'], graph)).toBe('string');
    expect(registry.typeOf(['echo1', 'meta', 'length'], graph)).toBe('number');
    expect(registry.typeOf(['echo1', 'meta', 'nope'], graph)).toBeUndefined();
    expect(registry.typeOf(['missing', 'x'], graph)).toBeUndefined();
    const chat = createFlowGraph(
      FlowDocument.parse({
        ...registry.createFlow('chatflow'),
        variables: { env: [], conversation: [{ id: 'c', name: 'topic', type: 'array[string]', value: [] }] },
      }),
    );
    expect(registry.typeOf(['conversation', 'topic'], chat)).toBe('array[string]');
    expect(registry.typeOf(['sys', 'query'], chat)).toBe('string');
  });

  it('lets nodes inside a container see its inner outputs, typed from the graph', () => {
    const doc = FlowDocument.parse({
      schemaVersion: 1,
      mode: 'workflow',
      nodes: [
        node('start', 'start'),
        node('src', 'echo', { text: 'x' }),
        node('loop', 'repeat', { items: ['src', 'tags'] }),
        node('loop-start', 'repeat-start', {}, { parentId: 'loop' }),
        node('inner', 'echo', { text: 'x', source: ['loop', 'item'] }, { parentId: 'loop' }),
      ],
      edges: [edge('start', 'src'), edge('src', 'loop'), edge('loop-start', 'inner')],
    });
    const g = createFlowGraph(doc);
    // echo has no `tags` output, so the item type falls back to string.
    expect(registry.typeOf(['loop', 'item'], g, 'inner')).toBe('string');
    expect(registry.typeOf(['loop', 'index'], g, 'inner')).toBe('number');
    // From outside the container its outputs count, not the inner ones.
    expect(registry.typeOf(['loop', 'item'], g)).toBeUndefined();
    expect(registry.typeOf(['loop', 'output'], g)).toBe('array[string]');
    expect(g.upstream('inner').map((n) => n.id)).toEqual(['loop-start', 'loop', 'src', 'start']);
    // The inner reference is fine; the container's `items` points at an output echo lacks.
    expect(keys(registry.validateFlow(g))).toEqual(['loop:issues.referenceMissing']);
  });

  it('guards against port functions asking for each other in a cycle', () => {
    const mirror = defineNodePlugin({
      kind: 'mirror',
      version: 1,
      category: 'transform',
      icon: { lucide: 'copy' },
      i18n: { zh: { title: '镜', description: '镜' }, en: { title: 'Mirror', description: 'Mirror' } },
      configSchema: z.object({ of: z.string().default('') }),
      outputs: (config, ctx) => [{ name: 'out', type: ctx.typeOf([config.of, 'out']) ?? 'object' }],
    });
    const r = createNodeRegistry([mirror]);
    const doc = FlowDocument.parse({
      schemaVersion: 1,
      mode: 'workflow',
      nodes: [node('a', 'mirror', { of: 'b' }), node('b', 'mirror', { of: 'a' })],
      edges: [],
    });
    expect(r.outputsOf(doc.nodes[0], createFlowGraph(doc))).toEqual([{ name: 'out', type: 'object' }]);
  });
});

describe('validateNode / validateFlow', () => {
  it('finds nothing wrong in a sound flow, and reports the plugin issue with its namespace', () => {
    expect(registry.validateFlow(workflow())).toEqual([]);
    const doc = workflow();
    doc.nodes[1].config = { text: '  ' };
    expect(registry.validateFlow(doc)).toEqual([
      { nodeId: 'echo1', ns: 'node-echo', key: 'issues.textEmpty', path: ['text'], severity: 'warning' },
    ]);
  });

  it('reports unknown kinds, newer versions and failed migrations', () => {
    const doc = workflow();
    doc.nodes.push(node('u', 'nope'), node('n', 'echo', {}, { kindVersion: 7 }));
    const issues = registry.validateFlow(doc);
    expect(issues).toEqual([
      { nodeId: 'u', ns: SDK_NAMESPACE, key: 'issues.kindUnknown', params: { kind: 'nope' }, severity: 'error' },
      { nodeId: 'n', ns: SDK_NAMESPACE, key: 'issues.versionTooNew', params: { version: 7, current: 2 }, severity: 'error' },
    ]);
  });

  it('reports a kind outside its modes, misplaced nodes and a second singleton', () => {
    const doc = workflow();
    doc.nodes.push(
      node('ans', 'answer'),
      node('start2', 'start'),
      node('loop', 'repeat'),
      node('loop-start', 'repeat-start', {}, { parentId: 'loop' }),
      node('stray-start', 'repeat-start'),
      node('in-echo', 'echo', { text: 'x' }, { parentId: 'echo1' }),
    );
    expect(keys(registry.validateFlow(doc))).toEqual([
      'ans:issues.modeNotAllowed',
      'start2:issues.singleton',
      'stray-start:issues.placementNotAllowed',
      'in-echo:issues.placementNotAllowed',
    ]);
  });

  it('reports config that does not fit the schema, by field', () => {
    const doc = workflow();
    doc.nodes[1].config = { text: 1, upper: 'no' };
    const issues = registry.validateFlow(doc);
    expect(issues.map((i) => [i.key, i.path])).toEqual([
      ['issues.configInvalid', ['text']],
      ['issues.configInvalid', ['upper']],
    ]);
    expect(issues[0].params).toMatchObject({ field: 'text' });
  });

  it('reports references to missing nodes, outputs and variables, to itself and to nodes downstream', () => {
    const doc = workflow();
    doc.nodes.push(node('late', 'echo', { text: 'x' }));
    doc.edges.push(edge('end', 'late'));
    doc.nodes[1].config = {
      text: '{{#gone.text#}} {{#start.nope#}} {{#echo1.text#}} {{#late.text#}} {{#sys.query#}} {{#env.NOPE#}} {{#env.LIMIT#}} {{#sys.user_id#}} {{#conversation.x#}}',
    };
    const issues = registry.validateFlow(doc);
    expect(issues.map((i) => `${i.key} ${i.params?.reference}`)).toEqual([
      'issues.referenceMissing gone.text',
      'issues.referenceMissing start.nope',
      'issues.referenceSelf echo1.text',
      'issues.referenceNotUpstream late.text',
      'issues.referenceMissing sys.query',
      'issues.referenceMissing env.NOPE',
      'issues.referenceMissing conversation.x',
    ]);
    expect(issues[0].path).toEqual(['text']);
  });

  it('turns a throwing validate into an issue instead of failing', () => {
    const faulty = defineNodePlugin({
      kind: 'faulty',
      version: 1,
      category: 'transform',
      icon: { lucide: 'bug' },
      i18n: { zh: { title: '错', description: '错' }, en: { title: 'Faulty', description: 'Faulty' } },
      configSchema: z.object({}),
      validate: () => {
        throw new Error('oops');
      },
    });
    const r = createNodeRegistry([faulty]);
    const doc = FlowDocument.parse({ schemaVersion: 1, mode: 'workflow', nodes: [node('f', 'faulty')], edges: [] });
    expect(r.validateFlow(doc)).toEqual([
      { nodeId: 'f', ns: SDK_NAMESPACE, key: 'issues.validateFailed', params: { message: 'oops' }, severity: 'error' },
    ]);
  });

  it('hands validate the parsed config and the graph', () => {
    let seen: unknown;
    const spy = defineNodePlugin({
      kind: 'spy',
      version: 1,
      category: 'transform',
      icon: { lucide: 'eye' },
      i18n: { zh: { title: '看', description: '看' }, en: { title: 'Spy', description: 'Spy' } },
      configSchema: z.object({ n: z.number().default(3) }),
      validate: (n, g) => ((seen = [n.config.n, g.upstream(n.id).length]), []),
    });
    const r = createNodeRegistry([start, spy]);
    const doc = FlowDocument.parse({ ...createEmptyFlow('workflow'), nodes: [node('start', 'start'), node('s', 'spy')], edges: [edge('start', 's')] });
    expect(r.validateFlow(doc)).toEqual([]);
    expect(seen).toEqual([3, 1]);
  });
});

describe('references and messages', () => {
  it('lists and remaps the references of a node through its schema', () => {
    const n = node('e', 'echo', { text: 'a {{#x.text#}} {{#sys.query#}}', source: ['x', 'text'], tags: ['x', 'text'] });
    expect(registry.referencesOf(n).map((r) => [r.source, r.selector.join('.'), r.path.join('.')])).toEqual([
      ['text', 'x.text', 'text'],
      ['text', 'sys.query', 'text'],
      ['selector', 'x.text', 'source'],
    ]);
    const moved = registry.remapReferences(n, { x: 'y' });
    expect(moved.config).toEqual({ text: 'a {{#y.text#}} {{#sys.query#}}', source: ['y', 'text'], tags: ['x', 'text'] });
    expect(registry.remapReferences(n, { other: 'z' })).toBe(n);
  });

  it('collects the SDK and plugin texts per language and namespace', () => {
    const m = registry.messages();
    expect(Object.keys(m.zh)).toEqual([SDK_NAMESPACE, ...samplePlugins.map((p) => `node-${p.kind}`)]);
    expect(m.en['node-echo']).toMatchObject({ title: 'Echo', issues: { textEmpty: 'Write the text' } });
    expect(m.zh[SDK_NAMESPACE]).toHaveProperty(['issues', 'referenceMissing']);
  });

  it('holds plugins of different config types without any', () => {
    // Compile-time: a list of differently typed plugins is an AnyNodePlugin[].
    const list: AnyNodePlugin[] = [echo, branch, repeat, repeatStart, start, end, answer, agent];
    expect(list).toHaveLength(8);
  });
});
