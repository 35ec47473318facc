import { describe, expect, it } from 'vitest';
import { flow, node } from '../plugins.fixture';
import { freeSpotAfter, freeSpotNear } from './placement';

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

describe('freeSpotNear', () => {
  it('keeps the point when it is free, else takes the nearest spot clear of every node of the same container', () => {
    const doc = flow({
      nodes: [node('start', 'start', { position: { x: 0, y: 0 } }), node('a', 'echo', { position: { x: 300, y: 0 } }), node('in', 'echo', { position: { x: 0, y: 300 }, parentId: undefined })],
    });
    const sizes = () => ({ width: 240, height: 60 });
    expect(freeSpotNear(doc, { x: 0, y: 600 }, undefined, sizes)).toEqual({ x: 0, y: 600 });
    const spot = freeSpotNear(doc, { x: 310, y: 10 }, undefined, sizes);
    const clear = (n: { position: { x: number; y: number } }) =>
      spot.x + 240 + 20 <= n.position.x || n.position.x + 240 + 20 <= spot.x || spot.y + 60 + 20 <= n.position.y || n.position.y + 60 + 20 <= spot.y;
    expect(doc.nodes.every(clear)).toBe(true);
    // Near: within a few rings of the point asked for.
    expect(Math.hypot(spot.x - 310, spot.y - 10)).toBeLessThanOrEqual(160);
    // Another container's nodes do not count.
    expect(freeSpotNear(doc, { x: 310, y: 10 }, 'loop', sizes)).toEqual({ x: 310, y: 10 });
  });
});
