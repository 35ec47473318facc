/**
 * A render counter for the editor benchmark (`npm run bench:canvas`): when the page has set
 * `window.__weftNodeRenders = {}`, every render of a node component adds one under its id. Without
 * that object it costs one property read per render, so it can stay in production builds (the
 * benchmark drives the built app).
 */
type Counts = Record<string, number>;

export function countNodeRender(id: string): void {
  const counts = (globalThis as { __weftNodeRenders?: Counts }).__weftNodeRenders;
  if (counts) counts[id] = (counts[id] ?? 0) + 1;
}
