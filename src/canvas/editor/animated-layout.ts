import type { Position } from '../../../schemas/flow';
import type { LayoutFunction } from '../commands';
import { animatePositions, type AnimateOptions } from '../layout/animate';
import type { FlowStore } from '../store/create-flow-store';

/** Most nodes the tidy-up glides; more jump to their places (see animatedLayout). */
export const MAX_ANIMATED_NODES = 100;

/**
 * Wraps a layout function so the nodes glide to their new places before the `layout` command
 * writes them: the tween moves them inside a history gesture that is then cancelled (the document
 * is back where it was), and the command applies the final positions as its one undo step.
 * Without `requestAnimationFrame` (Node, tests) the result is returned at once, and so it is when
 * more than `maxNodes` nodes move: a frame of a big flow takes the browser most of a second (every
 * moved node and its edges redrawn, nodes entering and leaving the view mounted and unmounted; 0.8 s
 * for 500 nodes in bench:canvas), so the glide would show two or three jerks and hold the result
 * back; the nodes jump to their places instead.
 */
export function animatedLayout(store: FlowStore, layout: LayoutFunction, opts: AnimateOptions & { maxNodes?: number } = {}): LayoutFunction {
  const maxNodes = opts.maxNodes ?? MAX_ANIMATED_NODES;
  return async (doc, args) => {
    const result = await layout(doc, args);
    if (typeof requestAnimationFrame === 'undefined' && !opts.requestFrame) return result;
    const from: Record<string, Position> = {};
    const to: Record<string, Position> = {};
    for (const n of store.getState().document.nodes) {
      const p = result.positions[n.id];
      if (p && (p.x !== n.position.x || p.y !== n.position.y)) {
        from[n.id] = n.position;
        to[n.id] = p;
      }
    }
    const moved = Object.keys(to).length;
    if (!moved || moved > maxNodes) return result;
    store.beginGesture();
    try {
      await animatePositions(from, to, (frame) => store.moveNodes(frame), opts).finished;
    } finally {
      store.cancelGesture();
    }
    return result;
  };
}
