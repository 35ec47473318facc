import { existsSync } from 'node:fs';
import { BUILTIN_KINDS } from '../../../plugins/builtins';
import type { AnyNodeExecutor, AnyNodePlugin } from '../../plugin-sdk';

/** The built-in kinds as the server runs them: manifests and executors. */
export interface BuiltinKinds {
  plugins: AnyNodePlugin[];
  executors: AnyNodeExecutor[];
}

const PLUGINS_DIR = new URL('../../../plugins/', import.meta.url);

async function defaultOf<T>(url: URL, what: string): Promise<T> {
  const mod = (await import(url.href)) as { default?: T };
  if (!mod.default) throw new Error(`${url.pathname} has no default export (the ${what})`);
  return mod.default;
}

/**
 * Loads each folder of the one list (plugins/builtins.ts): its `manifest.ts` and, when the kind
 * runs, its `executor.ts` (notes and container starts have none). Views are never loaded here.
 */
export async function loadBuiltinKinds(): Promise<BuiltinKinds> {
  const loaded = await Promise.all(
    BUILTIN_KINDS.map(async (kind) => {
      const plugin = await defaultOf<AnyNodePlugin>(new URL(`${kind}/manifest.ts`, PLUGINS_DIR), 'node kind');
      if (plugin.kind !== kind) throw new Error(`plugins/${kind}/manifest.ts defines the kind "${plugin.kind}"`);
      const executorUrl = new URL(`${kind}/executor.ts`, PLUGINS_DIR);
      const executor = existsSync(executorUrl) ? await defaultOf<AnyNodeExecutor>(executorUrl, 'executor') : undefined;
      if (executor && executor.kind !== kind) throw new Error(`plugins/${kind}/executor.ts runs the kind "${executor.kind}"`);
      return { plugin, executor };
    }),
  );
  return { plugins: loaded.map((l) => l.plugin), executors: loaded.flatMap((l) => (l.executor ? [l.executor] : [])) };
}
