import { useEffect } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { computeChecklist } from '../checklist';
import type { FlowStore } from '../store/create-flow-store';
import type { ChecklistState } from './editor-context';

/** How long after the last edit the checklist is computed again (it parses every node's config). */
export const CHECKLIST_DELAY_MS = 300;

/**
 * Keeps the checklist store up to date: at once when the editor opens, then a moment after each
 * change of the document (not on every frame of a drag).
 */
export function useChecklistSync(store: FlowStore, checklist: StoreApi<ChecklistState>, delayMs = CHECKLIST_DELAY_MS) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      const entries = computeChecklist(store.getState().document, store.registry);
      const counts = new Map<string, number>();
      for (const e of entries) counts.set(e.nodeId, (counts.get(e.nodeId) ?? 0) + 1);
      checklist.setState({ entries, counts });
    };
    run();
    const unsubscribe = store.subscribeDocument(() => {
      clearTimeout(timer);
      timer = setTimeout(run, delayMs);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [store, checklist, delayMs]);
}
