import type { WorkspaceResources } from './context';

/**
 * Where areas outside the canvas plug their lists into the editor's pickers, without the editor
 * importing them: the knowledge screens register `knowledgeBases`, the tool screens `tools` and
 * `mcpServers` (e.g. from `src/api/datasets.ts` / `src/api/tools.ts` at module load). The flow page
 * builds its `WorkspaceResourcesContext` from these plus the lists it loads itself.
 */
export type WorkspaceResourceLoaders = {
  [K in keyof WorkspaceResources]?: (workspaceId: string) => NonNullable<WorkspaceResources[K]>;
};

let loaders: WorkspaceResourceLoaders = {};

/**
 * Registers resource lists for the editor's pickers (merged over earlier ones); returns a function
 * that removes them again (tests, hot reload).
 * @example
 * provideWorkspaceResources({
 *   knowledgeBases: (workspaceId) => ({
 *     list: async ({ signal }) => (await listDatasets({ page_size: 1000 }, { workspaceId, signal })).items.map((d) => ({ id: d.id, name: d.name })),
 *   }),
 * });
 */
export function provideWorkspaceResources(more: WorkspaceResourceLoaders): () => void {
  const before = loaders;
  loaders = { ...loaders, ...more };
  return () => {
    const keys = Object.keys(more) as (keyof WorkspaceResourceLoaders)[];
    const next = { ...loaders };
    for (const k of keys) {
      if (loaders[k] === more[k]) (next as Record<string, unknown>)[k] = before[k];
    }
    loaders = next;
  };
}

/** The resources of one workspace: `base` (what the page loads itself), then registered lists. */
export function workspaceResourcesFor(workspaceId: string, base: WorkspaceResources = {}): WorkspaceResources {
  const out: WorkspaceResources = { ...base };
  for (const [key, load] of Object.entries(loaders) as [keyof WorkspaceResources, (id: string) => never][]) {
    if (load) out[key] = load(workspaceId);
  }
  return out;
}
