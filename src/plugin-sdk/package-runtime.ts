/**
 * What a plugin package's bundles import from the host instead of carrying their own copy (see
 * scripts/plugin-pack.ts): zod and the SDK on both sides, React in the browser. One copy matters:
 * the registry recognises selectors and templates by schema identity, and React hooks need the
 * host's React. The host fills the global before it imports a bundle.
 */
export const PLUGIN_RUNTIME_GLOBAL = '__weftPluginRuntime';

export type PluginRuntimeModules = Record<string, unknown>;

/** Adds modules to what bundles can import (keys: 'zod', 'sdk', 'react', 'react/jsx-runtime'). */
export function providePluginRuntime(modules: PluginRuntimeModules): void {
  const g = globalThis as unknown as Record<string, PluginRuntimeModules | undefined>;
  g[PLUGIN_RUNTIME_GLOBAL] = { ...g[PLUGIN_RUNTIME_GLOBAL], ...modules };
}
