import { withView, type AnyEditorNodePlugin } from '../src/plugin-sdk/view';
import { runtimePlugins } from './runtime';

/**
 * The built-in node kinds for the editor: the runtime list with each kind's view (canvas body,
 * panel) attached. A kind without a view gets the default body and the panel rendered from its
 * config schema. When a kind gains a `view.tsx`, attach it here, e.g.
 * `withView(llmPlugin, llmView)`, in place of the plain entry.
 */
const views: Partial<Record<string, Parameters<typeof withView>[1]>> = {};

export const builtinPlugins: readonly AnyEditorNodePlugin[] = Object.freeze(runtimePlugins.map((p) => withView(p, views[p.kind])));
