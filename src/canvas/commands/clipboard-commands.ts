import type { Position } from '../../../schemas/flow';
import { copyPayload, parsePayload, preparePaste, serializePayload, type ClipboardPayload, type PasteOptions, type PreparedPaste } from '../clipboard';
import type { FlowStore } from '../store/create-flow-store';
import { insert } from '../store/operations';
import type { FlowState } from '../store/state';
import { defineCommand } from './manager';
import type { CommandContext } from './types';

/**
 * Inserts a clipboard payload as one undo step and selects what was pasted. Nodes that cannot go
 * into this flow are reported through `ctx.notify`.
 */
export function pastePayload(store: FlowStore, payload: ClipboardPayload, opts: PasteOptions = {}, ctx?: Pick<CommandContext, 'notify'>): PreparedPaste {
  const prepared = preparePaste(store.getState().document, store.registry, payload, opts);
  if (prepared.nodes.length) {
    store.batch(() => {
      store.edit((d) => insert(d, prepared.nodes, prepared.edges));
      store.setSelection({ nodes: prepared.nodes.map((n) => n.id), edges: prepared.edges.map((e) => e.id) });
    });
  }
  if (prepared.skipped.length) ctx?.notify?.({ key: 'notices.pasteSkipped', params: { count: prepared.skipped.length }, severity: 'warning' });
  return prepared;
}

const hasSelection = (state: FlowState) => state.view.selection.nodes.length > 0;

const copySelection = (store: FlowStore) => {
  const state = store.getState();
  return copyPayload(state.document, store.registry, state.view.selection.nodes);
};

export const copyCommand = defineCommand({
  id: 'copy',
  labelKey: 'commands.copy',
  category: 'clipboard',
  shortcut: 'Mod+C',
  predicate: hasSelection,
  perform: async (store, _args, ctx) => {
    const payload = copySelection(store);
    if (!payload) return false;
    await ctx.clipboard.write(serializePayload(payload));
    return true;
  },
});

export const cutCommand = defineCommand({
  id: 'cut',
  labelKey: 'commands.cut',
  category: 'clipboard',
  shortcut: 'Mod+X',
  edits: true,
  predicate: hasSelection,
  perform: async (store, _args, ctx) => {
    const payload = copySelection(store);
    if (!payload) return false;
    await ctx.clipboard.write(serializePayload(payload));
    // Only what was copied goes (start and other fixed kinds stay).
    store.deleteNodes(payload.nodes.map((n) => n.id));
    return true;
  },
});

export interface PasteArgs {
  at?: Position;
  parentId?: string;
  /**
   * The clipboard text when the view has it already: a DOM `paste` event's
   * `clipboardData.getData('text/plain')` needs no clipboard permission, unlike `readText()`.
   */
  text?: string;
}

/** Pastes at `args.at`, else at the pointer, else offset from the originals. */
export const pasteCommand = defineCommand<PasteArgs | undefined>({
  id: 'paste',
  labelKey: 'commands.paste',
  category: 'clipboard',
  shortcut: 'Mod+V',
  edits: true,
  perform: async (store, args, ctx) => {
    const payload = parsePayload(args?.text ?? (await ctx.clipboard.read()));
    if (!payload) return false;
    const at = args?.at ?? ctx.pointer?.();
    return pastePayload(store, payload, { at, parentId: args?.parentId }, ctx).nodes.length > 0;
  },
});

/** Copies the selection in place, shifted a little, without touching the clipboard. */
export const duplicateCommand = defineCommand({
  id: 'duplicate',
  labelKey: 'commands.duplicate',
  category: 'clipboard',
  shortcut: 'Mod+D',
  edits: true,
  predicate: hasSelection,
  perform: (store, _args, ctx) => {
    const payload = copySelection(store);
    if (!payload) return false;
    // Copies of nodes from inside one container stay in it (payload positions are absolute).
    const doc = store.getState().document;
    const roots = payload.nodes.filter((n) => !n.parentId);
    const parents = new Set(roots.map((n) => doc.nodes.find((o) => o.id === n.id)?.parentId ?? null));
    const parentId = parents.size === 1 ? ([...parents][0] ?? undefined) : undefined;
    return pastePayload(store, payload, { offset: { x: 40, y: 40 }, parentId }, ctx).nodes.length > 0;
  },
});
