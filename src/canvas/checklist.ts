import { isTeamMemberKind, type FlowDocument, type FlowNode } from '../../schemas/flow';
import type { ModelOption } from './widgets/context';
import { collectReferences, createFlowGraph, type FlowGraph, type IssueSeverity, type NodeRegistry } from '../plugin-sdk';

/** The i18n namespace of the checks the canvas adds to the plugins' own. */
export const CANVAS_NAMESPACE = 'canvas';

/**
 * One line of the checklist panel: what stops the flow from running, on which node (clicking it
 * selects the node). Texts are i18n keys: `t(\`${ns}:${key}\`, params)`.
 */
export interface ChecklistEntry {
  /** Stable within one computation (React keys). */
  id: string;
  nodeId: string;
  ns: string;
  key: string;
  params?: Record<string, string | number>;
  severity: IssueSeverity;
  /** Where in the node's config (the inspector highlights it). */
  path?: (string | number)[];
}

/** Notes and other annotations are not steps: they need no connections. */
const isStep = (registry: NodeRegistry, node: FlowNode) => registry.get(node.kind)?.category !== 'annotation';
/** Nodes reachable along edges from any of `from` (themselves included). */
function reachable(graph: FlowGraph, from: readonly string[]): Set<string> {
  const seen = new Set(from);
  const stack = [...from];
  while (stack.length) {
    for (const e of graph.outgoing(stack.pop()!)) {
      if (!seen.has(e.target)) {
        seen.add(e.target);
        stack.push(e.target);
      }
    }
  }
  return seen;
}

/** Start and a container's start: where a scope's run begins. */
const isEntry = (registry: NodeRegistry, node: FlowNode) => registry.get(node.kind)?.targetHandle === false;

function connectionEntries(graph: FlowGraph, registry: NodeRegistry): Omit<ChecklistEntry, 'id'>[] {
  const out: Omit<ChecklistEntry, 'id'>[] = [];
  const scopes = new Set<string | null>(graph.nodes.map((n) => n.parentId ?? null));
  const entry = (nodeId: string, key: string): Omit<ChecklistEntry, 'id'> => ({ nodeId, ns: CANVAS_NAMESPACE, key: `checklist.${key}`, severity: 'error' });
  for (const scope of scopes) {
    const steps = graph.children(scope).filter((n) => isStep(registry, n));
    const entries = steps.filter((n) => isEntry(registry, n)).map((n) => n.id);
    const live = entries.length ? reachable(graph, entries) : undefined;
    for (const n of steps) {
      if (isEntry(registry, n)) {
        if (steps.length > 1 && !graph.outgoing(n.id).length) out.push(entry(n.id, 'entryNotConnected'));
      } else if (!graph.incoming(n.id).length) {
        // An agent team's member stands apart on purpose: it takes hand-offs (its plugin warns when none come).
        if (isTeamMemberKind(graph.mode, n) && !graph.outgoing(n.id).length) continue;
        out.push(entry(n.id, 'notConnected'));
      } else if (live && !live.has(n.id)) {
        out.push(entry(n.id, 'unreachable'));
      }
    }
  }
  return out;
}

/**
 * References in nodes of kinds the registry does not know (their schema is unknown, so the
 * registry cannot check them): every `{{#nodeId.path#}}` or namespaced selector must name an
 * existing node.
 */
function unknownKindReferences(graph: FlowGraph, registry: NodeRegistry): Omit<ChecklistEntry, 'id'>[] {
  const out: Omit<ChecklistEntry, 'id'>[] = [];
  for (const n of graph.nodes) {
    if (registry.has(n.kind)) continue;
    for (const ref of collectReferences(undefined, n.config)) {
      const head = ref.selector[0];
      if (head === 'sys' || head === 'env' || head === 'conversation' || graph.node(head)) continue;
      out.push({
        nodeId: n.id,
        ns: CANVAS_NAMESPACE,
        key: 'checklist.referenceBroken',
        params: { reference: ref.selector.join('.') },
        severity: 'error',
        path: ref.path,
      });
    }
  }
  return out;
}

/**
 * Nodes whose chat model (`config.model`: provider, name and mode, as the llm, agent, classifier and
 * extractor kinds hold it) is not among the workspace's models: no credentials for its provider, or
 * the model disabled or removed. A warning, not an error: the list is what the browser loaded, and
 * the run says for sure (MODEL-not_configured, MODEL-model_not_found, MODEL-model_disabled).
 */
function unavailableModels(graph: FlowGraph, models: readonly ModelOption[]): Omit<ChecklistEntry, 'id'>[] {
  const offered = new Set(models.map((m) => `${m.provider}\u0000${m.model}`));
  const out: Omit<ChecklistEntry, 'id'>[] = [];
  for (const n of graph.nodes) {
    const m = (n.config as { model?: unknown }).model;
    if (!m || typeof m !== 'object') continue;
    const { provider, name, mode } = m as { provider?: unknown; name?: unknown; mode?: unknown };
    if (typeof provider !== 'string' || typeof name !== 'string' || !provider || !name || typeof mode !== 'string') continue;
    if (offered.has(`${provider}\u0000${name}`)) continue;
    out.push({ nodeId: n.id, ns: CANVAS_NAMESPACE, key: 'checklist.modelUnavailable', params: { model: name, provider }, severity: 'warning', path: ['model'] });
  }
  return out;
}

/**
 * Knowledge bases a node names (`config.datasetIds` of retrieval, `config.knowledgeIds` of agents) that
 * the workspace does not have: ids from an imported Dify file, or a base deleted since. An error: the
 * run would fail with KNOWLEDGE-NOT-FOUND, and the builder must pick a base.
 */
function unknownKnowledgeBases(graph: FlowGraph, bases: readonly { id: string }[]): Omit<ChecklistEntry, 'id'>[] {
  const known = new Set(bases.map((b) => b.id));
  const out: Omit<ChecklistEntry, 'id'>[] = [];
  for (const n of graph.nodes) {
    for (const field of ['datasetIds', 'knowledgeIds'] as const) {
      const ids = (n.config as Record<string, unknown>)[field];
      if (!Array.isArray(ids)) continue;
      ids.forEach((id, i) => {
        if (typeof id === 'string' && !known.has(id)) out.push({ nodeId: n.id, ns: CANVAS_NAMESPACE, key: 'checklist.knowledgeUnknown', params: { node: n.title || n.id, id }, severity: 'error', path: [field, i] });
      });
    }
  }
  return out;
}

/** What the checklist knows besides the flow. */
export interface ChecklistContext {
  /** The workspace's chat models; absent when not known (no model check then). */
  models?: readonly ModelOption[];
  /** The workspace's knowledge bases; absent when not known (no knowledge check then). */
  knowledgeBases?: readonly { id: string }[];
}

/**
 * Everything that stops the flow from running, in document order of the nodes: the registry's
 * checks (unknown kind, mode, placement, config against the schema, missing or not-upstream
 * references, the plugin's own `validate`), then unconnected and unreachable steps, then broken
 * references in nodes of unknown kinds, then chat models the workspace does not offer (when
 * `context.models` is given). Errors stop a run; warnings do not.
 * @example
 * const entries = computeChecklist(store.toDocument(), store.registry);
 * entries.map((e) => t(`${e.ns}:${e.key}`, e.params));
 */
export function computeChecklist(doc: FlowDocument, registry: NodeRegistry, graph: FlowGraph = createFlowGraph(doc), context: ChecklistContext = {}): ChecklistEntry[] {
  const found = [
    ...registry.validateFlow(graph),
    ...connectionEntries(graph, registry),
    ...unknownKindReferences(graph, registry),
    ...(context.models ? unavailableModels(graph, context.models) : []),
    ...(context.knowledgeBases ? unknownKnowledgeBases(graph, context.knowledgeBases) : []),
  ];
  const order = new Map(doc.nodes.map((n, i) => [n.id, i]));
  return found
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (order.get(a.e.nodeId) ?? 0) - (order.get(b.e.nodeId) ?? 0) || a.i - b.i)
    .map(({ e }, i) => ({ ...e, id: `${e.nodeId}:${e.ns}:${e.key}:${i}` }));
}

/** Whether anything in the list stops a run. */
export const hasBlockingIssues = (entries: readonly ChecklistEntry[]) => entries.some((e) => e.severity === 'error');
