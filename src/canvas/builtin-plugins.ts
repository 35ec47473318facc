import { BUILTIN_KINDS } from '../../plugins/builtins';
import type { AnyNodePlugin } from '../plugin-sdk';
import { withView, type AnyEditorNodePlugin, type NodeView } from '../plugin-sdk/view';

/**
 * The built-in node kinds for the editor: each folder's manifest with its view, in the order of the
 * one list (plugins/builtins.ts). Found by the folders' file names, never by a kind's name, and only
 * `manifest.ts` and `view.tsx` are taken: executors stay on the server.
 */
const manifests = import.meta.glob<AnyNodePlugin>('../../plugins/*/manifest.ts', { eager: true, import: 'default' });
const views = import.meta.glob<NodeView>('../../plugins/*/view.tsx', { eager: true, import: 'default' });

function editorPlugin(kind: string): AnyEditorNodePlugin {
  const plugin = manifests[`../../plugins/${kind}/manifest.ts`];
  if (!plugin || plugin.kind !== kind) throw new Error(`plugins/${kind}/manifest.ts must export the "${kind}" kind as its default export`);
  return withView(plugin, views[`../../plugins/${kind}/view.tsx`]);
}

export const builtinPlugins: readonly AnyEditorNodePlugin[] = Object.freeze(BUILTIN_KINDS.map(editorPlugin));
