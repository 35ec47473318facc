import { describe, expect, it } from 'vitest';
import { canReparent, containerAt } from './containers';
import { edge, flow, makeStore, node, registry, sampleFlow } from './plugins.fixture';

const find = (store: ReturnType<typeof makeStore>, id: string) => store.toDocument().nodes.find((n) => n.id === id)!;

describe('moving nodes into and out of containers', () => {
  it('moves a node into a container with a position relative to it, dropping edges that would cross', () => {
    const store = makeStore();
    // b sits at (600, 0); the container at (1000, 400).
    expect(store.reparent(['b'], 'loop')).toEqual({ ok: true });
    const b = find(store, 'b');
    expect(b.parentId).toBe('loop');
    expect(b.position).toEqual({ x: -400, y: -400 });
    expect(store.toDocument().edges.some((e) => e.source === 'b' || e.target === 'b')).toBe(false);
    store.undo();
    expect(store.toDocument()).toEqual(sampleFlow());
  });

  it('moves nodes out to the top level at their absolute position, keeping edges among the moved', () => {
    const doc = flow({
      nodes: [
        node('start', 'start'),
        node('loop', 'repeat', { position: { x: 1000, y: 400 }, width: 600, height: 300 }),
        node('ls', 'repeat-start', { parentId: 'loop' }),
        node('x', 'echo', { parentId: 'loop', position: { x: 100, y: 50 } }),
        node('y', 'echo', { parentId: 'loop', position: { x: 300, y: 50 } }),
      ],
      edges: [edge('ls', 'x'), edge('x', 'y')],
    });
    const store = makeStore({ document: doc });
    store.reparent(['x', 'y'], null);
    expect(find(store, 'x')).toMatchObject({ position: { x: 1100, y: 450 } });
    expect(find(store, 'x').parentId).toBeUndefined();
    expect(store.toDocument().edges.map((e) => e.id)).toEqual([edge('x', 'y').id]);
  });

  it('refuses what cannot move', () => {
    const doc = sampleFlow();
    const reason = (ids: string[], parentId: string | null) => {
      const r = canReparent(doc, registry, ids, parentId);
      return r.ok ? 'ok' : r.reason;
    };
    expect(reason(['a'], 'b')).toBe('notContainer');
    expect(reason(['a'], 'nowhere')).toBe('nodeMissing');
    expect(reason(['loop'], 'loop')).toBe('intoItself');
    expect(reason(['loop-start'], null)).toBe('fixedNode');
    expect(reason(['start'], 'loop')).toBe('fixedNode');
    expect(reason(['a', 'inner'], 'loop')).toBe('ok');
    const withRooted = flow({ nodes: [...doc.nodes, node('r', 'rooted')], edges: doc.edges });
    expect(canReparent(withRooted, registry, ['r'], 'loop')).toEqual({ ok: false, reason: 'placementNotAllowed' });
    const store = makeStore();
    expect(store.reparent(['start'], 'loop')).toEqual({ ok: false, reason: 'fixedNode' });
    expect(store.getState().history.canUndo).toBe(false);
  });

  it('finds the container under a drop point', () => {
    const doc = sampleFlow();
    expect(containerAt(doc, registry, { x: 1100, y: 500 })).toBe('loop');
    expect(containerAt(doc, registry, { x: 100, y: 100 })).toBeNull();
    expect(containerAt(doc, registry, { x: 1100, y: 500 }, new Set(['loop']))).toBeNull();
  });
});
