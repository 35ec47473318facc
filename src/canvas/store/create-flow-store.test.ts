import { describe, expect, it } from 'vitest';
import { FlowDocument } from '../../../schemas/flow';
import { echo } from '../../plugin-sdk/samples.fixture';
import { canvasPlugins, flow, makeStore, node, registry } from '../plugins.fixture';
import { z } from 'zod';
import { createFlowStore } from './create-flow-store';
import { createNodeRegistry, defineNodePlugin } from '../../plugin-sdk';

const ids = (store: ReturnType<typeof makeStore>) => store.toDocument().nodes.map((n) => n.id);

describe('createFlowStore', () => {
  it('makes an empty flow of its mode and refuses a document of another mode', () => {
    const store = createFlowStore({ registry, mode: 'chatflow' });
    expect(store.toDocument().nodes.map((n) => n.kind)).toEqual(['start', 'llm', 'answer']);
    expect(() => createFlowStore({ registry, mode: 'chatflow', document: makeStore().toDocument() })).toThrow(/workflow/);
  });

  it('gives a new node that calls a model the default model, read when the node is added', () => {
    // A kind holding `model` as the model kinds do (provider, name, mode, parameters).
    const asks = defineNodePlugin({
      kind: 'asks',
      version: 1,
      category: 'model',
      icon: { lucide: 'bot' },
      i18n: { zh: { title: '问', description: '问' }, en: { title: 'Asks', description: 'Asks' } },
      configSchema: z.object({ model: z.object({ provider: z.string(), name: z.string(), mode: z.string() }).default({ provider: '', name: '', mode: 'chat' }) }),
    });
    let choice: { provider: string; name: string } | null = null;
    const store = createFlowStore({ registry: createNodeRegistry([...canvasPlugins, asks]), mode: 'workflow', defaultModel: () => choice });
    const before = store.addNode('asks')!;
    choice = { provider: 'openai', name: 'gpt-4o-mini' };
    const after = store.addNode('asks')!;
    const echoed = store.addNode('echo')!;
    const config = (id: string) => store.toDocument().nodes.find((n) => n.id === id)!.config as { model?: { provider: string; name: string; mode: string } };
    expect(config(before).model).toEqual({ provider: '', name: '', mode: 'chat' });
    expect(config(after).model).toEqual({ provider: 'openai', name: 'gpt-4o-mini', mode: 'chat' });
    expect(config(echoed).model).toBeUndefined();
  });

  it('migrates old nodes on load', () => {
    const doc = flow({ nodes: [node('start', 'start'), node('e', 'echo', { kindVersion: 1, config: { text: 'x', uppercase: true } })] });
    const store = createFlowStore({ registry, mode: 'workflow', document: doc });
    const e = store.toDocument().nodes[1];
    expect(e.kindVersion).toBe(echo.version);
    expect(e.config).toMatchObject({ upper: true });
  });

  it('keeps view state out of the saved document', () => {
    const store = makeStore();
    store.setSelection({ nodes: ['a'] });
    store.setHoveredNode('a');
    store.setRunStatus({ a: 'running' });
    store.setViewport({ x: 10, y: 20, zoom: 2 });
    const doc = store.toDocument();
    expect(JSON.stringify(doc)).not.toMatch(/selected|running|zoom|hover/);
    expect(() => FlowDocument.parse(doc)).not.toThrow();
    expect(store.getState().history.canUndo).toBe(false);
  });

  it('adds a node from a handle, connected, to the right of its source, in one step', () => {
    const store = makeStore();
    const id = store.addNode('echo', { from: { nodeId: 'a' } })!;
    const doc = store.toDocument();
    expect(id).toBe('echo_1');
    expect(doc.nodes.find((n) => n.id === id)!.position).toEqual({ x: 620, y: 0 });
    expect(doc.edges.some((e) => e.source === 'a' && e.target === id)).toBe(true);
    expect(store.getState().view.selection.nodes).toEqual([id]);
    store.undo();
    expect(ids(store)).not.toContain(id);
    expect(store.toDocument().edges.some((e) => e.target === id)).toBe(false);
  });

  it('adds a container with its start inside, and nodes inside a container next to their source', () => {
    const store = makeStore();
    const loop = store.addNode('repeat', { position: { x: 0, y: 900 } })!;
    const doc = store.toDocument();
    const inner = doc.nodes.filter((n) => n.parentId === loop);
    expect(inner.map((n) => n.kind)).toEqual(['repeat-start']);
    const next = store.addNode('echo', { from: { nodeId: inner[0].id } })!;
    expect(store.toDocument().nodes.find((n) => n.id === next)!.parentId).toBe(loop);
  });

  it('deletes nodes with their edges, never start, and a container with everything inside', () => {
    const store = makeStore();
    expect(store.deleteNodes(['start', 'a', 'loop']).sort()).toEqual(['a', 'inner', 'loop', 'loop-start']);
    const doc = store.toDocument();
    expect(doc.nodes.map((n) => n.id)).toEqual(['start', 'b', 'end']);
    expect(doc.edges.map((e) => [e.source, e.target])).toEqual([['b', 'end']]);
    store.undo();
    expect(store.toDocument()).toEqual(makeStore().toDocument());
  });

  it('connects only what canConnect allows, and edits titles with undo', () => {
    const store = makeStore();
    expect(store.connect({ source: 'a', target: 'start' })).toEqual({ ok: false, reason: 'targetClosed' });
    expect(store.connect({ source: 'a', target: 'end' })).toEqual({ ok: true });
    expect(store.toDocument().edges).toHaveLength(5);
    store.setTitle('a', 'Greeter');
    expect(store.toDocument().nodes[1].title).toBe('Greeter');
    store.undo();
    store.undo();
    expect(store.toDocument()).toEqual(makeStore().toDocument());
  });

  it('replaces the document (reload) and forgets history', () => {
    const store = makeStore();
    store.moveNodes({ a: { x: 1, y: 1 } });
    store.setSelection({ nodes: ['a', 'inner'] });
    const other = flow({ nodes: [node('start', 'start'), node('a', 'echo')] });
    const seen: number[] = [];
    store.subscribeDocument((d) => seen.push(d.nodes.length));
    store.replaceDocument(other);
    expect(store.toDocument().nodes).toHaveLength(2);
    expect(store.getState().history).toEqual({ canUndo: false, canRedo: false });
    expect(store.getState().view.selection.nodes).toEqual(['a']);
    expect(seen).toEqual([2]);
  });

  it('freezes documents in development and tests, and not when told so', () => {
    const store = makeStore();
    store.moveNodes({ a: { x: 1, y: 1 } });
    const a = store.toDocument().nodes[1];
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => {
      (a.position as { x: number }).x = 5;
    }).toThrow();
    const loose = makeStore({ freeze: false });
    loose.moveNodes({ a: { x: 1, y: 1 } });
    expect(Object.isFrozen(loose.toDocument().nodes[1])).toBe(false);
  });

  it('sets nested config values and merges only when asked', () => {
    const store = makeStore();
    store.updateConfig('a', ['tags', 0], 'x', { merge: false });
    store.updateConfig('a', ['tags', 1], 'y', { merge: false });
    expect(store.toDocument().nodes[1].config.tags).toEqual(['x', 'y']);
    store.undo();
    expect(store.toDocument().nodes[1].config.tags).toEqual(['x']);
  });
});

describe('inserting into an edge', () => {
  it('adds a node into an edge as one undo step: source → node → target', () => {
    const store = makeStore();
    const id = store.addNode('echo', { position: { x: 450, y: 0 }, intoEdge: 'a-source-b-target' })!;
    const pairs = () => store.getState().document.edges.map((e) => `${e.source}>${e.target}`);
    expect(pairs()).toEqual(expect.arrayContaining(['a>' + id, id + '>b']));
    expect(pairs()).not.toContain('a>b');
    store.undo();
    expect(pairs()).toContain('a>b');
    expect(store.getState().document.nodes.some((n) => n.id === id)).toBe(false);
  });

  it('splits an edge with an existing node, and refuses (changing nothing) what cannot take both ends', () => {
    const store = makeStore();
    const id = store.addNode('echo', { position: { x: 0, y: 400 } })!;
    expect(store.splitEdge(id, 'b-source-end-target')).toBe(true);
    const pairs = () => store.getState().document.edges.map((e) => `${e.source}>${e.target}`);
    expect(pairs()).toEqual(expect.arrayContaining(['b>' + id, id + '>end']));
    store.undo();
    expect(pairs()).toContain('b>end');
    // start takes no incoming edge; a node inside the loop cannot join top-level nodes.
    const before = store.getState().document;
    expect(store.splitEdge('start', 'a-source-b-target')).toBe(false);
    expect(store.splitEdge('inner', 'a-source-b-target')).toBe(false);
    expect(store.getState().document).toBe(before);
  });
});
