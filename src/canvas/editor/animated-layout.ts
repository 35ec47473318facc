import type { Position } from '../../../schemas/flow';
import type { LayoutFunction } from '../commands';
import { animatePositions, type AnimateOptions } from '../layout/animate';
import type { FlowStore } from '../store/create-flow-store';

/**
 * Wraps a layout function so the nodes glide to their new places before the `layout` command
 * writes them: the tween moves them inside a history gesture that is then cancelled (the document
 * is back where it was), and the command applies the final positions as its one undo step.
 * Without `requestAnimationFrame` (Node, tests) the result is returned at once.
 */
export function animatedLayout(store: FlowStore, layout: LayoutFunction, opts: AnimateOptions = {}): LayoutFunction {
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
    if (!Object.keys(to).length) return result;
    store.beginGesture();
    try {
      await animatePositions(from, to, (frame) => store.moveNodes(frame), opts).finished;
    } finally {
      store.cancelGesture();
    }
    return result;
  };
}
