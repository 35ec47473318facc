import type { Position } from '../../../schemas/flow';
import { canReparent } from '../containers';
import type { AddNodeInit } from '../store/create-flow-store';
import { deletionSet } from '../store/operations';
import type { FlowState } from '../store/state';
import { defineCommand } from './manager';

export interface AddNodeArgs extends AddNodeInit {
  kind: string;
}

export interface MoveIntoContainerArgs {
  /** Default: the selected nodes. */
  nodeIds?: readonly string[];
  /** The container; `null` moves to the top level. */
  containerId: string | null;
}

const selectedNodes = (state: FlowState) => state.view.selection.nodes;

/** Adds a node of a kind, at a position or from a handle's "+" (then connected to it). */
export const addNodeCommand = defineCommand<AddNodeArgs>({
  id: 'addNode',
  labelKey: 'commands.addNode',
  category: 'node',
  edits: true,
  palette: false,
  predicate: (state, args, ctx) => {
    const plugin = args?.kind ? ctx.registry.get(args.kind) : undefined;
    return Boolean(plugin?.palette && plugin.modes.includes(state.document.mode));
  },
  perform: (store, args) => store.addNode(args.kind, args) !== undefined,
});

/** Deletes the selected nodes (not start and other fixed kinds) and edges as one undo step. */
export const deleteSelectionCommand = defineCommand({
  id: 'deleteSelection',
  labelKey: 'commands.delete',
  category: 'edit',
  shortcut: ['Delete', 'Backspace'],
  edits: true,
  predicate: (state, _args, ctx) => {
    const { nodes, edges } = state.view.selection;
    return edges.length > 0 || (nodes.length > 0 && deletionSet(state.document, ctx.registry, nodes).size > 0);
  },
  perform: (store) => {
    const { nodes, edges } = store.getState().view.selection;
    const before = store.getState().document;
    store.batch(() => {
      store.deleteEdges(edges);
      store.deleteNodes(nodes);
    });
    return store.getState().document !== before;
  },
});

export const selectAllCommand = defineCommand({
  id: 'selectAll',
  labelKey: 'commands.selectAll',
  category: 'selection',
  shortcut: 'Mod+A',
  predicate: (state) => state.document.nodes.length > 0,
  perform: (store) => {
    store.selectAll();
    return true;
  },
});

export const undoCommand = defineCommand({
  id: 'undo',
  labelKey: 'commands.undo',
  category: 'history',
  shortcut: 'Mod+Z',
  edits: true,
  predicate: (state) => state.history.canUndo,
  perform: (store) => store.undo(),
});

export const redoCommand = defineCommand({
  id: 'redo',
  labelKey: 'commands.redo',
  category: 'history',
  shortcut: ['Mod+Shift+Z', 'Mod+Y'],
  edits: true,
  predicate: (state) => state.history.canRedo,
  perform: (store) => store.redo(),
});

/** Moves nodes into an iteration/loop container, keeping their place on screen. */
export const moveIntoContainerCommand = defineCommand<MoveIntoContainerArgs>({
  id: 'moveIntoContainer',
  labelKey: 'commands.moveIntoContainer',
  category: 'arrange',
  edits: true,
  palette: false,
  predicate: (state, args, ctx) => {
    const ids = args?.nodeIds ?? selectedNodes(state);
    return Boolean(args) && ids.length > 0 && canReparent(state.document, ctx.registry, ids, args.containerId).ok;
  },
  perform: (store, args, ctx) => {
    const result = store.reparent(args.nodeIds ?? selectedNodes(store.getState()), args.containerId);
    if (!result.ok) ctx.notify?.({ key: `move.${result.reason}`, severity: 'warning' });
    return result.ok;
  },
});

/** Moves the selected nodes out of their container to the top level. */
export const moveOutOfContainerCommand = defineCommand({
  id: 'moveOutOfContainer',
  labelKey: 'commands.moveOutOfContainer',
  category: 'arrange',
  edits: true,
  predicate: (state, _args, ctx) => {
    const ids = selectedNodes(state);
    const inside = ids.some((id) => state.document.nodes.find((n) => n.id === id)?.parentId);
    return inside && canReparent(state.document, ctx.registry, ids, null).ok;
  },
  perform: (store) => store.reparent(selectedNodes(store.getState()), null).ok,
});

/**
 * Auto-layout through the injected layout function; the new positions are one undo step. Nodes
 * added or removed while the layout ran are left alone.
 */
export const layoutCommand = defineCommand<{ nodeIds?: readonly string[] } | undefined>({
  id: 'layout',
  labelKey: 'commands.layout',
  category: 'arrange',
  shortcut: 'Mod+Shift+L',
  edits: true,
  predicate: (state, _args, ctx) => Boolean(ctx.layout) && state.document.nodes.length > 0,
  perform: async (store, args, ctx) => {
    const result = await ctx.layout!(store.getState().document, { nodeIds: args?.nodeIds });
    return store.edit((d) => {
      for (const n of d.nodes) {
        const p: Position | undefined = result.positions[n.id];
        if (p) n.position = { x: p.x, y: p.y };
        const size = result.sizes?.[n.id];
        if (size) Object.assign(n, size);
      }
    });
  },
});
