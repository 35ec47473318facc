import { isChatMode, selectorsEqual, systemVariables, type ValueType } from '../../../schemas/flow';
import { SDK_NAMESPACE, type FlowGraph, type FlowNode, type NodeRegistry, type Port } from '../../plugin-sdk';

/**
 * The variables a node may use, as the variable picker and the template autocompletion list them:
 * exactly the outputs of its upstream nodes (for a node inside an iteration/loop, the container's
 * inner outputs such as `item` and `index` rather than its final outputs), then `sys.*`, `env.*`
 * and `conversation.*`. Pure: the registry and the graph come in as arguments.
 */

/** One selectable value: `[nodeId | 'sys' | 'env' | 'conversation', ...path]`. */
export interface VariableOption {
  selector: string[];
  type: ValueType;
  /** What the row shows: the path after the node (`usage.total_tokens`). */
  name: string;
  /** An i18n key (in `ns`) for a friendlier label, when the port has one. */
  labelKey?: string;
  ns?: string;
  /** Depth under its port (children of an object port are indented). */
  depth: number;
}

export type VariableGroupKind = 'node' | 'container' | 'sys' | 'env' | 'conversation';

/** The variables of one node (or namespace), in the picker's order. */
export interface VariableGroup {
  /** Node id, or `sys` / `env` / `conversation`. */
  id: string;
  kind: VariableGroupKind;
  /** The node's title as typed (empty: show the kind's title by `titleKey` in `ns`). */
  title: string;
  titleKey?: string;
  ns?: string;
  /** The node kind (for its icon). */
  nodeKind?: string;
  options: VariableOption[];
}

export interface ListVariablesOptions {
  /** Also list what is inside a container node (its `output` field picks a child's output). Default true. */
  includeChildren?: boolean;
}

/** Options of a node's ports, children of object ports after their parent. */
export function portOptions(head: string, ports: readonly Port[], ns: string | undefined, base: string[] = [], depth = 0): VariableOption[] {
  const out: VariableOption[] = [];
  for (const p of ports) {
    const path = [...base, p.name];
    out.push({ selector: [head, ...path], type: p.type, name: path.join('.'), labelKey: p.labelKey, ns, depth });
    if (p.children?.length && p.type === 'object') out.push(...portOptions(head, p.children, ns, path, depth + 1));
  }
  return out;
}

/** Ids of the containers a node sits in, nearest first. */
export function ancestorsOf(graph: FlowGraph, nodeId: string): string[] {
  const out: string[] = [];
  for (let n = graph.node(nodeId), guard = 0; n?.parentId && guard < 64; n = graph.node(n.parentId), guard++) out.push(n.parentId);
  return out;
}

function nodeGroup(registry: NodeRegistry, graph: FlowGraph, n: FlowNode, kind: VariableGroupKind): VariableGroup {
  const plugin = registry.get(n.kind);
  const ports = kind === 'container' ? registry.innerOutputsOf(n, graph) : registry.outputsOf(n, graph);
  return {
    id: n.id,
    kind,
    title: n.title,
    titleKey: plugin?.titleKey,
    ns: plugin?.ns,
    nodeKind: n.kind,
    options: portOptions(n.id, ports, plugin?.ns),
  };
}

/**
 * Every variable `nodeId` may use, grouped by node, nearest upstream node first.
 * @example
 * listVariables(registry, createFlowGraph(doc), 'llm1').map((g) => g.id); // ['start', 'sys', 'env']
 */
export function listVariables(registry: NodeRegistry, graph: FlowGraph, nodeId: string, opts: ListVariablesOptions = {}): VariableGroup[] {
  const groups: VariableGroup[] = [];
  const containers = new Set(ancestorsOf(graph, nodeId));
  const self = graph.node(nodeId);
  if (self && (opts.includeChildren ?? true) && registry.get(self.kind)?.container) {
    // A container's own fields (iteration `output`) pick values produced inside it.
    for (const child of graph.children(self.id)) {
      const g = nodeGroup(registry, graph, child, 'node');
      if (g.options.length) groups.push(g);
    }
  }
  for (const n of graph.upstream(nodeId)) {
    const g = nodeGroup(registry, graph, n, containers.has(n.id) ? 'container' : 'node');
    if (g.options.length) groups.push(g);
  }
  const sys = systemVariables(graph.mode).map<VariableOption>((v) => ({ selector: ['sys', v.name], type: v.type, name: v.name, depth: 0 }));
  if (sys.length) groups.push({ id: 'sys', kind: 'sys', title: 'sys', options: sys });
  const env = graph.document.variables.env.map<VariableOption>((v) => ({
    selector: ['env', v.name],
    type: v.type === 'number' ? 'number' : 'string',
    name: v.name,
    depth: 0,
  }));
  if (env.length) groups.push({ id: 'env', kind: 'env', title: 'env', options: env });
  if (isChatMode(graph.mode)) {
    const conv = graph.document.variables.conversation.map<VariableOption>((v) => ({ selector: ['conversation', v.name], type: v.type, name: v.name, depth: 0 }));
    if (conv.length) groups.push({ id: 'conversation', kind: 'conversation', title: 'conversation', options: conv });
  }
  return groups;
}

export interface VariableFilter {
  /** Only values of these types (the field's accepted types); absent or empty: any. */
  types?: readonly ValueType[];
  /** Matched case-insensitively against the path, the selector and the group title. */
  search?: string;
  /** Translates a label key (to match translated labels too). */
  label?: (option: VariableOption) => string;
}

/**
 * The groups narrowed to the options that fit the filter (empty groups dropped).
 * @example filterVariables(groups, { types: ['array[string]'], search: 'item' })
 */
export function filterVariables(groups: readonly VariableGroup[], filter: VariableFilter): VariableGroup[] {
  const q = filter.search?.trim().toLowerCase() ?? '';
  const types = filter.types?.length ? new Set(filter.types) : undefined;
  const out: VariableGroup[] = [];
  for (const g of groups) {
    const groupHit = q !== '' && (g.title.toLowerCase().includes(q) || g.id.toLowerCase().includes(q));
    const options = g.options.filter((o) => {
      if (types && !types.has(o.type)) return false;
      if (!q || groupHit) return true;
      const label = filter.label?.(o).toLowerCase() ?? '';
      return o.name.toLowerCase().includes(q) || o.selector.join('.').toLowerCase().includes(q) || label.includes(q);
    });
    if (options.length) out.push({ ...g, options });
  }
  return out;
}

/** The option a selector names, if it is among the groups. */
export function findVariable(groups: readonly VariableGroup[], selector: readonly string[]): { group: VariableGroup; option: VariableOption } | undefined {
  for (const group of groups) {
    const option = group.options.find((o) => selectorsEqual(o.selector, selector));
    if (option) return { group, option };
  }
  return undefined;
}

/** The SDK namespace holds value type names (`valueTypes.array[string]`). */
export const VALUE_TYPE_NS = SDK_NAMESPACE;
