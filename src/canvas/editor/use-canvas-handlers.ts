import { useReactFlow, useStoreApi, type Connection as RfConnection, type EdgeChange, type FinalConnectionState, type Node, type NodeChange, type OnConnectEnd } from '@xyflow/react';
import { useCallback, useMemo, type DragEvent, type MouseEvent as ReactMouseEvent } from 'react';
import type { FlowDocument, Position } from '../../../schemas/flow';
import { createFlowGraph, type FlowGraph } from '../../plugin-sdk';
import { canConnect, type Connection } from '../connection';
import { containerAt } from '../containers';
import { absolutePosition, descendantsOf } from '../store/operations';
import type { FlowStore } from '../store/create-flow-store';
import type { EditorServices } from './editor-context';
import type { FlowElementCache } from './flow-elements';
import { PALETTE_DRAG_TYPE } from './palette';
import { freeSpotNear } from './placement';

const graphs = new WeakMap<FlowDocument, FlowGraph>();
/** One graph per document: `isValidConnection` runs on every pointer move while connecting. */
export function graphOf(doc: FlowDocument): FlowGraph {
  let g = graphs.get(doc);
  if (!g) graphs.set(doc, (g = createFlowGraph(doc)));
  return g;
}

/** The edge a finished (refused) drag meant, whichever end it started from. */
export function connectionOf(state: Pick<FinalConnectionState, 'fromNode' | 'fromHandle' | 'toNode' | 'toHandle'>): Connection | undefined {
  if (!state.fromNode || !state.toNode) return undefined;
  const fromSource = state.fromHandle?.type !== 'target';
  const [src, srcHandle, tgt, tgtHandle] = fromSource
    ? [state.fromNode.id, state.fromHandle?.id, state.toNode.id, state.toHandle?.id]
    : [state.toNode.id, state.toHandle?.id, state.fromNode.id, state.fromHandle?.id];
  return { source: src, sourceHandle: srcHandle ?? undefined, target: tgt, targetHandle: tgtHandle ?? undefined };
}

/** Connecting through the core's rules: refused connections say why (a toast with the reason). */
export function useConnectionHandlers(store: FlowStore, services: Pick<EditorServices, 'notify'>) {
  const isValidConnection = useCallback(
    (c: RfConnection | { source: string; target: string; sourceHandle?: string | null; targetHandle?: string | null }) => {
      const doc = store.getState().document;
      return canConnect(doc, store.registry, c, graphOf(doc)).ok;
    },
    [store],
  );
  const onConnect = useCallback(
    (c: RfConnection) => {
      const r = store.connect(c);
      if (!r.ok) services.notify({ key: `connect.${r.reason}`, severity: 'warning' });
    },
    [store, services],
  );
  const onConnectEnd = useCallback<OnConnectEnd>(
    (_event, state) => {
      if (state.isValid !== false || !state.toNode) return;
      const c = connectionOf(state);
      if (!c) return;
      const r = store.getState().readOnly ? ({ ok: false, reason: 'readOnly' } as const) : canConnect(store.getState().document, store.registry, c);
      if (!r.ok) services.notify({ key: `connect.${r.reason}`, severity: 'warning' });
    },
    [store, services],
  );
  return { isValidConnection, onConnect, onConnectEnd };
}

/** Writes where a drag left its nodes ({@link FlowElementCache.live}) to the document. */
function commitLiveMoves(store: FlowStore, cache: FlowElementCache): void {
  if (!cache.live.size) return;
  const moves = Object.fromEntries(cache.live);
  cache.live.clear();
  store.moveNodes(moves);
}

/**
 * React Flow's change events applied to the store: moves (one undo step per drag), container and
 * note resizes, selection, measured sizes (view only, kept in the element cache).
 *
 * While a drag is in progress its moves go to React Flow alone (kept in `cache.live`): writing each
 * one to the document would, on every pointer move, make a new document, run the selectors of every
 * node component, render the editor and hand React Flow a new nodes array to adopt. The drag's last
 * change (`dragging: false`) writes the positions, as one edit.
 */
export function useChangeHandlers(store: FlowStore, cache: FlowElementCache, remeasured: () => void) {
  const rf = useStoreApi();
  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      const moves: Record<string, Position> = {};
      const sizes: Record<string, { width: number; height: number }> = {};
      let selection: Set<string> | undefined;
      let measured = false;
      let dragged = false;
      for (const c of changes) {
        if (c.type === 'position' && c.position) {
          if (c.dragging) {
            cache.live.set(c.id, c.position);
            dragged = true;
          } else {
            moves[c.id] = c.position;
            cache.live.delete(c.id);
          }
        } else if (c.type === 'select') {
          selection ??= new Set(store.getState().view.selection.nodes);
          if (c.selected) selection.add(c.id);
          else selection.delete(c.id);
        } else if (c.type === 'dimensions' && c.dimensions) {
          const prev = cache.measured.get(c.id);
          if (!prev || prev.width !== c.dimensions.width || prev.height !== c.dimensions.height) {
            cache.measured.set(c.id, { width: c.dimensions.width, height: c.dimensions.height });
            measured = true;
          }
          if (c.setAttributes) sizes[c.id] = { width: Math.round(c.dimensions.width), height: Math.round(c.dimensions.height) };
        }
      }
      const resized = Object.keys(sizes).length > 0;
      if (Object.keys(moves).length || resized) {
        store.batch(() => {
          if (Object.keys(moves).length) store.moveNodes(moves);
          if (resized) {
            store.edit((d) => {
              for (const n of d.nodes) if (sizes[n.id]) Object.assign(n, sizes[n.id]);
            });
          }
        });
      }
      if (dragged) {
        const { nodes, setNodes } = rf.getState();
        setNodes(
          nodes.map((n) => {
            const at = cache.live.get(n.id);
            return at && at !== n.position ? { ...n, position: at } : n;
          }),
        );
      }
      if (selection) store.setSelection({ nodes: [...selection] });
      if (measured) remeasured();
    },
    [store, cache, remeasured, rf],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      let selection: Set<string> | undefined;
      for (const c of changes) {
        if (c.type !== 'select') continue;
        selection ??= new Set(store.getState().view.selection.edges);
        if (c.selected) selection.add(c.id);
        else selection.delete(c.id);
      }
      if (selection) store.setSelection({ edges: [...selection] });
    },
    [store],
  );
  return { onNodesChange, onEdgesChange };
}

/** Where a new node of `kind` goes at a canvas point: inside the container there when its kind may sit in it. */
export function placementAt(store: FlowStore, kind: string, point: Position): { position: Position; parentId?: string } {
  const doc = store.getState().document;
  const containerId = containerAt(doc, store.registry, point);
  const plugin = store.registry.get(kind);
  const container = containerId ? doc.nodes.find((n) => n.id === containerId) : undefined;
  if (container && !plugin?.container && (!plugin?.parents || plugin.parents.includes(container.kind))) {
    const base = absolutePosition(doc, container.id);
    return { position: { x: point.x - base.x, y: point.y - base.y }, parentId: container.id };
  }
  return { position: point };
}

/** The measured size of each node React Flow knows (for placement). */
export function measuredSizes(nodes: readonly Node[]): (id: string) => { width: number; height: number } | undefined {
  const sizes = new Map(nodes.map((n) => [n.id, n.measured?.width && n.measured.height ? { width: n.measured.width, height: n.measured.height } : undefined]));
  return (id) => sizes.get(id);
}

/** {@link placementAt}, moved to the nearest free spot of its container: a new node never lands on another. */
export function freePlacementAt(store: FlowStore, kind: string, point: Position, sizeOf: (id: string) => { width: number; height: number } | undefined) {
  const p = placementAt(store, kind, point);
  return { ...p, position: freeSpotNear(store.getState().document, p.position, p.parentId, sizeOf) };
}

/** The edge under a screen point (its group, or its wide invisible hit path), if any. */
export function edgeAt(x: number, y: number): string | undefined {
  if (typeof document === 'undefined' || !document.elementsFromPoint) return undefined;
  for (const el of document.elementsFromPoint(x, y)) {
    const id = el.closest('.react-flow__edge')?.getAttribute('data-id');
    if (id) return id;
  }
  return undefined;
}

/** Dragging nodes (one undo step, moving into or out of containers on drop) and dropping palette items. */
export function useDragHandlers(store: FlowStore, cache: FlowElementCache, services: Pick<EditorServices, 'manager' | 'notify'>) {
  const flow = useReactFlow();
  const onNodeDragStart = useCallback(() => {
    cache.live.clear();
    store.beginGesture();
  }, [store, cache]);
  const onNodeDragStop = useCallback(
    (event: ReactMouseEvent | MouseEvent | TouchEvent, _node: Node | undefined, nodes: Node[]) => {
      try {
        commitLiveMoves(store, cache);
        const doc = store.getState().document;
        const ids = nodes.map((n) => n.id);
        const at = 'changedTouches' in event ? event.changedTouches[0] : event;
        const point = flow.screenToFlowPosition({ x: at?.clientX ?? 0, y: at?.clientY ?? 0 });
        const exclude = new Set([...ids, ...descendantsOf(doc, ids)]);
        const target = containerAt(doc, store.registry, point, exclude);
        const byId = new Map(doc.nodes.map((n) => [n.id, n]));
        // Only nodes whose container is not dragged along change container.
        const moving = ids.filter((id) => {
          const n = byId.get(id);
          return n && !(n.parentId && ids.includes(n.parentId)) && (n.parentId ?? null) !== target;
        });
        if (moving.length) {
          const r = store.reparent(moving, target);
          if (!r.ok) services.notify({ key: `move.${r.reason}`, severity: 'warning' });
        } else if (ids.length === 1 && !doc.edges.some((e) => e.source === ids[0] || e.target === ids[0])) {
          // A lone node dropped on an edge goes into it (part of the drag's undo step).
          const edgeId = edgeAt(at?.clientX ?? -1, at?.clientY ?? -1);
          if (edgeId) store.splitEdge(ids[0]!, edgeId);
        }
      } finally {
        store.endGesture();
      }
    },
    [store, cache, flow, services],
  );
  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(PALETTE_DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const kind = e.dataTransfer.getData(PALETTE_DRAG_TYPE);
      if (!kind) return;
      e.preventDefault();
      const point = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      // Dropped on an edge: into it, where it was dropped; elsewhere: the nearest free spot.
      const intoEdge = edgeAt(e.clientX, e.clientY);
      const placed = intoEdge ? placementAt(store, kind, point) : freePlacementAt(store, kind, point, measuredSizes(flow.getNodes()));
      void services.manager.execute('addNode', { kind, ...placed, ...(intoEdge ? { intoEdge } : {}) });
    },
    [flow, store, services],
  );
  return useMemo(() => ({ onNodeDragStart, onNodeDragStop, onDragOver, onDrop }), [onNodeDragStart, onNodeDragStop, onDragOver, onDrop]);
}
