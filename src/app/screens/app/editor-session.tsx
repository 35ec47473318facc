/**
 * What the app's two draft editors share (the canvas, flow-page.tsx, and the agent builder,
 * builder-page.tsx): one flow store per app on the built-in node kinds, its autosave to the draft
 * with the stored secrets' ids, the conflict dialog (reload theirs or overwrite with ours when a
 * save is refused as based on an older draft), and the page's height.
 */
import { useEffect, useLayoutEffect, useState, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppDetail, AppDraft } from '../../../../schemas/app';
import { loadNodeRegistry } from '../../../canvas/node-registry-loader';
import { getAppDraft, importIntoApp, saveAppDraft } from '../../../api/apps';
import type { FlowImportApi } from '../../../canvas/editor/flow-files';
import { createFlowAutosave, createFlowStore, type AutosaveController, type FlowStore } from '../../../canvas';
import { createLayout, type FlowLayout } from '../../../canvas/layout';
import type { NodeRegistry } from '../../../plugin-sdk';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, EmptyState, Spinner } from '../../../ui';
import type { LlmModel } from './app-guard';
import { takeDraft } from './draft-prefetch';
import { useEditorContext, type EditorContext } from './editor-layout';
import s from './flow-page.module.css';

/** The editor's node kinds: the built-ins and the installed packages' (src/canvas/node-registry-loader.ts). */
const loadEditorRegistry = loadNodeRegistry;

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; draft: AppDraft; registry: NodeRegistry };

/**
 * Loads the app's draft (the prefetched one first) and the node kinds (with the installed plugins'),
 * and renders the editor with them; a spinner meanwhile, a retry when it failed.
 */
export function DraftLoader({ render }: { render(app: AppDetail, draft: AppDraft, setSaveStatus: EditorContext['setSaveStatus'], registry: NodeRegistry): ReactNode }) {
  const context = useEditorContext();
  const { t } = useTranslation('editor');
  const app = context.app;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!app) return;
    const ctrl = new AbortController();
    setLoad({ state: 'loading' });
    Promise.all([attempt === 0 ? takeDraft(app, { signal: ctrl.signal }) : getAppDraft(app.workspace_id, app.id, { signal: ctrl.signal }), loadEditorRegistry()])
      .then(([draft, registry]) => !ctrl.signal.aborted && setLoad({ state: 'ready', draft, registry }))
      .catch(() => !ctrl.signal.aborted && setLoad({ state: 'failed' }));
    return () => ctrl.abort();
  }, [app, attempt]);
  if (!app || load.state === 'loading') {
    return (
      <div className={s.center} data-testid="flow-page-loading">
        <Spinner label={t('page.loading')} />
      </div>
    );
  }
  if (load.state === 'failed') {
    return (
      <div className={s.center}>
        <EmptyState title={t('page.loadFailed')} action={<Button onClick={() => setAttempt((n) => n + 1)}>{t('page.retry')}</Button>} />
      </div>
    );
  }
  return render(app, load.draft, context.setSaveStatus, load.registry);
}

/**
 * The editor header's save status from the autosave (nothing before the first change; a change
 * waiting for its save counts as saving), and on leaving: what waits is saved, then autosave stops.
 * Closing the tab with unsaved changes asks first.
 */
export function useAutosaveStatus(autosave: AutosaveController, layout: FlowLayout, setSaveStatus: EditorContext['setSaveStatus']) {
  const snapshot = useSyncExternalStore(autosave.subscribe, autosave.getSnapshot);
  const [changed, setChanged] = useState(false);

  useEffect(() => {
    if (snapshot.dirty || snapshot.status !== 'saved') setChanged(true);
  }, [snapshot]);
  useEffect(() => {
    // Nothing is shown before the first change; a change waiting for its save counts as saving.
    if (!changed) return;
    setSaveStatus(snapshot.status === 'saved' && snapshot.dirty ? 'saving' : snapshot.status);
  }, [changed, snapshot, setSaveStatus]);

  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      const snap = autosave.getSnapshot();
      if (!snap.dirty && snap.status !== 'saving') return;
      void autosave.flush();
      e.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      layout.dispose();
      // Leaving the tab or the editor: what waits is saved, then autosave stops.
      void autosave.flush().finally(() => autosave.dispose());
      setSaveStatus(null);
    };
  }, [autosave, layout, setSaveStatus]);
}

/** The height that takes an element to the bottom of the window (the header above it varies). */
export function useFillWindow(ref: RefObject<HTMLElement | null>): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const measure = () => {
      const top = ref.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(480, Math.floor(window.innerHeight - top - window.scrollY)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref]);
  return height;
}

/** The ids of the secrets stored with the draft (its `secrets_set`), as each load and save answers them. */
function storedSecretsOf(initial: string[]) {
  let value: ReadonlySet<string> = new Set(initial);
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(ids: string[]) {
      if (ids.length === value.size && ids.every((id) => value.has(id))) return;
      value = new Set(ids);
      for (const l of listeners) l();
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

export function openEditor(
  app: AppDetail,
  draft: AppDraft,
  registry: NodeRegistry,
  defaultModel: () => LlmModel | null | undefined,
): { store: FlowStore; autosave: AutosaveController; layout: FlowLayout; secrets: ReturnType<typeof storedSecretsOf> } {
  const secrets = storedSecretsOf(draft.secrets_set);
  const store = createFlowStore({
    registry,
    mode: app.type,
    document: draft.document,
    defaultModel: () => {
      const d = defaultModel();
      return d ? { provider: d.provider, name: d.model } : null;
    },
  });
  // elk runs in a Web Worker, loaded on the first "tidy up".
  const layout = createLayout({ registry: store.registry });
  const autosave = createFlowAutosave(store, {
    revision: draft.revision,
    // The autosave reports failures itself (header status, conflict dialog): no error toasts.
    save: async (document, base_revision) => {
      const saved = await saveAppDraft(app.workspace_id, { app_id: app.id, base_revision, document }, { reaction: 'silent' });
      secrets.set(saved.secrets_set);
      return saved;
    },
    load: async () => {
      const d = await getAppDraft(app.workspace_id, app.id);
      secrets.set(d.secrets_set);
      return { document: d.document, revision: d.revision };
    },
  });
  return { store, autosave, layout, secrets };
}

/**
 * The editor's import through the server (POST /apps/{app_id}/import). What waits is saved first:
 * saved after the import, it would be refused as based on the replaced draft. Then autosave reloads
 * the stored draft, so the canvas and the undo history start from the imported flow.
 */
export function apiFlowImporter(app: Pick<AppDetail, 'id' | 'workspace_id'>, autosave: AutosaveController): FlowImportApi {
  return {
    async importFile(content) {
      await autosave.flush();
      // The dialog shows why a file is refused.
      return (await importIntoApp(app.workspace_id, app.id, { content }, { reaction: 'silent' })).report;
    },
    reload: () => autosave.reload(),
  };
}

/** Someone saved the draft since it was loaded: reload theirs or overwrite with ours. */
export function ConflictDialog({ autosave }: { autosave: AutosaveController }) {
  const { t } = useTranslation(['editor', 'canvas']);
  const snap = useSyncExternalStore(autosave.subscribe, autosave.getSnapshot);
  const [busy, setBusy] = useState(false);
  const open = snap.status === 'conflict';
  const conflict = snap.conflict;
  const act = (fn: () => Promise<void>) => {
    setBusy(true);
    void fn().finally(() => setBusy(false));
  };
  return (
    <Dialog open={open}>
      <DialogContent hideClose size="sm" data-testid="conflict-dialog" onEscapeKeyDown={(e) => e.preventDefault()} onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{t('page.conflictTitle')}</DialogTitle>
          <DialogDescription>
            {t('canvas:autosave.conflict', {
              name: conflict?.updated_by?.name ?? t('page.someone'),
              time: conflict?.updated_at ? new Date(conflict.updated_at).toLocaleString() : '',
            })}
          </DialogDescription>
        </DialogHeader>
        <DialogBody>{t('canvas:autosave.conflictHint')}</DialogBody>
        <DialogFooter>
          <Button variant="secondary" disabled={busy} data-testid="conflict-reload" onClick={() => act(autosave.reload)}>
            {t('canvas:autosave.reload')}
          </Button>
          <Button variant="danger" disabled={busy} data-testid="conflict-overwrite" onClick={() => act(autosave.overwrite)}>
            {t('canvas:autosave.overwrite')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
