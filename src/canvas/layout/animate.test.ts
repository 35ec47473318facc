import { describe, expect, it } from 'vitest';
import { animatePositions } from './animate';

/** A fake frame clock: each `step(ms)` advances time and runs the pending frame. */
function clock() {
  let time = 0;
  let pending: ((t: number) => void) | undefined;
  return {
    now: () => time,
    requestFrame: (cb: (t: number) => void) => ((pending = cb), 1),
    cancelFrame: () => (pending = undefined),
    step(ms: number) {
      time += ms;
      const cb = pending;
      pending = undefined;
      cb?.(time);
    },
    get pending() {
      return Boolean(pending);
    },
  };
}

describe('animatePositions', () => {
  it('tweens from the old to the new positions and lands exactly on them', async () => {
    const c = clock();
    const frames: Record<string, { x: number; y: number }>[] = [];
    const anim = animatePositions({ a: { x: 0, y: 0 } }, { a: { x: 100, y: 200 }, b: { x: 5, y: 5 } }, (p) => frames.push(p), { ...c, durationMs: 250 });
    c.step(125);
    expect(frames[0].a.x).toBeGreaterThan(50); // ease-out: past half way at half time
    expect(frames[0].a.x).toBeLessThan(100);
    expect(frames[0].b).toEqual({ x: 5, y: 5 }); // a new node appears at its target
    c.step(200);
    expect(frames.at(-1)).toEqual({ a: { x: 100, y: 200 }, b: { x: 5, y: 5 } });
    expect(c.pending).toBe(false);
    await anim.finished;
  });

  it('stops on cancel', async () => {
    const c = clock();
    const frames: unknown[] = [];
    const anim = animatePositions({ a: { x: 0, y: 0 } }, { a: { x: 10, y: 0 } }, (p) => frames.push(p), c);
    c.step(50);
    anim.cancel();
    c.step(500);
    expect(frames).toHaveLength(1);
    await anim.finished;
  });

  it('jumps straight to the end with no duration', async () => {
    const frames: unknown[] = [];
    await animatePositions({ a: { x: 0, y: 0 } }, { a: { x: 3, y: 4 } }, (p) => frames.push(p), { durationMs: 0 }).finished;
    expect(frames).toEqual([{ a: { x: 3, y: 4 } }]);
  });
});
