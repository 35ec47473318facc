import { useEffect } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { computeChecklist } from '../checklist';
import type { ModelOption } from '../widgets/context';
import { sameStructure } from './same-structure';
import type { FlowStore } from '../store/create-flow-store';
import type { ChecklistState } from './editor-context';

/** How long after the last edit the checklist is computed again (it parses every node's config). */
export const CHECKLIST_DELAY_MS = 300;

/**
 * Keeps the checklist store up to date: at once when the editor opens, then a moment after each
 * change of the document (not on every frame of a drag), and again when the workspace's model list
 * (`models`: the chat models it offers, absent when unknown) or knowledge bases change.
 */
export function useChecklistSync(store: FlowStore, checklist: StoreApi<ChecklistState>, delayMs = CHECKLIST_DELAY_MS, models?: readonly ModelOption[], knowledgeBases?: readonly { id: string }[]) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      const doc = store.getState().document;
      const entries = computeChecklist(doc, store.registry, undefined, { models, knowledgeBases });
      const counts = new Map<string, number>();
      const errors = new Set<string>();
      for (const e of entries) {
        counts.set(e.nodeId, (counts.get(e.nodeId) ?? 0) + 1);
        if (e.severity === 'error') errors.add(e.nodeId);
      }
      checklist.setState({ entries, counts, errors });
    };
    // The first run waits until the canvas has painted (it parses every node's config: on a
    // large flow that would hold back the first paint).
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 500 }) : undefined;
    if (idle === undefined) run();
    const unsubscribe = store.subscribeDocument((doc, prev) => {
      // Moving nodes changes no entry: a drag of a large flow must not recompute it in a pause.
      if (sameStructure(doc, prev)) return;
      clearTimeout(timer);
      timer = setTimeout(run, delayMs);
    });
    return () => {
      if (idle !== undefined) cancelIdleCallback(idle);
      clearTimeout(timer);
      unsubscribe();
    };
  }, [store, checklist, delayMs, models, knowledgeBases]);
}
