import { Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';
import { DEFAULT_SOURCE_HANDLE, DEFAULT_TARGET_HANDLE, type FlowEdge, type FlowNode } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';

/**
 * Turns the flow document into React Flow's nodes and edges. Objects are cached per document
 * node (immer keeps unchanged nodes identical), so after a drag only the dragged node gets a new
 * React Flow node: React Flow then re-renders that node alone.
 */

/** The React Flow node types the editor registers. */
export type ViewNodeType = 'shell' | 'container' | 'note';

export type Size = { width: number; height: number };

const EMPTY_DATA: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** Default sizes of nodes that keep theirs in the document (containers and notes). */
export const NOTE_SIZE: Size = { width: 240, height: 140 };
export const CONTAINER_SIZE: Size = { width: 640, height: 260 };

export function viewTypeOf(registry: NodeRegistry, kind: string): ViewNodeType {
  const plugin = registry.get(kind);
  if (plugin?.container) return 'container';
  if (plugin?.category === 'annotation') return 'note';
  return 'shell';
}

/**
 * The box and handles of a step drawn in the overview (zoom below OVERVIEW_ZOOM, flow-node.tsx),
 * where its size depends on nothing but its source handles: the header alone (a single unnamed
 * source handle, or none), or the header and one row per named branch. The figures are those the
 * browser gives for editor.module.css (.node 240 px wide, .header 40 px plus the borders, .branch
 * rows of 22 px 2 px apart; handles 10 px, the target 16 px down, branch handles 47 px down and
 * 24 px apart), in the form React Flow's measuring gives them. A node mounted with them is shown and
 * its edges drawn in the first frame; the browser's measurements, which follow in the same frame,
 * then change nothing (a changed style only costs the usual second render). Containers and notes,
 * and nodes shown in full, have no estimate: their size depends on their content.
 */
export function overviewBox(registry: NodeRegistry, n: FlowNode): { measured: Size; handles: NodeHandle[] } | undefined {
  const plugin = registry.get(n.kind);
  if (!plugin || viewTypeOf(registry, n.kind) !== 'shell') return undefined;
  const sources = registry.sourceHandlesOf(n);
  const single = sources.length === 0 || (sources.length === 1 && sources[0]!.id === DEFAULT_SOURCE_HANDLE && !sources[0]!.label && !sources[0]!.labelKey);
  const handles: NodeHandle[] = [];
  if (plugin.targetHandle !== false) handles.push({ id: DEFAULT_TARGET_HANDLE, type: 'target', position: Position.Left, x: -10, y: 16, width: 10, height: 10 });
  if (single) {
    for (const h of sources) handles.push({ id: h.id, type: 'source', position: Position.Right, x: 240, y: 16, width: 10, height: 10 });
    return { measured: { width: 240, height: 42 }, handles };
  }
  sources.forEach((h, i) => handles.push({ id: h.id, type: 'source', position: Position.Right, x: 240, y: 47 + 24 * i, width: 10, height: 10 }));
  return { measured: { width: 240, height: 48 + 24 * sources.length }, handles };
}

interface NodeCacheEntry {
  selected: boolean;
  measured: Size | undefined;
  estimated: boolean;
  rf: Node;
}

export class FlowElementCache {
  private nodes = new WeakMap<FlowNode, NodeCacheEntry>();
  private edges = new WeakMap<FlowEdge, { selected: boolean; rf: Edge }>();
  /** Sizes React Flow measured (view only, never saved): without them every changed node would be measured again. */
  readonly measured = new Map<string, Size>();
  /**
   * Where the nodes of a drag in progress are (id → position): shown by React Flow, written to the
   * document when the drag ends (use-canvas-handlers.ts).
   */
  readonly live = new Map<string, FlowNode['position']>();
  constructor(private readonly registry: NodeRegistry) {}

  /**
   * React Flow's node for a document node. `overview`: the canvas opens in the overview, so a step
   * not measured yet gets its {@link overviewBox} and shows (its edges drawn) at once, instead of
   * after a hidden render and its measuring.
   */
  node(n: FlowNode, selected: boolean, overview = false): Node {
    const measured = this.measured.get(n.id);
    const estimated = !measured && overview;
    const position = this.live.get(n.id) ?? n.position;
    const hit = this.nodes.get(n);
    if (hit && hit.selected === selected && hit.measured === measured && hit.estimated === estimated && hit.rf.position === position) return hit.rf;
    const type = viewTypeOf(this.registry, n.kind);
    const box = estimated ? overviewBox(this.registry, n) : undefined;
    const sized = type === 'container' ? (n.width ? { width: n.width, height: n.height ?? CONTAINER_SIZE.height } : CONTAINER_SIZE) : type === 'note' ? { width: n.width ?? NOTE_SIZE.width, height: n.height ?? NOTE_SIZE.height } : undefined;
    const rf: Node = {
      id: n.id,
      type,
      position,
      data: EMPTY_DATA,
      selected,
      ...(n.parentId ? { parentId: n.parentId } : {}),
      ...(sized ? { width: sized.width, height: sized.height } : {}),
      ...(measured ? { measured } : box ? { measured: box.measured, handles: box.handles } : {}),
      ...(type === 'container' ? { dragHandle: '.weft-container-drag' } : {}),
    };
    this.nodes.set(n, { selected, measured, estimated, rf });
    return rf;
  }

  /** Forgets sizes of nodes that are gone (an id can come back later for another node). */
  prune(nodes: readonly FlowNode[]): void {
    if (this.measured.size <= nodes.length) return;
    const ids = new Set(nodes.map((n) => n.id));
    for (const id of this.measured.keys()) if (!ids.has(id)) this.measured.delete(id);
  }

  edge(e: FlowEdge, selected: boolean): Edge {
    const hit = this.edges.get(e);
    if (hit && hit.selected === selected) return hit.rf;
    const rf: Edge = { id: e.id, source: e.source, target: e.target, sourceHandle: e.sourceHandle, targetHandle: e.targetHandle, selected };
    this.edges.set(e, { selected, rf });
    return rf;
  }
}

/** Containers before what they hold (React Flow needs a parent ahead of its children), otherwise document order. */
export function parentsFirst(nodes: readonly FlowNode[]): readonly FlowNode[] {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  if (nodes.every((n, i) => !n.parentId || (index.get(n.parentId) ?? -1) < i)) return nodes;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const depth = (n: FlowNode) => {
    let d = 0;
    for (let p = n.parentId; p && d < 64; p = byId.get(p)?.parentId) d++;
    return d;
  };
  return nodes
    .map((n, i) => ({ n, i, d: depth(n) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.n);
}
