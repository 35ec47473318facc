import type { ReactFlowState, useStoreApi } from '@xyflow/react';

type Updates = Parameters<ReactFlowState['updateNodeInternals']>[0];

/**
 * Keeps React Flow from measuring again, in full, a node whose size and handles it already holds.
 *
 * React Flow observes every node it mounts with a ResizeObserver, and the observer's first report
 * (sent for every element it starts observing) makes it measure the node in full as if it had
 * resized: its box and each handle's (getBoundingClientRect), a new internal node, then a store
 * update that runs every node's and edge's selectors again. A step opened in the overview comes with
 * its size and handles (flow-elements.ts overviewBox, checked against the browser by the overview
 * e2e), so for them that report changes nothing: opening 1,000 nodes spent ~176 ms of main-thread CPU on it (a loaded machine's
 * trace; bench/canvas-editor.ts), all in the frame before the first paint.
 *
 * A report is dropped only when the element's size (offsetWidth/Height, what React Flow reads; the
 * layout is clean when the observer reports) equals the size React Flow holds and the node has
 * its handles were given with it: a node that really changed size is measured in full as before, and
 * so is every node not opened with an estimate (its first measuring, a node scrolled back into view). Call once, before `<ReactFlow>` mounts: its observer keeps the
 * `updateNodeInternals` it found then.
 */
export function skipUnchangedMeasures(store: ReturnType<typeof useStoreApi>): void {
  const measure = store.getState().updateNodeInternals;
  // Once per store (React's strict mode runs a state initialiser twice).
  if (wrapped.has(measure)) return;
  const updateNodeInternals: ReactFlowState['updateNodeInternals'] = (updates, params) => {
    const { nodeLookup } = store.getState();
    let kept: Updates | undefined;
    for (const [id, u] of updates) {
      const node = nodeLookup.get(id);
      // Only nodes given their box up front (their handles with it: the overview's estimate); every
      // other node is measured as React Flow always did.
      const given = node && !node.hidden && node.internals.userNode.handles !== undefined && node.internals.handleBounds;
      const same = given && node.measured.width === u.nodeElement.offsetWidth && node.measured.height === u.nodeElement.offsetHeight;
      if (same) continue;
      (kept ??= new Map()).set(id, u);
    }
    if (kept) measure(kept, params);
  };
  wrapped.add(updateNodeInternals);
  store.setState({ updateNodeInternals });
}

const wrapped = new WeakSet<object>();
