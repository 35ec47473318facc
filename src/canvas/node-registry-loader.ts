import { createNodeRegistry, type NodeRegistry } from '../plugin-sdk';
import { builtinPlugins } from './builtin-plugins';
import { loadInstalledPlugins } from './installed-plugins';

/**
 * The node kinds a screen that shows flows needs: the built-ins and the installed packages' (the
 * editor, the run log's traces, the store's flow preview). One registry while the installed set
 * stays the same: it holds no app state.
 * @example const nodes = await loadNodeRegistry();
 */
let cached: { key: string; nodes: NodeRegistry } | undefined;
let builtins: NodeRegistry | undefined;

export async function loadNodeRegistry(): Promise<NodeRegistry> {
  const installed = await loadInstalledPlugins();
  if (cached?.key !== installed.key) cached = { key: installed.key, nodes: createNodeRegistry([...builtinPlugins, ...installed.plugins]) };
  return cached.nodes;
}

/** The registry loaded last, or the built-ins' until one is (for a first paint that cannot wait). */
export function currentNodeRegistry(): NodeRegistry {
  return cached?.nodes ?? (builtins ??= createNodeRegistry(builtinPlugins));
}
