import type { Edge, Node } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../../../schemas/flow';
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

interface NodeCacheEntry {
  selected: boolean;
  measured: Size | undefined;
  rf: Node;
}

export class FlowElementCache {
  private nodes = new WeakMap<FlowNode, NodeCacheEntry>();
  private edges = new WeakMap<FlowEdge, { selected: boolean; rf: Edge }>();
  /** Sizes React Flow measured (view only, never saved): without them every changed node would be measured again. */
  readonly measured = new Map<string, Size>();

  constructor(private readonly registry: NodeRegistry) {}

  node(n: FlowNode, selected: boolean): Node {
    const measured = this.measured.get(n.id);
    const hit = this.nodes.get(n);
    if (hit && hit.selected === selected && hit.measured === measured) return hit.rf;
    const type = viewTypeOf(this.registry, n.kind);
    const sized = type === 'container' ? (n.width ? { width: n.width, height: n.height ?? CONTAINER_SIZE.height } : CONTAINER_SIZE) : type === 'note' ? { width: n.width ?? NOTE_SIZE.width, height: n.height ?? NOTE_SIZE.height } : undefined;
    const rf: Node = {
      id: n.id,
      type,
      position: n.position,
      data: EMPTY_DATA,
      selected,
      ...(n.parentId ? { parentId: n.parentId } : {}),
      ...(sized ? { width: sized.width, height: sized.height } : {}),
      ...(measured ? { measured } : {}),
      ...(type === 'container' ? { dragHandle: '.weft-container-drag' } : {}),
    };
    this.nodes.set(n, { selected, measured, rf });
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
