/**
 * Leaving the page (a reload, the address bar, a link out) must not style and lay out a big screen
 * once more on its way out. react-router's ScrollRestoration reads `window.scrollY` in its pagehide
 * listener, which makes the browser bring style and layout up to date first: for the canvas of a
 * 1,000-node flow ~15,000 elements, 100-300 ms (a trace of bench/canvas-editor.ts) whenever anything
 * changed since the last frame, as it has right after the editor opens.
 *
 * Chromium calls a window's pagehide listeners in the order they were added (capture or not), and
 * the router adds its own from an effect, again after each navigation; this one, added at start-up,
 * comes first. It takes the elements marked `data-hide-on-leave` out of the layout (`display: none`:
 * the browser neither styles nor lays out their subtree) and puts them back if the page returns from
 * the back-forward cache. Marked elements keep their inline `display` empty (it is restored as '').
 */
export function installLeaveHiding(): () => void {
  const hidden: HTMLElement[] = [];
  const hide = () => {
    for (const el of document.querySelectorAll<HTMLElement>('[data-hide-on-leave]')) {
      el.style.display = 'none';
      hidden.push(el);
    }
  };
  const show = (e: PageTransitionEvent) => {
    if (!e.persisted) return;
    for (const el of hidden.splice(0)) el.style.display = '';
  };
  window.addEventListener('pagehide', hide);
  window.addEventListener('pageshow', show);
  return () => {
    window.removeEventListener('pagehide', hide);
    window.removeEventListener('pageshow', show);
  };
}
