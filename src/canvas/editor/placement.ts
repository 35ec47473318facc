import type { FlowDocument, Position } from '../../../schemas/flow';

type Size = { width: number; height: number };

const DEFAULT_SIZE: Size = { width: 240, height: 60 };
const GAP_X = 80;
const STEP_Y = 100;

const overlaps = (a: Position & Size, b: Position & Size) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Where a node added after `sourceId` (the "+" of a handle) goes: to its right, moved down past
 * any node of the same container already there, so a new step never lands on another.
 * Positions are as stored (relative to the container). Undefined when the source is gone.
 */
export function freeSpotAfter(doc: FlowDocument, sourceId: string, sizeOf: (id: string) => Size | undefined): Position | undefined {
  const source = doc.nodes.find((n) => n.id === sourceId);
  if (!source) return undefined;
  const size = (id: string, w?: number, h?: number): Size => sizeOf(id) ?? (w && h ? { width: w, height: h } : DEFAULT_SIZE);
  const sw = size(source.id, source.width, source.height).width;
  const siblings = doc.nodes
    .filter((n) => n.id !== source.id && (n.parentId ?? null) === (source.parentId ?? null))
    .map((n) => ({ ...n.position, ...size(n.id, n.width, n.height) }));
  const spot = { x: source.position.x + sw + GAP_X, y: source.position.y, ...DEFAULT_SIZE };
  for (let i = 0; i < 50 && siblings.some((b) => overlaps(spot, { ...b, x: b.x - 20, y: b.y - 20, width: b.width + 40, height: b.height + 40 })); i++) spot.y += STEP_Y;
  return { x: spot.x, y: spot.y };
}

/**
 * A free spot for a new node near `at` (click-to-add, "add node here", a palette drop): `at` itself
 * when nothing of the same container is there, else the nearest spot on rings of 40 px around it
 * (right and down first) where the new node keeps 20 px from every other. Positions as stored.
 */
export function freeSpotNear(doc: FlowDocument, at: Position, parentId: string | undefined, sizeOf: (id: string) => Size | undefined): Position {
  const boxes = doc.nodes
    .filter((n) => (n.parentId ?? null) === (parentId ?? null))
    .map((n) => ({ ...n.position, ...(sizeOf(n.id) ?? (n.width && n.height ? { width: n.width, height: n.height } : DEFAULT_SIZE)) }))
    .map((b) => ({ x: b.x - 20, y: b.y - 20, width: b.width + 40, height: b.height + 40 }));
  const free = (p: Position) => !boxes.some((b) => overlaps({ ...p, ...DEFAULT_SIZE }, b));
  if (free(at)) return at;
  const STEP = 40;
  for (let ring = 1; ring <= 40; ring++) {
    // The ring's spots, nearest first (right and down win ties: the way a flow reads).
    const spots: Position[] = [];
    for (let i = -ring; i <= ring; i++) {
      spots.push({ x: at.x + i * STEP, y: at.y + ring * STEP }, { x: at.x + ring * STEP, y: at.y + i * STEP });
      spots.push({ x: at.x + i * STEP, y: at.y - ring * STEP }, { x: at.x - ring * STEP, y: at.y + i * STEP });
    }
    spots.sort((a, b) => Math.hypot(a.x - at.x, a.y - at.y) - Math.hypot(b.x - at.x, b.y - at.y) || b.x + b.y - (a.x + a.y));
    const hit = spots.find(free);
    if (hit) return hit;
  }
  return at;
}
