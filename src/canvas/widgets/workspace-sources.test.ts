import { describe, expect, it } from 'vitest';
import { provideWorkspaceResources, workspaceResourcesFor } from './workspace-sources';

describe('workspace resource sources', () => {
  it('adds registered lists per workspace over the page’s own, and removes them again', async () => {
    const prompts = { list: async () => [{ id: 'p', name: 'Prompt' }] };
    expect(workspaceResourcesFor('ws1', { prompts })).toEqual({ prompts });
    const remove = provideWorkspaceResources({ knowledgeBases: (ws) => ({ list: async () => [{ id: `${ws}-kb`, name: 'Docs' }] }) });
    const r = workspaceResourcesFor('ws1', { prompts });
    expect(r.prompts).toBe(prompts);
    expect(await r.knowledgeBases!.list({ signal: new AbortController().signal })).toEqual([{ id: 'ws1-kb', name: 'Docs' }]);
    remove();
    expect(workspaceResourcesFor('ws1').knowledgeBases).toBeUndefined();
  });
});
