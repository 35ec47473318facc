import type { FlowDocument } from '../../schemas/flow';
import type { NodeRegistry } from '../plugin-sdk';
import { absolutePosition, descendantsOf, findNode } from './store/operations';

/**
 * Moving nodes into and out of iteration/loop containers: the node's `parentId` changes and its
 * position is rewritten relative to the new container, so it stays where the builder dropped it.
 * Edges never cross a container boundary, so edges between moved and unmoved nodes go.
 */

/**
 * Why a move is refused (a key under `canvas:move.`):
 * - `nodeMissing`: a node or the container is not in the document;
 * - `notContainer`: the target is not an iteration/loop container;
 * - `intoItself`: a container into itself or something inside it;
 * - `fixedNode`: a node that belongs where it is (start, a container's start);
 * - `placementNotAllowed`: the kind may not sit in that container (plugin `parents`).
 */
export const MOVE_REASONS = ['nodeMissing', 'notContainer', 'intoItself', 'fixedNode', 'placementNotAllowed'] as const;
export type MoveReason = (typeof MOVE_REASONS)[number];

export type MoveResult = { ok: true } | { ok: false; reason: MoveReason };

/** Whether `ids` may move into container `parentId` (`null` = the top level). */
export function canReparent(doc: FlowDocument, registry: NodeRegistry, ids: readonly string[], parentId: string | null): MoveResult {
  const refuse = (reason: MoveReason): MoveResult => ({ ok: false, reason });
  const parent = parentId === null ? undefined : findNode(doc, parentId);
  if (parentId !== null && !parent) return refuse('nodeMissing');
  if (parent && !registry.get(parent.kind)?.container) return refuse('notContainer');
  if (parentId !== null && (ids.includes(parentId) || descendantsOf(doc, ids).has(parentId))) return refuse('intoItself');
  const scope = parent ? parent.kind : 'root';
  for (const id of ids) {
    const node = findNode(doc, id);
    if (!node) return refuse('nodeMissing');
    if ((node.parentId ?? null) === parentId) continue;
    const plugin = registry.get(node.kind);
    if (plugin && !plugin.deletable) return refuse('fixedNode');
    if (plugin?.parents && !plugin.parents.includes(scope)) return refuse('placementNotAllowed');
  }
  return { ok: true };
}

/**
 * Moves nodes into container `parentId` (or out to the top level with `null`), keeping their place
 * on screen. Check with {@link canReparent} first; returns the ids that changed container.
 */
export function reparent(draft: FlowDocument, ids: readonly string[], parentId: string | null): string[] {
  const base = parentId === null ? { x: 0, y: 0 } : absolutePosition(draft, parentId);
  const moving = ids.filter((id) => {
    const n = findNode(draft, id);
    return n && (n.parentId ?? null) !== parentId;
  });
  if (!moving.length) return [];
  // Positions are computed before any node changes parent (a moved node may be another's container).
  const at = new Map(moving.map((id) => [id, absolutePosition(draft, id)]));
  const moved = new Set(moving);
  for (const n of draft.nodes) {
    if (!moved.has(n.id)) continue;
    const abs = at.get(n.id)!;
    n.position = { x: abs.x - base.x, y: abs.y - base.y };
    if (parentId === null) delete n.parentId;
    else n.parentId = parentId;
  }
  if (draft.edges.some((e) => moved.has(e.source) !== moved.has(e.target))) {
    draft.edges = draft.edges.filter((e) => moved.has(e.source) === moved.has(e.target));
  }
  return moving;
}

/** The innermost container whose box holds a point in canvas coordinates (drop target), if any. */
export function containerAt(doc: FlowDocument, registry: NodeRegistry, point: { x: number; y: number }, exclude: ReadonlySet<string> = new Set()): string | null {
  let best: { id: string; depth: number } | null = null;
  for (const n of doc.nodes) {
    if (exclude.has(n.id) || !registry.get(n.kind)?.container || !n.width || !n.height) continue;
    const p = absolutePosition(doc, n.id);
    if (point.x < p.x || point.y < p.y || point.x > p.x + n.width || point.y > p.y + n.height) continue;
    let depth = 0;
    for (let pid = n.parentId; pid && depth < 64; pid = findNode(doc, pid)?.parentId) depth++;
    if (!best || depth > best.depth) best = { id: n.id, depth };
  }
  return best?.id ?? null;
}
