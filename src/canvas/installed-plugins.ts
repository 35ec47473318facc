import * as react from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as zod from 'zod';
import { fetchBrowserBundle, listInstalledForEditor } from '../api/plugins';
import * as sdk from '../plugin-sdk';
import type { AnyNodePlugin } from '../plugin-sdk';
import { providePluginRuntime } from '../plugin-sdk/package-runtime';
import { withView, type AnyEditorNodePlugin, type NodeView } from '../plugin-sdk/view';

/**
 * The kinds of the installed plugin packages, for the editor: each active package's browser bundle
 * (an ES module the server serves, scripts/plugin-pack.ts) imported once per checksum. The bundles
 * take zod, the SDK and React from here. A bundle that fails to load leaves its kinds out (their
 * nodes then show the unknown-kind error in the checklist) and is reported in the console.
 */

const modules = new Map<string, Promise<AnyEditorNodePlugin[]>>();

async function importBundle(id: string, checksum: string): Promise<AnyEditorNodePlugin[]> {
  const blob = await fetchBrowserBundle(id, checksum, { reaction: 'silent' });
  // Imported from a blob URL: the bundle request needs the session's bearer token.
  const url = URL.createObjectURL(new Blob([blob], { type: 'text/javascript' }));
  try {
    const mod = (await import(/* @vite-ignore */ url)) as { plugins?: AnyNodePlugin[]; views?: (NodeView | undefined)[] };
    const views = mod.views ?? [];
    return (mod.plugins ?? []).map((p, i) => withView(p, views[i]));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The installed kinds (with views), in package id order; [] when none or when the list cannot be read. */
export async function loadInstalledPlugins(): Promise<{ key: string; plugins: AnyEditorNodePlugin[] }> {
  providePluginRuntime({ zod, sdk, react, 'react/jsx-runtime': jsxRuntime });
  let list: Awaited<ReturnType<typeof listInstalledForEditor>>;
  try {
    list = await listInstalledForEditor({ reaction: 'silent' });
  } catch (e) {
    console.error('[weft] the installed plugins could not be listed', e);
    return { key: '', plugins: [] };
  }
  const loaded = await Promise.all(
    list.map((p) => {
      const key = `${p.id}@${p.checksum}`;
      let m = modules.get(key);
      if (!m) {
        m = importBundle(p.id, p.checksum).catch((e) => {
          console.error(`[weft] the plugin ${p.id} could not be loaded`, e);
          modules.delete(key);
          return [];
        });
        modules.set(key, m);
      }
      return m;
    }),
  );
  return { key: list.map((p) => `${p.id}@${p.checksum}`).join('|'), plugins: loaded.flat() };
}
