import { isDraft, original } from 'immer';
import type { FlowDocument, FlowEdge, FlowNode, Position } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';

/**
 * Document operations shared by the store's actions and the commands. They mutate an immer draft
 * (or any mutable document) and never touch view state.
 */

/**
 * The index of a node. On an immer draft it searches the original array: walking the draft would
 * wrap every node it passes in a proxy, which made each edit of a large flow scan slowly. The
 * index is checked against the draft, since the same recipe may have changed the list.
 */
function indexOfNode(doc: FlowDocument, id: string): number {
  const base = isDraft(doc) ? original(doc) : undefined;
  if (base) {
    const i = base.nodes.findIndex((n) => n.id === id);
    if (i >= 0 && i < doc.nodes.length && original(doc.nodes)?.[i] === base.nodes[i] && base.nodes[i].id === id) return i;
  }
  return doc.nodes.findIndex((n) => n.id === id);
}

export function findNode(doc: FlowDocument, id: string): FlowNode | undefined {
  const i = indexOfNode(doc, id);
  return i < 0 ? undefined : doc.nodes[i];
}

/** A node id not used in `taken`: the kind (cut to fit) and the smallest free number. */
export function uniqueNodeId(kind: string, taken: ReadonlySet<string>): string {
  const base = kind.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48) || 'node';
  for (let i = 1; ; i++) {
    const id = `${base}_${i}`;
    if (!taken.has(id)) return id;
  }
}

export const nodeIds = (doc: FlowDocument) => new Set(doc.nodes.map((n) => n.id));

/** A node's position on the canvas (positions inside containers are relative to the container). */
export function absolutePosition(doc: FlowDocument, id: string): Position {
  let x = 0;
  let y = 0;
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  for (let n = byId.get(id), depth = 0; n && depth < 64; n = n.parentId ? byId.get(n.parentId) : undefined, depth++) {
    x += n.position.x;
    y += n.position.y;
  }
  return { x, y };
}

/** Every node inside the given containers, at any depth (not the containers themselves). */
export function descendantsOf(doc: FlowDocument, ids: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const frontier = new Set(ids);
  while (frontier.size) {
    const next = new Set<string>();
    for (const n of doc.nodes) {
      if (n.parentId && frontier.has(n.parentId) && !out.has(n.id)) {
        out.add(n.id);
        next.add(n.id);
      }
    }
    frontier.clear();
    next.forEach((id) => frontier.add(id));
  }
  return out;
}

/**
 * The nodes a delete of `ids` removes: the deletable ones with everything inside them. Kinds that
 * may not be deleted (start, a container's start) stay, unless their container goes.
 */
export function deletionSet(doc: FlowDocument, registry: NodeRegistry, ids: Iterable<string>): Set<string> {
  const chosen = new Set<string>();
  for (const id of ids) {
    const n = findNode(doc, id);
    if (n && registry.get(n.kind)?.deletable !== false) chosen.add(id);
  }
  for (const id of descendantsOf(doc, chosen)) chosen.add(id);
  return chosen;
}

/** Removes nodes (with `deletionSet` semantics) and every edge touching them; returns what went. */
export function removeNodes(draft: FlowDocument, registry: NodeRegistry, ids: Iterable<string>): string[] {
  const gone = deletionSet(draft, registry, ids);
  if (!gone.size) return [];
  draft.nodes = draft.nodes.filter((n) => !gone.has(n.id));
  if (draft.edges.some((e) => gone.has(e.source) || gone.has(e.target))) {
    draft.edges = draft.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target));
  }
  return [...gone];
}

export function removeEdges(draft: FlowDocument, ids: Iterable<string>): void {
  const gone = new Set(ids);
  if (draft.edges.some((e) => gone.has(e.id))) draft.edges = draft.edges.filter((e) => !gone.has(e.id));
}

/** Adds nodes and edges, skipping edges whose id exists. */
export function insert(draft: FlowDocument, nodes: readonly FlowNode[], edges: readonly FlowEdge[] = []): void {
  draft.nodes.push(...nodes);
  const have = new Set(draft.edges.map((e) => e.id));
  for (const e of edges) if (!have.has(e.id)) draft.edges.push(e);
}

/** Sets positions (relative to each node's container, as stored). */
export function moveNodes(draft: FlowDocument, moves: Readonly<Record<string, Position>>): void {
  for (const [id, p] of Object.entries(moves)) {
    const n = findNode(draft, id);
    if (n && (n.position.x !== p.x || n.position.y !== p.y)) n.position = { x: p.x, y: p.y };
  }
}

const isContainerish = (v: unknown): v is Record<string | number, unknown> => typeof v === 'object' && v !== null;

/**
 * Sets one config value by path (`['cases', 0, 'conditions']`), creating objects on the way.
 * Returns false when the node is missing or the path runs through a non-object.
 */
export function setConfigValue(draft: FlowDocument, nodeId: string, path: readonly (string | number)[], value: unknown): boolean {
  const node = findNode(draft, nodeId);
  if (!node || !path.length) return false;
  let at: Record<string | number, unknown> = node.config;
  for (const seg of path.slice(0, -1)) {
    if (at[seg] === undefined) at[seg] = typeof seg === 'number' ? [] : {};
    const next = at[seg];
    if (!isContainerish(next)) return false;
    at = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (Object.is(at[last], value)) return true;
  at[last] = value;
  return true;
}
