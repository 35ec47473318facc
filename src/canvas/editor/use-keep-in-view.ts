import { useReactFlow } from '@xyflow/react';
import { useEffect, type RefObject } from 'react';

/** Room kept between the node and the canvas's edges. */
const MARGIN = 32;

/**
 * Keeps the node the inspector shows in view beside it: when the inspector opens it narrows the
 * canvas, and a node added with "+" to the right of another (or selected near the right edge)
 * would sit under it, off screen. After the layout settles (a frame) the canvas pans by the least
 * that shows the whole node; a node already in view does not move the canvas. The same when the
 * builder widens the inspector.
 */
export function useKeepInView(nodeId: string | null, area: RefObject<HTMLElement | null>, inspectorWidth?: number): void {
  const flow = useReactFlow();
  useEffect(() => {
    if (!nodeId || typeof requestAnimationFrame === 'undefined') return;
    const frame = requestAnimationFrame(() => {
      const n = flow.getInternalNode(nodeId);
      const el = area.current;
      if (!n || !el || !el.clientWidth) return;
      const { x, y, zoom } = flow.getViewport();
      const w = (n.measured.width ?? 240) * zoom;
      const h = (n.measured.height ?? 60) * zoom;
      const left = n.internals.positionAbsolute.x * zoom + x;
      const top = n.internals.positionAbsolute.y * zoom + y;
      const shift = (start: number, size: number, room: number) => {
        if (size + 2 * MARGIN > room) return MARGIN - start; // too big: its start in view
        if (start + size > room - MARGIN) return room - MARGIN - (start + size);
        if (start < MARGIN) return MARGIN - start;
        return 0;
      };
      const dx = shift(left, w, el.clientWidth);
      const dy = shift(top, h, el.clientHeight);
      // A straight glide: React Flow's default (d3's smooth zoom) zooms out and back in on the way,
      // which showed the nodes just past the canvas's edges for a frame or two, each mounted and
      // unmounted again (bench:canvas counted 4 renders of other nodes after a drag).
      if (dx || dy) void flow.setViewport({ x: x + dx, y: y + dy, zoom }, { duration: 200, interpolate: 'linear' });
    });
    return () => cancelAnimationFrame(frame);
    // inspectorWidth: a wider inspector narrows the canvas, and the node must stay in view beside it.
  }, [nodeId, flow, area, inspectorWidth]);
}
