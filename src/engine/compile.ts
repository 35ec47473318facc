import { DEFAULT_SOURCE_HANDLE, FAIL_BRANCH_HANDLE, type FlowDocument, type FlowMode, type FlowNode, type NodeConfig } from '../../schemas/flow';
import type { AnyNodeExecutor, ExecutorRegistry } from '../plugin-sdk/executor';
import { createFlowGraph } from '../plugin-sdk/graph';
import { readNodeSettings, type NodeSettings } from '../plugin-sdk/node-settings';
import type { NodeRegistry } from '../plugin-sdk/registry';
import type { AnyNodePlugin, NodeIssue } from '../plugin-sdk/types';
import { RUN_ERRORS, type RunErrorCode } from './errors';
import { templateSegments, type TemplateSegment } from './pool';

/** The registries a flow is compiled against. */
export interface EngineRegistries {
  nodes: NodeRegistry;
  executors: ExecutorRegistry;
}

export interface CompileOptions {
  /** Run the registry's checks (config against schemas, references …). Default true. */
  validate?: boolean;
  /**
   * Top-level nodes that may stand apart: when it returns true for a node with no edges at all,
   * the node is not scheduled (nor "unreachable") but compiled into {@link ExecutionPlan.peers},
   * where a running node reaches it through `ctx.peer` (agent teams: the agents that take
   * hand-offs). The server decides which nodes (the engine knows no node kind).
   * @example compile(doc, registries, { detached: (n) => doc.mode === 'agent_team' && n.kind === 'agent' })
   */
  detached?: (node: FlowNode) => boolean;
}

/** Why a flow cannot run. */
export interface CompileIssue {
  code: RunErrorCode;
  message: string;
  nodeId?: string;
  /** For FLOW_INVALID: the registry's issue (i18n namespace, key and params). */
  issue?: NodeIssue;
}

/** A node ready to run: config parsed, settings read, edges indexed within its scope. */
export interface PlanNode {
  readonly id: string;
  readonly kind: string;
  readonly title: string;
  readonly parentId?: string;
  readonly config: NodeConfig;
  readonly plugin: AnyNodePlugin;
  /** Absent only for a container's start node (it runs as a no-op). */
  readonly executor?: AnyNodeExecutor;
  readonly settings: NodeSettings;
  /** Position in its scope's topological order. */
  readonly local: number;
  readonly out: readonly { target: number; handle: string }[];
  readonly inCount: number;
  /** The node can only go on along one handle, so its targets are sure to run once it is. */
  readonly singleOutcome: boolean;
  /** Selectors in the config (the default trace inputs, keyed `node.path`). */
  readonly references: readonly { key: string; selector: readonly string[] }[];
  /** Containers: the body. */
  readonly body?: PlanScope;
  /** Answer nodes: the template's parts, and the answer nodes upstream (local indexes). */
  readonly answer?: { segments: TemplateSegment[]; ancestors: number[] };
}

export interface PlanScope {
  /** The container's id, or null for the top level. */
  readonly containerId: string | null;
  /** In topological order. */
  readonly nodes: readonly PlanNode[];
  readonly start: number;
  readonly byId: ReadonlyMap<string, PlanNode>;
  /** Local indexes of answer nodes, in order (streamed at the top level). */
  readonly answers: readonly number[];
}

/** A compiled flow; immutable, reusable for many runs. */
export interface ExecutionPlan {
  readonly document: FlowDocument;
  readonly mode: FlowMode;
  readonly root: PlanScope;
  /** Every runnable node by id, at any depth. */
  readonly nodes: ReadonlyMap<string, PlanNode>;
  /** Detached nodes (see {@link CompileOptions.detached}) by id: compiled, never scheduled. */
  readonly peers: ReadonlyMap<string, PlanNode>;
  readonly envDefaults: Readonly<Record<string, unknown>>;
  readonly conversationDefaults: Readonly<Record<string, unknown>>;
}

export type CompileResult = { ok: true; plan: ExecutionPlan } | { ok: false; issues: CompileIssue[] };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Checks a flow and prepares it to run: exactly one start at the top level and one inside each
 * container, every node reachable from its start, no cycles (loops are containers), an executor
 * for every kind. Annotation nodes (notes) are left out.
 * @example
 * const compiled = compile(doc, { nodes: registry, executors });
 * if (compiled.ok) for await (const event of run(compiled.plan, { inputs })) console.log(event.type);
 */
export function compile(document: FlowDocument, registries: EngineRegistries, opts: CompileOptions = {}): CompileResult {
  const { nodes: registry, executors } = registries;
  const issues: CompileIssue[] = [];
  const normalized = document.nodes.map((n) => registry.normalizeNode(n));
  const doc: FlowDocument = { ...document, nodes: normalized };
  const graph = createFlowGraph(doc);

  if (opts.validate !== false) {
    for (const i of registry.validateFlow(graph)) {
      if (i.severity === 'error') issues.push({ code: RUN_ERRORS.FLOW_INVALID, message: `${i.ns}:${i.key}`, nodeId: i.nodeId, issue: i });
    }
  }

  const runnable = new Map<string, { node: FlowNode; plugin: AnyNodePlugin }>();
  for (const node of normalized) {
    const plugin = registry.get(node.kind);
    if (!plugin) {
      if (opts.validate === false) issues.push({ code: RUN_ERRORS.FLOW_INVALID, message: `Unknown node kind "${node.kind}"`, nodeId: node.id });
      continue;
    }
    if (plugin.category !== 'annotation') runnable.set(node.id, { node, plugin });
  }

  // Detached: top-level, no edge in or out, and the caller says so.
  const linked = new Set(doc.edges.flatMap((e) => [e.source, e.target]));
  const detachedIds = new Set<string>();
  if (opts.detached) {
    for (const [id, { node, plugin }] of runnable) {
      if (!node.parentId && !linked.has(id) && !plugin.container && plugin.targetHandle && opts.detached(node)) detachedIds.add(id);
    }
  }

  const scopeMembers = new Map<string | null, string[]>();
  for (const [id, { node }] of runnable) {
    if (detachedIds.has(id)) continue;
    const key = node.parentId ?? null;
    (scopeMembers.get(key) ?? scopeMembers.set(key, []).get(key)!).push(id);
  }
  const edgesOf = new Map<string, { target: string; handle: string }[]>();
  const inCount = new Map<string, number>();
  for (const e of doc.edges) {
    const s = runnable.get(e.source);
    const t = runnable.get(e.target);
    if (!s || !t || s.node.parentId !== t.node.parentId || e.source === e.target) {
      issues.push({ code: RUN_ERRORS.EDGE_INVALID, message: `Edge "${e.id}" cannot run`, nodeId: e.source });
      continue;
    }
    (edgesOf.get(e.source) ?? edgesOf.set(e.source, []).get(e.source)!).push({ target: e.target, handle: e.sourceHandle });
    inCount.set(e.target, (inCount.get(e.target) ?? 0) + 1);
  }

  const all = new Map<string, PlanNode>();

  function buildScope(containerId: string | null, startKind?: string): PlanScope | undefined {
    const ids = scopeMembers.get(containerId) ?? [];
    const starts = ids.filter((id) => {
      const { node, plugin } = runnable.get(id)!;
      return startKind ? node.kind === startKind : !plugin.targetHandle;
    });
    if (starts.length !== 1) {
      const code = containerId ? RUN_ERRORS.CONTAINER_START_MISSING : starts.length ? RUN_ERRORS.START_DUPLICATE : RUN_ERRORS.START_MISSING;
      issues.push({ code, message: containerId ? `Container "${containerId}" needs one start node` : `A flow needs exactly one start node (found ${starts.length})`, ...(containerId ? { nodeId: containerId } : {}) });
      return undefined;
    }
    // Kahn's order from every node; leftovers are on a cycle.
    const remaining = new Map(ids.map((id) => [id, inCount.get(id) ?? 0]));
    const order = ids.filter((id) => remaining.get(id) === 0);
    for (let q = 0; q < order.length; q++) {
      const id = order[q];
      for (const e of edgesOf.get(id) ?? []) {
        const left = remaining.get(e.target)! - 1;
        remaining.set(e.target, left);
        if (left === 0) order.push(e.target);
      }
    }
    if (order.length < ids.length) {
      const ordered = new Set(order);
      const cyclic = ids.filter((id) => !ordered.has(id));
      issues.push({ code: RUN_ERRORS.CYCLE, message: `Nodes ${cyclic.join(', ')} form a cycle (use a loop)`, nodeId: cyclic[0] });
      return undefined;
    }
    const reached = new Set([starts[0]]);
    for (const id of order) if (reached.has(id)) for (const e of edgesOf.get(id) ?? []) reached.add(e.target);
    for (const id of order) {
      if (!reached.has(id)) issues.push({ code: RUN_ERRORS.UNREACHABLE, message: `Node "${id}" cannot be reached from the start`, nodeId: id });
    }

    const localOf = new Map(order.map((id, i) => [id, i]));
    const nodes: PlanNode[] = order.map((id, local) => planNode(id, local, localOf, startKind));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const answers = nodes.filter((n) => n.answer).map((n) => n.local);
    for (const i of answers) {
      const up = new Set(graph.upstream(nodes[i].id).map((n) => n.id));
      (nodes[i].answer as { ancestors: number[] }).ancestors = answers.filter((j) => up.has(nodes[j].id));
    }
    return { containerId, nodes, start: localOf.get(starts[0])!, byId, answers };
  }

  function planNode(id: string, local: number, localOf: Map<string, number>, startKind?: string): PlanNode {
    const { node, plugin } = runnable.get(id)!;
    const executor = executors.get(node.kind);
    const isInnerStart = startKind !== undefined && node.kind === startKind;
    if (!executor && !isInnerStart) issues.push({ code: RUN_ERRORS.EXECUTOR_MISSING, message: `No executor for node kind "${node.kind}"`, nodeId: id });
    const settings = readNodeSettings(node.config);
    const out = (edgesOf.get(id) ?? []).map((e) => ({ target: localOf.get(e.target)!, handle: e.handle }));
    const declared = registry.sourceHandlesOf(node, graph).map((h) => h.id);
    const only = declared.length === 1 ? declared[0] : declared.length === 0 ? DEFAULT_SOURCE_HANDLE : undefined;
    const singleOutcome =
      settings.errorStrategy !== 'fail-branch' && only !== undefined && only !== FAIL_BRANCH_HANDLE && out.every((e) => e.handle === only);
    const references = new Map<string, readonly string[]>();
    for (const r of registry.referencesOf(node)) references.set(r.selector.join('.'), r.selector);
    const p: Mutable<PlanNode> = {
      id,
      kind: node.kind,
      title: node.title,
      ...(node.parentId ? { parentId: node.parentId } : {}),
      config: node.config,
      plugin,
      ...(executor ? { executor } : {}),
      settings,
      local,
      out,
      inCount: inCount.get(id) ?? 0,
      singleOutcome,
      references: [...references].map(([key, selector]) => ({ key, selector })),
    };
    const template = executor?.answerTemplate?.(node.config);
    if (template !== undefined) p.answer = { segments: templateSegments(template), ancestors: [] };
    if (plugin.container) {
      const body = buildScope(id, plugin.container.startKind);
      if (body) p.body = body;
    }
    all.set(id, p);
    return p;
  }

  const root = buildScope(null);
  const peers = new Map<string, PlanNode>();
  for (const id of detachedIds) {
    const p = planNode(id, 0, new Map());
    // Not in `all`: `plan.nodes` holds what the scopes schedule.
    all.delete(id);
    peers.set(id, p);
  }
  if (issues.length || !root) return { ok: false, issues };

  const envDefaults: Record<string, unknown> = {};
  for (const v of doc.variables.env) if (v.value !== undefined) envDefaults[v.name] = v.value;
  const conversationDefaults: Record<string, unknown> = {};
  for (const v of doc.variables.conversation) conversationDefaults[v.name] = v.value;
  return { ok: true, plan: { document: doc, mode: doc.mode, root, nodes: all, peers, envDefaults, conversationDefaults } };
}
