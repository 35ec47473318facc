/**
 * The app guard hands the canvas the draft it loaded with the app (or, after a restore, one loaded
 * ahead), so opening a large flow waits for one request instead of two in turn. A prefetched draft
 * is used once and only while fresh; after that the page loads its own (a save based on an older
 * revision would be refused anyway, never silently applied).
 */
import type { AppDraft } from '../../../../schemas/app';
import { getAppDraft } from '../../../api/apps';

const FRESH_MS = 5_000;
const pending = new Map<string, { at: number; draft: Promise<AppDraft> }>();

/** Starts loading the app's draft (errors wait for the page, which shows them its own way). */
export function prefetchDraft(app: { id: string; workspace_id: string }): void {
  const draft = getAppDraft(app.workspace_id, app.id, { reaction: 'silent' });
  draft.catch(() => undefined);
  pending.set(app.id, { at: Date.now(), draft });
}

/**
 * Keeps the draft that came with the app (GET /apps/{id} answers the app with its draft) for the
 * canvas, which then opens without asking for it again.
 */
export function seedDraft(app: { id: string; draft: AppDraft }): void {
  pending.set(app.id, { at: Date.now(), draft: Promise.resolve(app.draft) });
}

/** The prefetched draft of the app if there is a fresh one (once), else a new request. */
export function takeDraft(app: { id: string; workspace_id: string }, opts: { signal?: AbortSignal } = {}): Promise<AppDraft> {
  const hit = pending.get(app.id);
  pending.delete(app.id);
  const load = () => getAppDraft(app.workspace_id, app.id, opts);
  // A failed prefetch (silent) is asked again the ordinary way, so the user sees why it failed.
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.draft.catch(load);
  return load();
}
