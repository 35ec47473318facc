import { DraftConflict } from '../../schemas/app';
import { ErrorCode } from '../../schemas/errors';
import type { FlowDocument } from '../../schemas/flow';
import type { FlowStore } from './store/create-flow-store';

/**
 * Autosave of the draft: a save a moment (default 800 ms) after the last change, one save at a
 * time, never a silent overwrite. A save names the revision it was based on; when the server
 * refuses it because someone saved since (409 CONFLICT-1000, see `saveDraft` in
 * src/server/services/apps.ts), autosave stops in `conflict` until the builder chooses
 * `reload()` (take theirs) or `overwrite()` (keep mine, based on their revision).
 */

/** `saved` also while changes wait for the delay (see `dirty`). */
export type AutosaveStatus = 'saved' | 'saving' | 'failed' | 'conflict';

/** What the refusal says is stored now; only the revision is needed (to overwrite). */
export type DraftConflictInfo = Pick<DraftConflict, 'revision'> & Partial<DraftConflict>;

// Lenient: a refusal whose details do not parse still stops autosave (retrying would never succeed).
const ConflictData = DraftConflict.partial().required({ revision: true });

export interface AutosaveSnapshot {
  status: AutosaveStatus;
  /** Changes not saved yet. */
  dirty: boolean;
  /** The revision the next save is based on. */
  revision: number;
  /** What is stored now, when in `conflict`. */
  conflict?: DraftConflictInfo;
  /** The last failure, when `failed`. */
  error?: unknown;
}

export interface AutosaveOptions {
  getDocument(): FlowDocument;
  /** Calls `listener` after each change of the document; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Saves (PUT /apps/workflow) and resolves to the new revision; a refusal throws. */
  save(document: FlowDocument, baseRevision: number): Promise<{ revision: number }>;
  /** The stored draft, for `reload()`. */
  load(): Promise<{ document: FlowDocument; revision: number }>;
  /** Puts a reloaded document in the editor (`store.replaceDocument`). */
  applyDocument(document: FlowDocument): void;
  /** The revision of the loaded draft. */
  revision: number;
  delayMs?: number;
  /** How long to wait before retrying a failed save on its own (default 5 s; 0 = only on the next change). */
  retryMs?: number;
  /** Recognises a conflict refusal; default: an error with code CONFLICT-1000 and DraftConflict data. */
  conflictOf?(error: unknown): DraftConflictInfo | undefined;
}

export interface AutosaveController {
  getSnapshot(): AutosaveSnapshot;
  /** Calls `listener` on every snapshot change (fits `useSyncExternalStore`). */
  subscribe(listener: () => void): () => void;
  /** Saves now if something waits (leaving the page, switching tabs). */
  flush(): Promise<void>;
  /** After a failure: save again now. */
  retry(): Promise<void>;
  /**
   * Replaces the editor's document with the stored one: in a conflict (take theirs), or after the
   * server replaced the draft itself (the editor's import). Edits not saved are dropped.
   */
  reload(): Promise<void>;
  /** In conflict: save this document over the stored one. */
  overwrite(): Promise<void>;
  dispose(): void;
}

export const AUTOSAVE_DELAY_MS = 800;

/** The default conflict test: an API error (src/api/request.ts ApiError) with code CONFLICT-1000. */
export function defaultConflictOf(error: unknown): DraftConflictInfo | undefined {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== ErrorCode.CONFLICT) return undefined;
  const data = ConflictData.safeParse((error as { data?: unknown }).data);
  return data.success ? data.data : undefined;
}

/**
 * @example
 * const autosave = createAutosave({
 *   getDocument: store.toDocument,
 *   subscribe: (l) => store.subscribeDocument(l),
 *   applyDocument: store.replaceDocument,
 *   save: (document, base_revision) => saveAppDraft(workspaceId, { app_id, base_revision, document }),
 *   load: () => getAppDraft(workspaceId, app_id),
 *   revision: draft.revision,
 * });
 */
export function createAutosave(opts: AutosaveOptions): AutosaveController {
  const delay = opts.delayMs ?? AUTOSAVE_DELAY_MS;
  const retryMs = opts.retryMs ?? 5000;
  const conflictOf = opts.conflictOf ?? defaultConflictOf;
  let snap: AutosaveSnapshot = { status: 'saved', dirty: false, revision: opts.revision };
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> | undefined;
  let applying = false;
  let disposed = false;

  /** Notifies only when something changed: every edit of a drag reports a change, and the page re-renders on each notice. */
  const set = (patch: Partial<AutosaveSnapshot>) => {
    if ((Object.keys(patch) as (keyof AutosaveSnapshot)[]).every((k) => Object.is(snap[k], patch[k]))) return;
    snap = { ...snap, ...patch };
    for (const l of listeners) l();
  };
  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const schedule = (ms: number) => {
    clearTimer();
    if (!disposed) timer = setTimeout(() => void save(snap.revision), ms);
  };

  async function save(base: number): Promise<void> {
    clearTimer();
    if (inFlight) {
      // One save at a time; the change that arrived meanwhile is saved after it.
      await inFlight;
      if (snap.dirty && snap.status !== 'conflict') return save(snap.revision);
      return;
    }
    const doc = opts.getDocument();
    set({ status: 'saving', error: undefined });
    const run = (async () => {
      try {
        const { revision } = await opts.save(doc, base);
        const dirty = opts.getDocument() !== doc;
        set({ status: 'saved', revision, dirty, conflict: undefined });
        if (dirty) schedule(delay);
      } catch (error) {
        const conflict = conflictOf(error);
        if (conflict) set({ status: 'conflict', conflict });
        else {
          set({ status: 'failed', error });
          if (retryMs > 0) schedule(retryMs);
        }
      }
    })();
    inFlight = run;
    try {
      await run;
    } finally {
      inFlight = undefined;
    }
  }

  const unsubscribe = opts.subscribe(() => {
    if (applying || disposed) return;
    set({ dirty: true });
    // In conflict nothing saves until the builder decides; edits meanwhile are kept.
    if (snap.status !== 'conflict') schedule(delay);
  });

  return {
    getSnapshot: () => snap,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async flush() {
      if (snap.dirty && snap.status !== 'conflict') await save(snap.revision);
      else if (inFlight) await inFlight;
    },
    retry: () => (snap.status === 'failed' ? save(snap.revision) : Promise.resolve()),
    async reload() {
      // A save still under way would land on top of what is loaded (or be refused against it).
      if (inFlight) await inFlight.catch(() => undefined);
      clearTimer();
      const { document, revision } = await opts.load();
      applying = true;
      try {
        opts.applyDocument(document);
      } finally {
        applying = false;
      }
      clearTimer();
      set({ status: 'saved', dirty: false, revision, conflict: undefined });
    },
    async overwrite() {
      if (snap.status !== 'conflict' || !snap.conflict) return;
      await save(snap.conflict.revision);
    },
    dispose() {
      disposed = true;
      clearTimer();
      unsubscribe();
      listeners.clear();
    },
  };
}

/** Autosave wired to an editor store. */
export function createFlowAutosave(store: FlowStore, opts: Omit<AutosaveOptions, 'getDocument' | 'subscribe' | 'applyDocument'>): AutosaveController {
  return createAutosave({
    ...opts,
    getDocument: store.toDocument,
    subscribe: (listener) => store.subscribeDocument(listener),
    applyDocument: store.replaceDocument,
  });
}
