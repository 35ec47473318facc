import { cacheChanged, onCacheChange } from '../cache-notices';

/**
 * Generations of the in-process row caches. A cache entry remembers the generation it was read in
 * and is used only while it is still current; a write that makes such rows stale moves the
 * generation on (this process at once, the others on the database by a notice: ../cache-notices.ts).
 * Kept apart from the caches so that services can call it without depending on the code that caches.
 */
let drafts = 0;
onCacheChange('apps', () => drafts++);

/** The generation of cached draft rows (app, draft, the caller's membership): runs/app-flow.ts. */
export const draftRowsGeneration = () => drafts;

/**
 * Drops the cached draft rows: call after saving a draft, deleting an app, or changing who belongs
 * to a workspace (removal, exit, transfer, workspace deletion).
 */
export function forgetDraftRows(): void {
  cacheChanged('apps');
}
