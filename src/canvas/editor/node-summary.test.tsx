import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { z } from 'zod';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { createNodeRegistry, defineNodePlugin, type AnyNodePlugin } from '../../plugin-sdk';
import { canvasPlugins, flow, node } from '../plugins.fixture';
import { createFlowStore } from '../store/create-flow-store';
import { WorkspaceResourcesContext, type WorkspaceResources } from '../widgets/context';
import { FlowEditor } from './flow-editor';
import { summaryRows } from './node-summary';
import { stubBrowserForReactFlow } from './test-setup';

/** A kind with a summary: its URL (literal, monospaced), its condition count (a key) and its knowledge bases (by name). */
let summaryCalls = 0;
const fetcher = defineNodePlugin({
  kind: 'fetcher',
  version: 1,
  category: 'tool',
  icon: { lucide: 'globe' },
  i18n: {
    zh: { title: '取数', description: '取数', summary: { conditions: '{{count}} 个条件', kb: '知识库' } },
    en: { title: 'Fetcher', description: 'Fetcher', summary: { conditions: '{{count}} conditions', kb: 'Knowledge' } },
  },
  configSchema: z.object({ url: z.string().default(''), conditions: z.array(z.string()).default([]), kbs: z.array(z.string()).default([]) }),
  summary(c) {
    summaryCalls++;
    return [
      ...(c.url ? [{ text: `GET ${c.url}`, mono: true }] : []),
      { textKey: 'summary.conditions', params: { count: c.conditions.length } },
      ...(c.kbs.length ? [{ labelKey: 'summary.kb', refs: { resource: 'knowledgeBases' as const, ids: c.kbs } }] : []),
    ];
  },
});
const registry = createNodeRegistry([...(canvasPlugins as readonly AnyNodePlugin[]), fetcher]);
const resources: WorkspaceResources = { knowledgeBases: { list: async () => [{ id: 'kb1', name: 'Product manuals' }] } };

function setup() {
  const document = flow({
    nodes: [
      node('start', 'start'),
      { id: 'f', kind: 'fetcher', kindVersion: 1, title: '', position: { x: 300, y: 0 }, config: { url: 'https://example.com/api', conditions: ['a', 'b', 'c'], kbs: ['kb1', 'kb-gone'] } },
      node('a', 'echo', { position: { x: 600, y: 0 } }),
    ],
  });
  const store = createFlowStore({ registry, mode: 'workflow', document, freeze: false });
  render(
    <WorkspaceResourcesContext.Provider value={resources}>
      <FlowEditor store={store} checklistDelayMs={0} />
    </WorkspaceResourcesContext.Provider>,
  );
  return store;
}

beforeAll(async () => {
  stubBrowserForReactFlow();
  await initI18n('en');
});
afterEach(cleanup);

describe('node summaries', () => {
  it('shows the rows of the kind’s summary under the title, with keys translated and resources by name', async () => {
    setup();
    const summary = await screen.findByTestId('node-summary-f');
    expect(summary.textContent).toContain('GET https://example.com/api');
    expect(summary.textContent).toContain('3 conditions');
    expect(summary.textContent).toContain('Knowledge');
    // The name once the list arrives; an id the workspace no longer has stays shown as is.
    await waitFor(() => expect(summary.textContent).toContain('Product manuals, kb-gone'));
    expect(summary.querySelector('[data-mono]')?.textContent).toBe('GET https://example.com/api');
    // A kind without a summary shows none.
    expect(screen.queryByTestId('node-summary-a')).toBeNull();
  });

  it('computes a node’s summary once per config: moving or selecting it does not call the plugin again', async () => {
    const store = setup();
    await screen.findByTestId('node-summary-f');
    const calls = summaryCalls;
    act(() => {
      store.moveNodes({ f: { x: 320, y: 40 } });
      store.setSelection({ nodes: ['f'] });
    });
    expect(summaryCalls).toBe(calls);
    act(() => store.updateConfig('f', ['url'], 'https://example.com/v2'));
    await waitFor(() => expect(screen.getByTestId('node-summary-f').textContent).toContain('GET https://example.com/v2'));
    expect(summaryCalls).toBe(calls + 1);
  });

  it('leaves out a config that does not fit the schema (the checklist reports it)', () => {
    const bad = { id: 'x', kind: 'fetcher', kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: { url: 42 } };
    expect(summaryRows(registry, fetcher as AnyNodePlugin, bad)).toEqual([]);
  });
});
