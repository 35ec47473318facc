import {
  createEmptyFlow,
  isChatMode,
  systemVariables,
  type EmptyFlowOptions,
  type FlowDocument,
  type FlowMode,
  type FlowNode,
  type IdMap,
  type NodeConfig,
  type Position,
  type ValueType,
} from '../../schemas/flow';
import { PluginDefinitionError } from './define';
import { createFlowGraph } from './graph';
import { SDK_NAMESPACE, sdkMessages } from './messages';
import { collectReferences, remapNodeIds, type ConfigReference } from './references';
import type { AnyNodePlugin, FlowGraph, HandleSpec, NodeIssue, PluginIssue, PluginMessages, Port, PortContext } from './types';

/** A node's config could not be brought to its plugin's version. */
export class NodeMigrationError extends Error {
  constructor(
    readonly kind: string,
    readonly from: number,
    message: string,
  ) {
    super(`Cannot migrate "${kind}" from version ${from}: ${message}`);
  }
}

/** What `createNode` needs besides the kind. */
export interface NodeInit {
  id: string;
  position: Position;
  parentId?: string;
  /** Default '' (the editor shows the kind's translated title). */
  title?: string;
  /** Id of a container's child start node (default `<id>-start`). */
  childId?: string;
}

export interface MigrateFlowResult {
  document: FlowDocument;
  /** Ids of the nodes that were brought to a newer version. */
  migrated: string[];
  /** Nodes left as they were because a step failed or is missing. */
  failed: { nodeId: string; kind: string; from: number; message: string }[];
}

/** Texts of the SDK and of every plugin, per language and namespace (for `i18n.addResourceBundle`). */
export type RegistryMessages = Record<'zh' | 'en', Record<string, PluginMessages>>;

/**
 * The node kinds an editor, engine or server knows, and everything that needs a kind's plugin.
 * `P` keeps the plugins' full type, e.g. with views attached in the editor.
 */
export interface NodeRegistry<P extends AnyNodePlugin = AnyNodePlugin> {
  /** In registration order. */
  readonly plugins: readonly P[];
  get(kind: string): P | undefined;
  has(kind: string): boolean;
  /** The kinds usable in a mode (all when no mode is given), in registration order. */
  list(mode?: FlowMode): P[];
  /** A new node's config: the schema's defaults (`configSchema.parse({})`). Throws for an unknown kind. */
  defaults(kind: string): NodeConfig;
  /** A new node at the plugin's version with default config; a container also gets its start node. */
  createNode(kind: string, init: NodeInit): { node: FlowNode; children: FlowNode[] };
  /** The empty flow of a mode with the registry's versions and defaults. */
  createFlow(mode: FlowMode, opts?: Pick<EmptyFlowOptions, 'titles' | 'defaultModel'>): FlowDocument;
  /**
   * The node at its plugin's current version (migrations run in order from `kindVersion`). Nodes of
   * unknown kinds, or saved by a newer plugin, come back unchanged. Throws NodeMigrationError when a
   * step is missing or throws.
   */
  migrate(node: FlowNode): FlowNode;
  /** Every node migrated; failures are reported, not thrown. */
  migrateFlow(document: FlowDocument): MigrateFlowResult;
  /** Migrated, with the config parsed by the schema (defaults filled) when it is valid. */
  normalizeNode(node: FlowNode): FlowNode;
  /**
   * Everything that stops the node from running: unknown kind, version, mode, placement,
   * singleton, config against the schema, broken references, then the plugin's own `validate`.
   */
  validateNode(node: FlowNode, graph: FlowGraph): NodeIssue[];
  /** `validateNode` for every node of a document. */
  validateFlow(document: FlowDocument | FlowGraph): NodeIssue[];
  inputsOf(node: FlowNode, graph?: FlowGraph): Port[];
  outputsOf(node: FlowNode, graph?: FlowGraph): Port[];
  /** What nodes inside a container see of it (`item`, `index` …). */
  innerOutputsOf(node: FlowNode, graph?: FlowGraph): Port[];
  sourceHandlesOf(node: FlowNode, graph?: FlowGraph): HandleSpec[];
  /**
   * The value type a selector points at, seen from `from` (a node id: inside a container its
   * inner outputs count). Undefined when unknown.
   */
  typeOf(selector: readonly string[], graph: FlowGraph, from?: string): ValueType | undefined;
  /** The references in a node's config (walked with its plugin's schema). */
  referencesOf(node: FlowNode): ConfigReference[];
  /** The node with node ids in its config references replaced (paste, duplicate). */
  remapReferences(node: FlowNode, idMap: IdMap): FlowNode;
  messages(): RegistryMessages;
  /** A new registry with more plugins (the built-in list extended by an app). */
  extend<Q extends AnyNodePlugin>(more: readonly Q[]): NodeRegistry<P | Q>;
}

const issue = (nodeId: string, key: string, params?: PluginIssue['params'], path?: PluginIssue['path']): NodeIssue => ({
  nodeId,
  ns: SDK_NAMESPACE,
  key: `issues.${key}`,
  severity: 'error',
  ...(params ? { params } : {}),
  ...(path ? { path } : {}),
});

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A registry over a list of plugins (no module singleton: each editor, the engine and the server
 * make their own). Throws PluginDefinitionError on a duplicate kind.
 * @example
 * const registry = createNodeRegistry([start, llm, answer]);
 * registry.list('workflow').map((p) => p.kind);
 * const { node } = registry.createNode('llm', { id: 'llm1', position: { x: 0, y: 0 } });
 * const issues = registry.validateFlow(doc);
 */
export function createNodeRegistry<P extends AnyNodePlugin>(plugins: readonly P[]): NodeRegistry<P> {
  const byKind = new Map<string, P>();
  for (const p of plugins) {
    if (byKind.has(p.kind)) throw new PluginDefinitionError(p.kind, 'registered twice');
    byKind.set(p.kind, p);
  }
  const plugin = (kind: string): AnyNodePlugin | undefined => byKind.get(kind);

  function requirePlugin(kind: string): AnyNodePlugin {
    const p = plugin(kind);
    if (!p) throw new PluginDefinitionError(kind, 'unknown node kind');
    return p;
  }

  function defaults(kind: string): NodeConfig {
    return requirePlugin(kind).configSchema.parse({}) as NodeConfig;
  }

  function migrate(node: FlowNode): FlowNode {
    const p = plugin(node.kind);
    if (!p || node.kindVersion >= p.version) return node;
    let config = node.config;
    for (let v = node.kindVersion; v < p.version; v++) {
      const step = p.migrations.find((m) => m.from === v);
      if (!step) throw new NodeMigrationError(node.kind, v, 'no migration from this version');
      try {
        config = step.up(config);
      } catch (e) {
        throw new NodeMigrationError(node.kind, v, message(e));
      }
    }
    return { ...node, kindVersion: p.version, config };
  }

  /** The config parsed by the schema, or undefined when it does not fit. */
  function parsed(p: AnyNodePlugin, node: FlowNode): NodeConfig | undefined {
    const r = p.configSchema.safeParse(node.config);
    return r.success ? r.data : undefined;
  }

  // Port functions of one node may ask for types of other nodes' outputs (and so on): guard cycles.
  const resolving = new Set<string>();

  function ports(which: 'inputs' | 'outputs' | 'innerOutputs', node: FlowNode, graph?: FlowGraph): Port[] {
    const p = plugin(node.kind);
    if (!p || resolving.has(node.id)) return [];
    let current: FlowNode;
    try {
      current = migrate(node);
    } catch {
      return [];
    }
    const config = parsed(p, current);
    if (!config) return [];
    const ctx: PortContext = {
      node: current,
      graph,
      typeOf: (selector) => (graph ? typeOf(selector, graph, node.id) : undefined),
    };
    resolving.add(node.id);
    try {
      return p[which](config, ctx);
    } catch {
      // A faulty plugin must not break the canvas; its contract test reports it.
      return [];
    } finally {
      resolving.delete(node.id);
    }
  }

  function sourceHandlesOf(node: FlowNode, graph?: FlowGraph): HandleSpec[] {
    const p = plugin(node.kind);
    if (!p) return [];
    try {
      const current = migrate(node);
      const config = parsed(p, current);
      if (!config) return [];
      return p.sourceHandles(config, { node: current, graph, typeOf: (s) => (graph ? typeOf(s, graph, node.id) : undefined) });
    } catch {
      return [];
    }
  }

  const isInside = (graph: FlowGraph, nodeId: string | undefined, containerId: string) => {
    for (let n = nodeId ? graph.node(nodeId) : undefined, depth = 0; n?.parentId && depth < 64; n = graph.node(n.parentId), depth++) {
      if (n.parentId === containerId) return true;
    }
    return false;
  };

  /** The ports a reference to `target` can use, seen from node `from`. */
  const visiblePorts = (target: FlowNode, graph: FlowGraph, from?: string) =>
    isInside(graph, from, target.id) ? ports('innerOutputs', target, graph) : ports('outputs', target, graph);

  function typeOf(selector: readonly string[], graph: FlowGraph, from?: string): ValueType | undefined {
    const [head, name, ...rest] = selector;
    if (name === undefined) return undefined;
    const vars = graph.document.variables;
    if (head === 'sys') return rest.length ? undefined : systemVariables(graph.mode).find((v) => v.name === name)?.type;
    if (head === 'env') {
      const v = vars.env.find((e) => e.name === name);
      return v && !rest.length ? (v.type === 'number' ? 'number' : 'string') : undefined;
    }
    if (head === 'conversation') return rest.length ? undefined : vars.conversation.find((c) => c.name === name)?.type;
    const target = graph.node(head);
    if (!target) return undefined;
    let port = visiblePorts(target, graph, from).find((o) => o.name === name);
    for (const seg of rest) port = port?.children?.find((c) => c.name === seg);
    return port?.type;
  }

  function referenceIssues(node: FlowNode, config: NodeConfig, p: AnyNodePlugin, graph: FlowGraph): NodeIssue[] {
    const out: NodeIssue[] = [];
    const vars = graph.document.variables;
    let upstream: Set<string> | undefined;
    for (const ref of collectReferences(p.configSchema, config)) {
      const [head, name] = ref.selector;
      const reference = ref.selector.join('.');
      if (head === 'sys' || head === 'env' || head === 'conversation') {
        const known =
          head === 'sys'
            ? systemVariables(graph.mode).some((v) => v.name === name)
            : head === 'env'
              ? vars.env.some((v) => v.name === name)
              : isChatMode(graph.mode) && vars.conversation.some((v) => v.name === name);
        if (!known) out.push(issue(node.id, 'referenceMissing', { reference }, ref.path));
        continue;
      }
      if (head === node.id) {
        // A container's own settings (a loop's break condition) may use what its inside sees.
        if (!p.container || !ports('innerOutputs', node, graph).some((o) => o.name === name)) {
          out.push(issue(node.id, 'referenceSelf', { reference }, ref.path));
        }
        continue;
      }
      const target = graph.node(head);
      const targetPlugin = target && plugin(target.kind);
      if (!target || (targetPlugin && !visiblePorts(target, graph, node.id).some((o) => o.name === name))) {
        out.push(issue(node.id, 'referenceMissing', { reference }, ref.path));
        continue;
      }
      upstream ??= new Set(graph.upstream(node.id).map((n) => n.id));
      // A container may also collect the outputs of nodes inside it (an iteration's output).
      if (!upstream.has(head) && !isInside(graph, head, node.id)) out.push(issue(node.id, 'referenceNotUpstream', { reference }, ref.path));
    }
    return out;
  }

  function validateNode(node: FlowNode, graph: FlowGraph): NodeIssue[] {
    const p = plugin(node.kind);
    if (!p) return [issue(node.id, 'kindUnknown', { kind: node.kind })];
    if (node.kindVersion > p.version) return [issue(node.id, 'versionTooNew', { version: node.kindVersion, current: p.version })];
    let current: FlowNode;
    try {
      current = migrate(node);
    } catch (e) {
      return [issue(node.id, 'migrationFailed', { from: e instanceof NodeMigrationError ? e.from : node.kindVersion })];
    }
    const out: NodeIssue[] = [];
    if (!p.modes.includes(graph.mode)) out.push(issue(node.id, 'modeNotAllowed', { mode: graph.mode }));

    const parent = node.parentId ? graph.node(node.parentId) : undefined;
    const scope = parent ? parent.kind : 'root';
    const parentIsContainer = !parent || Boolean(plugin(parent.kind)?.container);
    if (!parentIsContainer || (p.parents && !p.parents.includes(scope))) out.push(issue(node.id, 'placementNotAllowed', { scope }));

    if (p.singleton) {
      const first = graph.children(node.parentId ?? null).find((n) => n.kind === node.kind);
      if (first && first.id !== node.id) out.push(issue(node.id, 'singleton', { kind: node.kind }));
    }

    const result = p.configSchema.safeParse(current.config);
    if (!result.success) {
      for (const i of result.error.issues) {
        out.push(issue(node.id, 'configInvalid', { field: i.path.join('.') || '-', message: i.message }, i.path as (string | number)[]));
      }
      return out;
    }
    const config = result.data as NodeConfig;
    out.push(...referenceIssues(node, config, p, graph));
    try {
      for (const i of p.validate({ ...current, config }, graph)) {
        out.push({
          nodeId: node.id,
          ns: p.ns,
          key: i.key,
          severity: i.severity ?? 'error',
          ...(i.params ? { params: i.params } : {}),
          ...(i.path ? { path: i.path } : {}),
        });
      }
    } catch (e) {
      out.push(issue(node.id, 'validateFailed', { message: message(e) }));
    }
    return out;
  }

  const registry: NodeRegistry<P> = {
    plugins: [...plugins],
    get: (kind) => byKind.get(kind),
    has: (kind) => byKind.has(kind),
    list: (mode) => (mode ? plugins.filter((p) => p.modes.includes(mode)) : [...plugins]),
    defaults,
    createNode(kind, init) {
      const p = requirePlugin(kind);
      const node: FlowNode = {
        id: init.id,
        kind,
        kindVersion: p.version,
        title: init.title ?? '',
        position: init.position,
        config: defaults(kind),
        ...(init.parentId ? { parentId: init.parentId } : {}),
        ...(p.container?.defaultSize ? { ...p.container.defaultSize } : {}),
      };
      const children: FlowNode[] = [];
      if (p.container) {
        const start = requirePlugin(p.container.startKind);
        children.push({
          id: init.childId ?? `${init.id.slice(0, 58)}-start`,
          kind: start.kind,
          kindVersion: start.version,
          title: '',
          position: { x: 24, y: 68 },
          config: defaults(start.kind),
          parentId: init.id,
        });
      }
      return { node, children };
    },
    createFlow: (mode, opts = {}) =>
      createEmptyFlow(mode, {
        ...opts,
        nodeDefaults: (kind) => {
          const p = plugin(kind);
          return p ? { kindVersion: p.version, config: defaults(kind) } : undefined;
        },
      }),
    migrate,
    migrateFlow(document) {
      const migrated: string[] = [];
      const failed: MigrateFlowResult['failed'] = [];
      const nodes = document.nodes.map((n) => {
        try {
          const m = migrate(n);
          if (m !== n) migrated.push(n.id);
          return m;
        } catch (e) {
          failed.push({ nodeId: n.id, kind: n.kind, from: e instanceof NodeMigrationError ? e.from : n.kindVersion, message: message(e) });
          return n;
        }
      });
      return { document: migrated.length ? { ...document, nodes } : document, migrated, failed };
    },
    normalizeNode(node) {
      const m = migrate(node);
      const p = plugin(m.kind);
      const config = p && parsed(p, m);
      return config ? { ...m, config } : m;
    },
    validateNode,
    validateFlow(document) {
      const graph = 'upstream' in document ? document : createFlowGraph(document);
      return graph.nodes.flatMap((n) => validateNode(n, graph));
    },
    inputsOf: (node, graph) => ports('inputs', node, graph),
    outputsOf: (node, graph) => ports('outputs', node, graph),
    innerOutputsOf: (node, graph) => ports('innerOutputs', node, graph),
    sourceHandlesOf,
    typeOf,
    referencesOf: (node) => collectReferences(plugin(node.kind)?.configSchema, node.config),
    remapReferences: (node, idMap) => {
      const config = remapNodeIds(plugin(node.kind)?.configSchema, node.config, idMap);
      return config === node.config ? node : { ...node, config };
    },
    messages() {
      const out: RegistryMessages = { zh: { [SDK_NAMESPACE]: sdkMessages.zh }, en: { [SDK_NAMESPACE]: sdkMessages.en } };
      for (const p of plugins) {
        out.zh[p.ns] = p.i18n.zh;
        out.en[p.ns] = p.i18n.en;
      }
      return out;
    },
    extend: (more) => createNodeRegistry<P | (typeof more)[number]>([...plugins, ...more]),
  };
  return registry;
}
