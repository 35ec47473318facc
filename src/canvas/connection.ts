import { DEFAULT_SOURCE_HANDLE, DEFAULT_TARGET_HANDLE, type FlowDocument, type FlowNode } from '../../schemas/flow';
import { createFlowGraph, type FlowGraph, type NodeRegistry } from '../plugin-sdk';

/** An edge the builder is drawing (handles default to `source` / `target`). */
export interface Connection {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/**
 * Why a connection is refused: a key under `canvas:connect.` (zh and en), shown while dragging.
 * - `nodeMissing`: an end is not in the document;
 * - `selfLoop`: a node to itself;
 * - `targetClosed`: the target takes no incoming edge (start, a container's start);
 * - `sourceClosed`: the source handle is not one of the node's branches (or it has none, like end);
 * - `duplicate`: the same edge exists;
 * - `crossContainer`: the ends sit in different containers (or one is the other's container);
 * - `cycle`: the target already leads back to the source (loops repeat through their container);
 * - `modeNotAllowed`: a node's kind does not belong in the flow's mode;
 * - `placementNotAllowed`: a node's kind may not sit where it is (plugin `parents`);
 * - `readOnly`: the editor shows a flow that cannot change (the store's answer, not `canConnect`'s).
 */
export const CONNECT_REASONS = [
  'nodeMissing',
  'selfLoop',
  'targetClosed',
  'sourceClosed',
  'duplicate',
  'crossContainer',
  'cycle',
  'modeNotAllowed',
  'placementNotAllowed',
  'readOnly',
] as const;
export type ConnectReason = (typeof CONNECT_REASONS)[number];

export type ConnectResult = { ok: true } | { ok: false; reason: ConnectReason };

const refuse = (reason: ConnectReason): ConnectResult => ({ ok: false, reason });

/** Whether `to` can be reached from `from` along edges (iterative, so long chains cannot overflow). */
export function reaches(graph: FlowGraph, from: string, to: string): boolean {
  const seen = new Set<string>([from]);
  const stack = [from];
  while (stack.length) {
    const cur = stack.pop()!;
    if (cur === to) return true;
    for (const e of graph.outgoing(cur)) {
      if (!seen.has(e.target)) {
        seen.add(e.target);
        stack.push(e.target);
      }
    }
  }
  return false;
}

function modeAndPlacement(node: FlowNode, graph: FlowGraph, registry: NodeRegistry): ConnectReason | undefined {
  const plugin = registry.get(node.kind);
  if (!plugin) return undefined;
  if (!plugin.modes.includes(graph.mode)) return 'modeNotAllowed';
  const scope = node.parentId ? graph.node(node.parentId)?.kind : 'root';
  if (plugin.parents && (!scope || !plugin.parents.includes(scope))) return 'placementNotAllowed';
  return undefined;
}

/**
 * Whether an edge may be drawn, checked in the order a builder understands best. Pure: the canvas
 * calls it while dragging (React Flow's `isValidConnection`) and the store before adding an edge.
 * Pass a prebuilt `graph` to avoid rebuilding indexes on every pointer move.
 * @example
 * const r = canConnect(doc, registry, { source: 'llm1', target: 'start' });
 * if (!r.ok) t(`canvas:connect.${r.reason}`); // "The start node takes no incoming connection"
 */
export function canConnect(doc: FlowDocument, registry: NodeRegistry, connection: Connection, graph: FlowGraph = createFlowGraph(doc)): ConnectResult {
  const source = graph.node(connection.source);
  const target = graph.node(connection.target);
  if (!source || !target) return refuse('nodeMissing');
  if (source.id === target.id) return refuse('selfLoop');

  const targetPlugin = registry.get(target.kind);
  if (targetPlugin && !targetPlugin.targetHandle) return refuse('targetClosed');
  const sourceHandle = connection.sourceHandle ?? DEFAULT_SOURCE_HANDLE;
  const targetHandle = connection.targetHandle ?? DEFAULT_TARGET_HANDLE;
  if (registry.get(source.kind) && !registry.sourceHandlesOf(source, graph).some((h) => h.id === sourceHandle)) {
    return refuse('sourceClosed');
  }

  const duplicate = graph
    .outgoing(source.id)
    .some((e) => e.target === target.id && e.sourceHandle === sourceHandle && e.targetHandle === targetHandle);
  if (duplicate) return refuse('duplicate');
  // Edges never cross container boundaries: a container's body is entered through its own start.
  if ((source.parentId ?? null) !== (target.parentId ?? null)) return refuse('crossContainer');
  if (reaches(graph, target.id, source.id)) return refuse('cycle');

  const placement = modeAndPlacement(source, graph, registry) ?? modeAndPlacement(target, graph, registry);
  if (placement) return refuse(placement);
  return { ok: true };
}
