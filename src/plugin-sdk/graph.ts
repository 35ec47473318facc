import type { FlowDocument, FlowEdge, FlowNode } from '../../schemas/flow';
import type { FlowGraph } from './types';

const NONE: readonly never[] = Object.freeze([]);

/**
 * A read-only graph over a flow document with indexed lookups (built in one pass; `upstream` is
 * computed on demand and cached). Rebuild it when the document changes.
 * @example
 * const g = createFlowGraph(doc);
 * g.upstream('llm1').map((n) => n.id); // ['start']
 */
export function createFlowGraph(document: FlowDocument): FlowGraph {
  const byId = new Map<string, FlowNode>();
  const incoming = new Map<string, FlowEdge[]>();
  const outgoing = new Map<string, FlowEdge[]>();
  const children = new Map<string | null, FlowNode[]>();
  for (const n of document.nodes) {
    byId.set(n.id, n);
    const key = n.parentId ?? null;
    (children.get(key) ?? children.set(key, []).get(key)!).push(n);
  }
  for (const e of document.edges) {
    (incoming.get(e.target) ?? incoming.set(e.target, []).get(e.target)!).push(e);
    (outgoing.get(e.source) ?? outgoing.set(e.source, []).get(e.source)!).push(e);
  }
  const upstreamCache = new Map<string, readonly FlowNode[]>();
  // Guards against a cycle of containers in a document that was not validated.
  const visiting = new Set<string>();

  function upstream(id: string): readonly FlowNode[] {
    const cached = upstreamCache.get(id);
    if (cached) return cached;
    if (visiting.has(id)) return NONE;
    visiting.add(id);
    const out: FlowNode[] = [];
    const seen = new Set<string>([id]);
    // Breadth first along incoming edges (nearest first); edges never cross containers.
    let frontier = [id];
    while (frontier.length) {
      const next: string[] = [];
      for (const cur of frontier) {
        for (const e of incoming.get(cur) ?? NONE) {
          if (seen.has(e.source)) continue;
          seen.add(e.source);
          const n = byId.get(e.source);
          if (n) out.push(n);
          next.push(e.source);
        }
      }
      frontier = next;
    }
    const parentId = byId.get(id)?.parentId;
    const parent = parentId ? byId.get(parentId) : undefined;
    if (parent && !seen.has(parent.id)) {
      out.push(parent);
      seen.add(parent.id);
      for (const n of upstream(parent.id)) {
        if (!seen.has(n.id)) {
          seen.add(n.id);
          out.push(n);
        }
      }
    }
    visiting.delete(id);
    upstreamCache.set(id, out);
    return out;
  }

  return {
    document,
    mode: document.mode,
    nodes: document.nodes,
    edges: document.edges,
    node: (id) => byId.get(id),
    incoming: (id) => incoming.get(id) ?? NONE,
    outgoing: (id) => outgoing.get(id) ?? NONE,
    children: (parentId) => children.get(parentId) ?? NONE,
    upstream,
  };
}
