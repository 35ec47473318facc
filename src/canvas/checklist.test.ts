import { describe, expect, it } from 'vitest';
import { SDK_NAMESPACE } from '../plugin-sdk';
import { CANVAS_NAMESPACE, computeChecklist, hasBlockingIssues } from './checklist';
import { edge, flow, node, registry, sampleFlow } from './plugins.fixture';

const summary = (doc: Parameters<typeof computeChecklist>[0]) => computeChecklist(doc, registry).map((e) => `${e.nodeId} ${e.ns}:${e.key}`);

describe('computeChecklist', () => {
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
