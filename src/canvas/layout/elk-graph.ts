import type { ElkExtendedEdge, ElkNode, ElkPort, LayoutOptions } from 'elkjs/lib/elk-api';
import type { FlowDocument, FlowEdge, FlowNode, Position } from '../../../schemas/flow';
import { MIN_CONTAINER_SIZE, type MeasureNode, type NodeSize } from './measure';

/**
 * Turns a flow document into ELK graphs and ELK's answer back into positions. Pure functions, so
 * they are tested without a worker. One ELK graph per *scope* being laid out (the top level, or
 * the inside of one container when only some of its nodes are chosen); containers become ELK
 * compound nodes holding their children, so ELK lays out the inside first and sizes the container
 * around it. Coordinates of children come back relative to their container, as the document
 * stores them.
 */

export interface ElkBuildOptions {
  measure: MeasureNode;
  /** Only these nodes (and everything inside the chosen containers); default all. */
  nodeIds?: readonly string[];
  /** Nodes that stay where they are (sticky notes). */
  isFixed?: (node: FlowNode) => boolean;
  /** The order of a node's source handles top to bottom (if-else cases, then else). */
  handleOrder?: (node: FlowNode) => readonly string[];
}

/** One ELK run: the graph, and where its top-left corner must land (the chosen nodes' old corner). */
export interface ElkJob {
  graph: ElkNode;
  anchor: Position;
}

/** Space between columns and rows, and inside containers (below the title bar, around the children). */
export const LAYOUT_SPACING = { betweenLayers: 80, nodeNode: 40, components: 60 } as const;
export const CONTAINER_PADDING = { top: 68, left: 24, bottom: 24, right: 24 } as const;

const ROOT_PREFIX = '__scope:';

const baseOptions: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  // React Flow draws its own edges: ELK's routes are only needed to keep space for them.
  'elk.edgeRouting': 'POLYLINE',
  'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYOUT_SPACING.betweenLayers),
  'elk.spacing.nodeNode': String(LAYOUT_SPACING.nodeNode),
  'elk.spacing.componentComponent': String(LAYOUT_SPACING.components),
  // Keep the builder's order where ELK has a free choice, so a second run changes nothing.
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
};

const containerOptions: LayoutOptions = {
  ...baseOptions,
  'elk.padding': `[top=${CONTAINER_PADDING.top},left=${CONTAINER_PADDING.left},bottom=${CONTAINER_PADDING.bottom},right=${CONTAINER_PADDING.right}]`,
  'elk.nodeSize.constraints': 'MINIMUM_SIZE',
  'elk.nodeSize.minimum': `(${MIN_CONTAINER_SIZE.width}, ${MIN_CONTAINER_SIZE.height})`,
};

const portId = (nodeId: string, side: 'in' | 'out', handle = '') => `${nodeId}\u0000${side}\u0000${handle}`;

/** Builds the ELK graphs for a document (see the top of the file). */
export function buildElkJobs(doc: FlowDocument, opts: ElkBuildOptions): ElkJob[] {
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const children = new Map<string | null, FlowNode[]>();
  for (const n of doc.nodes) {
    const key = n.parentId && byId.has(n.parentId) ? n.parentId : null;
    const list = children.get(key) ?? [];
    list.push(n);
    children.set(key, list);
  }

  // The chosen set: the given nodes and, for a chosen container, all it holds.
  const chosen = new Set<string>();
  const choose = (n: FlowNode) => {
    if (chosen.has(n.id) || opts.isFixed?.(n)) return;
    chosen.add(n.id);
    for (const c of children.get(n.id) ?? []) choose(c);
  };
  if (opts.nodeIds) for (const id of opts.nodeIds) {
    const n = byId.get(id);
    if (n) choose(n);
  }
  else for (const n of doc.nodes) choose(n);

  const scopeOf = (n: FlowNode) => (n.parentId && byId.has(n.parentId) ? n.parentId : null);
  const edgesByScope = new Map<string | null, FlowEdge[]>();
  for (const e of doc.edges) {
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    if (!s || !t || !chosen.has(s.id) || !chosen.has(t.id) || scopeOf(s) !== scopeOf(t)) continue;
    const scope = scopeOf(s);
    const list = edgesByScope.get(scope) ?? [];
    list.push(e);
    edgesByScope.set(scope, list);
  }

  const incoming = new Set<string>();
  const outgoing = new Map<string, string[]>();
  for (const list of edgesByScope.values()) {
    for (const e of list) {
      incoming.add(e.target);
      const handles = outgoing.get(e.source) ?? [];
      if (!handles.includes(e.sourceHandle)) handles.push(e.sourceHandle);
      outgoing.set(e.source, handles);
    }
  }

  function ports(n: FlowNode): ElkPort[] {
    const out: ElkPort[] = [];
    if (incoming.has(n.id)) out.push({ id: portId(n.id, 'in'), width: 0, height: 0, layoutOptions: { 'elk.port.side': 'WEST' } });
    const used = outgoing.get(n.id) ?? [];
    const order = opts.handleOrder?.(n) ?? [];
    const rank = (h: string) => (order.includes(h) ? order.indexOf(h) : order.length + used.indexOf(h));
    [...used]
      .sort((a, b) => rank(a) - rank(b))
      .forEach((h, i) => out.push({ id: portId(n.id, 'out', h), width: 0, height: 0, layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': String(i) } }));
    return out;
  }

  const edgesOf = (scope: string | null): ElkExtendedEdge[] =>
    (edgesByScope.get(scope) ?? []).map((e) => ({
      id: e.id,
      sources: [portId(e.source, 'out', e.sourceHandle)],
      targets: [portId(e.target, 'in')],
    }));

  function elkNode(n: FlowNode): ElkNode {
    const kids = (children.get(n.id) ?? []).filter((c) => chosen.has(c.id));
    const common = { id: n.id, ports: ports(n), layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' } };
    if (!kids.length) {
      const size: NodeSize = opts.measure(n);
      return { ...common, width: size.width, height: size.height };
    }
    return {
      ...common,
      layoutOptions: { ...containerOptions, ...common.layoutOptions },
      children: kids.map(elkNode),
      edges: edgesOf(n.id),
    };
  }

  // Each group of chosen nodes whose container is not itself chosen is laid out on its own.
  const groups = new Map<string | null, FlowNode[]>();
  for (const n of doc.nodes) {
    if (!chosen.has(n.id)) continue;
    const scope = scopeOf(n);
    if (scope !== null && chosen.has(scope)) continue;
    const list = groups.get(scope) ?? [];
    list.push(n);
    groups.set(scope, list);
  }

  return [...groups].map(([scope, nodes]) => ({
    anchor: { x: Math.min(...nodes.map((n) => n.position.x)), y: Math.min(...nodes.map((n) => n.position.y)) },
    graph: {
      id: `${ROOT_PREFIX}${scope ?? ''}`,
      layoutOptions: { ...baseOptions, 'elk.padding': '[top=0,left=0,bottom=0,right=0]' },
      children: nodes.map(elkNode),
      edges: edgesOf(scope),
    },
  }));
}

/** What a layout returns: positions as stored (relative to the container) and container sizes. */
export interface LayoutResult {
  positions: Record<string, Position>;
  sizes: Record<string, { width: number; height: number }>;
}

const round = (v: number) => Math.round(v);

/** Reads ELK's answer for one job into positions (the job's top level moved to its anchor). */
export function readElkResult(job: ElkJob, laid: ElkNode, into: LayoutResult = { positions: {}, sizes: {} }): LayoutResult {
  const top = laid.children ?? [];
  const minX = Math.min(...top.map((c) => c.x ?? 0));
  const minY = Math.min(...top.map((c) => c.y ?? 0));
  const walk = (n: ElkNode, dx: number, dy: number) => {
    into.positions[n.id] = { x: round((n.x ?? 0) + dx), y: round((n.y ?? 0) + dy) };
    if (n.children?.length) {
      into.sizes[n.id] = { width: round(n.width ?? MIN_CONTAINER_SIZE.width), height: round(n.height ?? MIN_CONTAINER_SIZE.height) };
      for (const c of n.children) walk(c, 0, 0);
    }
  };
  for (const c of top) walk(c, job.anchor.x - minX, job.anchor.y - minY);
  return into;
}
