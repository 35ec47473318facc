import { describe, expect, it } from 'vitest';
import { flow, node } from '../plugins.fixture';
import { freeSpotAfter } from './placement';

describe('freeSpotAfter', () => {
  it('goes right of the source and below nodes already there', () => {
    const doc = flow({
      nodes: [node('start', 'start', { position: { x: 80, y: 240 } }), node('end', 'end', { position: { x: 440, y: 240 } }), node('a', 'echo', { position: { x: 400, y: 500 } })],
    });
    const sizes = (id: string) => (id === 'a' ? undefined : { width: 240, height: 50 });
    expect(freeSpotAfter(doc, 'start', sizes)).toEqual({ x: 400, y: 340 });
    expect(freeSpotAfter(doc, 'end', sizes)).toEqual({ x: 760, y: 240 });
    expect(freeSpotAfter(doc, 'gone', sizes)).toBeUndefined();
  });
});

describe('placementAt', () => {
  it('puts a node dropped on a container inside it, unless its kind may not sit there', async () => {
    const { makeStore } = await import('../plugins.fixture');
    const { placementAt } = await import('./use-canvas-handlers');
    const store = makeStore();
    expect(placementAt(store, 'echo', { x: 1100, y: 500 })).toEqual({ position: { x: 100, y: 100 }, parentId: 'loop' });
    expect(placementAt(store, 'rooted', { x: 1100, y: 500 })).toEqual({ position: { x: 1100, y: 500 } });
    expect(placementAt(store, 'echo', { x: 0, y: 900 })).toEqual({ position: { x: 0, y: 900 } });
  });
});
