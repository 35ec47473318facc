import type { EngineRegistries } from '../../engine';
import { createExecutorRegistry, createNodeRegistry } from '../../plugin-sdk';
import { loadBuiltinKinds } from './builtins';

/**
 * The node kinds this server process runs flows with: the built-in kinds (plugins/builtins.ts).
 * One per server context, so every route and run asks it rather than holding a list of its own.
 */
export interface PluginHost {
  /** What runs compile flows against now (a new object whenever the kinds change). */
  registries(): EngineRegistries;
}

export async function createPluginHost(): Promise<PluginHost> {
  const builtins = await loadBuiltinKinds();
  const registries: EngineRegistries = { nodes: createNodeRegistry(builtins.plugins), executors: createExecutorRegistry(builtins.executors) };
  return { registries: () => registries };
}
