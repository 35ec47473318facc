import { describe, expect, it } from 'vitest';
import { SDK_NAMESPACE } from '../plugin-sdk';
import { CANVAS_NAMESPACE, computeChecklist, hasBlockingIssues } from './checklist';
import { builtinPlugins } from './builtin-plugins';
import { createNodeRegistry } from '../plugin-sdk';
import { edge, flow, node, registry, sampleFlow } from './plugins.fixture';

const summary = (doc: Parameters<typeof computeChecklist>[0]) => computeChecklist(doc, registry).map((e) => `${e.nodeId} ${e.ns}:${e.key}`);

describe('computeChecklist', () => {
  it('warns about chat models the workspace does not offer, only when the list is known', () => {
    const builtins = createNodeRegistry(builtinPlugins);
    const model = (provider: string, name: string) => ({ provider, name, mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } });
    const withModel = (id: string, kind: string, provider: string, name: string) => {
      const n = node(id, kind, { config: builtins.defaults(kind) });
      return { ...n, kindVersion: builtins.get(kind)!.version, config: { ...n.config, model: model(provider, name) } };
    };
    const doc = flow({
      mode: 'workflow',
      nodes: [node('start', 'start', { kindVersion: builtins.get('start')!.version, config: builtins.defaults('start') }), withModel('llm1', 'llm', 'openai', 'gpt-4o-mini'), withModel('llm2', 'llm', 'anthropic', 'claude-sonnet-4-5'), withModel('pe', 'parameter-extractor', 'openai', 'gpt-gone')],
      edges: [edge('start', 'llm1'), edge('llm1', 'llm2'), edge('llm2', 'pe')],
    });
    const models = [{ provider: 'openai', model: 'gpt-4o-mini' }];
    const unavailable = (entries: ReturnType<typeof computeChecklist>) => entries.filter((e) => e.key === 'checklist.modelUnavailable');
    expect(unavailable(computeChecklist(doc, builtins))).toEqual([]);
    const found = unavailable(computeChecklist(doc, builtins, undefined, { models }));
    expect(found.map((e) => [e.nodeId, e.params, e.severity, e.ns, e.path])).toEqual([
      ['llm2', { model: 'claude-sonnet-4-5', provider: 'anthropic' }, 'warning', CANVAS_NAMESPACE, ['model']],
      ['pe', { model: 'gpt-gone', provider: 'openai' }, 'warning', CANVAS_NAMESPACE, ['model']],
    ]);
    expect(unavailable(computeChecklist(doc, builtins, undefined, { models: [...models, { provider: 'anthropic', model: 'claude-sonnet-4-5' }, { provider: 'openai', model: 'gpt-gone' }] }))).toEqual([]);
  });

  it('reports the plugins’ own issues; warnings do not block', () => {
    const entries = computeChecklist(sampleFlow(), registry);
    expect(entries.map((e) => [e.nodeId, e.key, e.severity])).toEqual([
      ['a', 'issues.textEmpty', 'warning'],
      ['loop', 'checklist.notConnected', 'error'],
      ['inner', 'issues.textEmpty', 'warning'],
    ]);
    expect(entries[0]).toMatchObject({ ns: 'node-echo', path: ['text'] });
    const doc = sampleFlow();
    const connected = { ...doc, edges: [...doc.edges, edge('b', 'loop')] };
    expect(hasBlockingIssues(computeChecklist(connected, registry))).toBe(false);
  });

  it('reports unconnected, unreachable nodes and a start that leads nowhere, but not notes', () => {
    const doc = flow({
      nodes: [
        node('start', 'start'),
        node('lonely', 'echo', { config: { text: 'x', source: [], upper: false, tags: [] } }),
        node('p', 'echo', { config: { text: 'x', source: [], upper: false, tags: [] } }),
        node('q', 'echo', { config: { text: 'x', source: [], upper: false, tags: [] } }),
        node('memo', 'note'),
      ],
      edges: [edge('p', 'q')],
    });
    expect(summary(doc)).toEqual([
      `start ${CANVAS_NAMESPACE}:checklist.entryNotConnected`,
      `lonely ${CANVAS_NAMESPACE}:checklist.notConnected`,
      `p ${CANVAS_NAMESPACE}:checklist.notConnected`,
      `q ${CANVAS_NAMESPACE}:checklist.unreachable`,
    ]);
    expect(hasBlockingIssues(computeChecklist(doc, registry))).toBe(true);
  });

  it('reports dangling references, missing config and the wrong mode', () => {
    const doc = flow({
      nodes: [
        node('start', 'start'),
        node('a', 'echo', { config: { text: 'use {{#gone.text#}}', source: ['b', 'text'], upper: false, tags: [] } }),
        node('b', 'echo', { config: { text: 'x', upper: false, source: [], tags: [] } }),
        node('c', 'echo', { config: { text: 'x', upper: 'yes', source: [], tags: [] } }),
        node('r', 'reply'),
        node('odd', 'martian', { config: { prompt: 'x {{#nowhere.out#}} {{#sys.query#}}' } }),
      ],
      edges: [edge('start', 'a'), edge('a', 'b'), edge('b', 'c'), edge('c', 'r'), edge('r', 'odd')],
    });
    const entries = computeChecklist(doc, registry);
    const keys = entries.map((e) => `${e.nodeId} ${e.key}`);
    expect(keys).toEqual([
      'a issues.referenceMissing',
      'a issues.referenceNotUpstream',
      'c issues.configInvalid',
      'r issues.modeNotAllowed',
      'odd issues.kindUnknown',
      'odd checklist.referenceBroken',
    ]);
    expect(entries[0]).toMatchObject({ ns: SDK_NAMESPACE, params: { reference: 'gone.text' }, severity: 'error' });
    expect(entries[5]).toMatchObject({ ns: CANVAS_NAMESPACE, params: { reference: 'nowhere.out' }, path: ['prompt'] });
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('checks each container scope from its own start', () => {
    const doc = sampleFlow();
    const cut = { ...doc, edges: doc.edges.filter((e) => e.source !== 'loop-start') };
    expect(summary(cut)).toContain(`inner ${CANVAS_NAMESPACE}:checklist.notConnected`);
    expect(summary(cut)).toContain(`loop-start ${CANVAS_NAMESPACE}:checklist.entryNotConnected`);
  });
});
