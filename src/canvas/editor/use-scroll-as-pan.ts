import { useReactFlow } from '@xyflow/react';
import { useEffect, type RefObject } from 'react';

/**
 * The canvas never scrolls as a page does: what the browser scrolls into view inside it (a field
 * or a node's "+" focused while it lies past the canvas's edge or under the inspector, a word found
 * with Ctrl+F, an element's scrollIntoView) is panned into view instead.
 *
 * React Flow's wrapper clips its content (overflow: hidden), yet the browser still scrolls it, and
 * React Flow scrolls it back on the scroll event a frame later. The element brought into view then
 * jumps back out of it, and a click aimed at it in between lands on whatever slides under the
 * pointer: a press on a node's "+" whose release falls on the node selected the node instead of
 * opening the menu (issue 27's intermittent "+ after" miss). Here the scroll becomes a pan by the
 * same distance in the same frame (the listener runs in the capture phase, before React Flow's):
 * the element stays where the browser put it and React Flow's coordinates stay true.
 *
 * `area` is the element around React Flow (the wrapper may mount after it).
 */
export function useScrollAsPan(area: RefObject<HTMLElement | null>): void {
  const flow = useReactFlow();
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const onScroll = (e: Event) => {
      const wrapper = e.target;
      // Only React Flow's wrapper: lists in the palette, the popovers and nodes scroll as usual.
      if (!(wrapper instanceof HTMLElement) || !wrapper.classList.contains('react-flow')) return;
      const dx = wrapper.scrollLeft;
      const dy = wrapper.scrollTop;
      if (!dx && !dy) return;
      wrapper.scrollTo({ left: 0, top: 0, behavior: 'instant' });
      const { x, y, zoom } = flow.getViewport();
      void flow.setViewport({ x: x - dx, y: y - dy, zoom });
    };
    el.addEventListener('scroll', onScroll, true);
    return () => el.removeEventListener('scroll', onScroll, true);
  }, [area, flow]);
}
