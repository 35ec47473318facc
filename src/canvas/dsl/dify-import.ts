import {
  CONVERSATION_VALUE_TYPES,
  DEFAULT_TARGET_HANDLE,
  defaultValueFor,
  edgeId,
  FLOW_SCHEMA_VERSION,
  matchesValueType,
  NODE_ID_RE,
  VARIABLE_NAME_RE,
  type ConversationVariable,
  type EnvVariable,
  type FlowDocument,
  type FlowEdge,
  type FlowMode,
  type FlowNode,
} from '../../../schemas/flow';
import type { AnyNodePlugin, NodeConfig, NodeRegistry } from '../../plugin-sdk';
import { list, num, rec, str } from '../../plugin-sdk/dify';
import { fitConfig, type DifyContext } from './dify-common';
import { checkImportedDocument, FlowFileApp, type ImportOptions } from './flow-yaml';
import { dslError, dslWarning, MAX_WARNINGS, type DslError, type DslWarning, type DslWarningKey } from './messages';
import { detectFlowFormat, parseYamlObject } from './yaml-file';

/**
 * The kind that takes a Dify node: the first in the registry whose Dify hook lists the node's type
 * and does not decline it (a kind's `dify` hook, plugins/<kind>/dify.ts). Undefined: left out.
 */
function fromDify(registry: NodeRegistry, type: string, data: Record<string, unknown>, ctx: DifyContext): { plugin: AnyNodePlugin; config: NodeConfig } | undefined {
  for (const plugin of registry.plugins) {
    if (!plugin.dify?.types.includes(type)) continue;
    const config = plugin.dify.import(data, ctx);
    if (config) return { plugin, config };
  }
  return undefined;
}

/** A Dify node the import left out: the UI lists these by title and type. */
export interface UnmappedNode {
  id: string;
  type: string;
  title: string;
}

export type DifyImport =
  | { ok: true; document: FlowDocument; app: FlowFileApp; unmapped: UnmappedNode[]; warnings: DslWarning[] }
  | { ok: false; errors: DslError[] };

/** Dify app modes → ours. Dify's `chat`, `agent-chat` and `completion` apps have no flow. */
export const DIFY_MODES: Readonly<Record<string, FlowMode>> = { workflow: 'workflow', 'advanced-chat': 'chatflow' };

interface DifyNode {
  difyId: string;
  id: string;
  type: string;
  title: string;
  parent?: string;
  raw: Record<string, unknown>;
  data: Record<string, unknown>;
}

const coordinate = (v: unknown) => Math.max(-1e7, Math.min(1e7, num(v) ?? 0));
const size = (...vs: unknown[]) => vs.map(num).find((n): n is number => n !== undefined && n > 0 && n <= 1e6);

/** A Dify id we cannot use (dots, too long …) becomes a similar one that is free. */
function allowedIds(nodes: readonly { difyId: string }[], warn: (k: DslWarningKey, p: Record<string, string>) => void): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set(nodes.map((n) => n.difyId).filter((id) => NODE_ID_RE.test(id) && !['sys', 'env', 'conversation'].includes(id)));
  for (const { difyId } of nodes) {
    if (taken.has(difyId)) {
      out.set(difyId, difyId);
      continue;
    }
    const base = (difyId.replace(/[^A-Za-z0-9_-]/g, '_') || 'node').slice(0, 56);
    let id = base;
    for (let i = 2; taken.has(id) || ['sys', 'env', 'conversation'].includes(id); i++) id = `${base}_${i}`;
    taken.add(id);
    out.set(difyId, id);
    warn('idChanged', { from: difyId, to: id });
  }
  return out;
}

function envVariables(v: unknown, warn: (k: DslWarningKey, p: Record<string, string>) => void): EnvVariable[] {
  return list(v).flatMap((x, i): EnvVariable[] => {
    const e = rec(x);
    const name = str(e.name);
    const id = NODE_ID_RE.test(str(e.id)) ? str(e.id) : `env_${i + 1}`;
    const description = str(e.description).slice(0, 500);
    const type = str(e.value_type, 'string');
    const value = e.value;
    if (!VARIABLE_NAME_RE.test(name)) return warn('variableDropped', { name }), [];
    if (type === 'number' && num(value) !== undefined) return [{ id, name, type: 'number', value: num(value)!, description }];
    if (type === 'secret') return [{ id, name, type: 'secret', ...(str(value) ? { value: str(value).slice(0, 10_000) } : {}), description }];
    if (type === 'string') return [{ id, name, type: 'string', value: str(value).slice(0, 10_000), description }];
    return warn('variableDropped', { name }), [];
  });
}

function conversationVariables(v: unknown, warn: (k: DslWarningKey, p: Record<string, string>) => void): ConversationVariable[] {
  return list(v).flatMap((x, i): ConversationVariable[] => {
    const c = rec(x);
    const name = str(c.name);
    const type = CONVERSATION_VALUE_TYPES.find((t) => t === c.value_type);
    if (!VARIABLE_NAME_RE.test(name) || !type) return warn('variableDropped', { name }), [];
    let value = type === 'number' ? (num(c.value) ?? c.value) : c.value;
    if (!matchesValueType(value, type)) value = defaultValueFor(type);
    return [{ id: NODE_ID_RE.test(str(c.id)) ? str(c.id) : `conv_${i + 1}`, name, type, value, description: str(c.description).slice(0, 500) }];
  });
}

/**
 * Old Dify exports (before its iteration-start and loop-start nodes) mark a container's first step
 * with `start_node_id` and `isIterationStart` / `isLoopStart`, with no edge into it. Such a container
 * gets its start node here (added to `out`) and an edge from it to that step.
 */
function containerStarts(registry: NodeRegistry, nodes: readonly DifyNode[], out: FlowNode[]): FlowEdge[] {
  const edges: FlowEdge[] = [];
  const taken = new Set(out.map((n) => n.id));
  for (const d of nodes) {
    const container = out.find((n) => n.id === d.id);
    const spec = container && registry.get(container.kind)?.container;
    const startPlugin = spec && registry.get(spec.startKind);
    if (!container || !spec || !startPlugin || out.some((n) => n.parentId === container.id && n.kind === spec.startKind)) continue;
    const marked = nodes.find((c) => c.parent === d.difyId && (c.data.isIterationStart === true || c.data.isLoopStart === true));
    const firstDify = str(d.data.start_node_id) || marked?.difyId;
    const first = out.find((n) => n.parentId === container.id && n.id === nodes.find((c) => c.difyId === firstDify)?.id);
    let id = `${container.id}start`.slice(0, 64);
    for (let i = 2; taken.has(id); i++) id = `${container.id.slice(0, 56)}start${i}`;
    taken.add(id);
    out.push({ id, kind: startPlugin.kind, kindVersion: startPlugin.version, title: '', position: { x: 24, y: 68 }, config: startPlugin.configSchema.parse({}) as NodeConfig, parentId: container.id });
    if (first) edges.push({ id: edgeId(id, 'source', first.id, DEFAULT_TARGET_HANDLE), source: id, sourceHandle: 'source', target: first.id, targetHandle: DEFAULT_TARGET_HANDLE });
  }
  return edges;
}

/**
 * Reads a Dify DSL file (app modes `workflow` and `advanced-chat`) into a flow document. Node types
 * both products have are mapped to our kinds and configs (references kept, Dify's system-variable
 * selectors rewritten, positions, branches, environment and conversation variables kept). Nodes it
 * cannot map are left out with their connections and listed in `unmapped`; smaller losses are
 * `warnings`. Both are i18n keys in `dsl` for the import dialog.
 * @example
 * const r = importDifyDsl(await file.text(), registry, { mode: app.mode });
 * if (r.ok) { store.replaceDocument(r.document); showSummary(r.unmapped, r.warnings); }
 */
export function importDifyDsl(text: string, registry: NodeRegistry, opts: ImportOptions = {}): DifyImport {
  const yaml = parseYamlObject(text);
  if (!yaml.ok) return yaml;
  const file = yaml.value;
  const format = detectFlowFormat(file);
  if (format !== 'dify') return { ok: false, errors: [dslError(format === 'weft' ? 'weftFile' : 'formatUnknown')] };
  const app = rec(file.app);
  const mode = DIFY_MODES[str(app.mode)];
  if (!mode) return { ok: false, errors: [dslError('modeUnsupported', { mode: str(app.mode, '-') })] };
  if (opts.mode && opts.mode !== mode) return { ok: false, errors: [dslError('modeMismatch', { mode, expected: opts.mode })] };
  const workflow = rec(file.workflow);
  const graph = rec(workflow.graph);
  if (!Array.isArray(graph.nodes)) return { ok: false, errors: [dslError('graphMissing')] };

  const warnings: DslWarning[] = [];
  const seen = new Set<string>();
  const warn = (key: DslWarningKey, params?: Record<string, string | number>) => {
    const w = dslWarning(key, params);
    const k = JSON.stringify(w);
    if (seen.has(k) || warnings.length >= MAX_WARNINGS) return;
    seen.add(k);
    warnings.push(w);
  };

  const difyNodes = graph.nodes.map(rec).filter((n) => str(n.id));
  const ids = allowedIds(difyNodes.map((n) => ({ difyId: str(n.id) })), warn);
  const nodes: DifyNode[] = difyNodes.map((n) => {
    const data = rec(n.data);
    const parent = str(n.parentId) || str(data.iteration_id) || str(data.loop_id) || undefined;
    return {
      difyId: str(n.id),
      id: ids.get(str(n.id))!,
      type: n.type === 'custom-note' ? 'note' : str(data.type, '-'),
      title: str(data.title).slice(0, 200),
      parent: parent && parent !== str(n.id) ? parent : undefined,
      raw: n,
      data,
    };
  });
  const startIds = new Set(nodes.filter((n) => n.type === 'start').map((n) => n.difyId));
  const byDifyId = new Map(nodes.map((n) => [n.difyId, n]));

  // Map every node on its own first; whether it stays also depends on its container.
  const mapped = new Map<string, FlowNode>();
  for (const n of nodes) {
    // The node's id goes with its warnings: two nodes of one title are two warnings, and the dialog can point at each.
    const ctx: DifyContext = { mode, ids, startIds, type: n.type, node: n.title || n.difyId, warn: (key, params) => warn(key as DslWarningKey, params && 'node' in params ? { ...params, nodeId: n.id } : params) };
    const found = fromDify(registry, n.type, n.data, ctx);
    if (!found) continue;
    const { plugin, config } = found;
    const kind = plugin.kind;
    const width = size(n.raw.width, n.data.width);
    const height = size(n.raw.height, n.data.height);
    const sized = Boolean(plugin.container || plugin.category === 'annotation') && width && height;
    mapped.set(n.difyId, {
      id: n.id,
      kind,
      kindVersion: plugin.version,
      title: n.title,
      position: { x: coordinate(rec(n.raw.position).x), y: coordinate(rec(n.raw.position).y) },
      config: fitConfig(plugin.configSchema, config, ctx),
      ...(sized ? { width, height } : {}),
    });
  }

  const kept = new Map<string, boolean>();
  const keeps = (n: DifyNode, depth = 0): boolean => {
    if (kept.has(n.difyId)) return kept.get(n.difyId)!;
    const parent = n.parent ? byDifyId.get(n.parent) : undefined;
    const ok = mapped.has(n.difyId) && (!n.parent || (parent !== undefined && depth < 64 && keeps(parent, depth + 1)));
    kept.set(n.difyId, ok);
    return ok;
  };

  const unmapped: UnmappedNode[] = [];
  const out: FlowNode[] = [];
  for (const n of nodes) {
    if (keeps(n)) {
      const node = mapped.get(n.difyId)!;
      out.push(n.parent ? { ...node, parentId: ids.get(n.parent)! } : node);
      continue;
    }
    unmapped.push({ id: n.difyId, type: n.type, title: n.title });
    if (mapped.has(n.difyId)) warn('insideUnmapped', { node: n.title || n.difyId });
  }

  const edges: FlowEdge[] = [];
  const edgeIds = new Set<string>();
  for (const e of containerStarts(registry, nodes, out)) {
    edgeIds.add(e.id);
    edges.push(e);
  }
  const byId = new Map(out.map((n) => [n.id, n]));
  let dropped = 0;
  for (const e of list(graph.edges).map(rec)) {
    const source = byId.get(ids.get(str(e.source)) ?? '');
    const target = byId.get(ids.get(str(e.target)) ?? '');
    if (!source || !target || source.parentId !== target.parentId || source.id === target.id) {
      dropped++;
      continue;
    }
    const handle = str(e.sourceHandle, 'source') || 'source';
    if (!registry.sourceHandlesOf(source).some((h) => h.id === handle)) {
      warn('edgeHandleUnknown', { node: source.title || source.id, handle });
      continue;
    }
    const id = edgeId(source.id, handle, target.id, DEFAULT_TARGET_HANDLE);
    if (edgeIds.has(id)) continue;
    edgeIds.add(id);
    edges.push({ id, source: source.id, sourceHandle: handle, target: target.id, targetHandle: DEFAULT_TARGET_HANDLE });
  }
  if (dropped) warn('edgesDropped', { count: dropped });
  // Dify writes edges before nodes: connections to nodes that are nowhere in the file mean it was cut off.
  const inFile = new Set(nodes.map((n) => n.difyId));
  const dangling = list(graph.edges).map(rec).filter((e) => !inFile.has(str(e.source)) || !inFile.has(str(e.target))).length;
  if (dangling) warn('fileCut', { count: dangling });

  const conversation = mode === 'chatflow' ? conversationVariables(workflow.conversation_variables, warn) : [];
  const ignored = list(workflow.conversation_variables).length;
  if (mode !== 'chatflow' && ignored) warn('conversationVariablesDropped', { count: ignored });

  const document = {
    schemaVersion: FLOW_SCHEMA_VERSION,
    mode,
    nodes: out,
    edges,
    variables: { env: envVariables(workflow.environment_variables, warn), conversation },
    notes: '',
  };
  const checked = checkImportedDocument(document, registry);
  if (!checked.ok) return checked;
  const meta = FlowFileApp.safeParse({ name: str(app.name).slice(0, 64), description: str(app.description).slice(0, 500), mode });
  return { ok: true, document: checked.document, app: meta.success ? meta.data : FlowFileApp.parse({ mode }), unmapped, warnings };
}
