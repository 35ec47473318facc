import { X } from 'lucide-react';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { featuresOf, isChatMode } from '../../../schemas/flow';
import { describeError } from '../../api/reactions';
import { tDynamic } from '../../i18n';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import type { AutosaveController } from '../autosave';
import type { FlowStore } from '../store/create-flow-store';
import { ChatPanel } from './chat-panel';
import { blockingIssuesOf, ChecklistBlocked } from './checklist-blocked';
import { apiDebugApi, useDebugApiOverride } from './debug-api';
import { runStoreOf } from './run-store';
import { runFieldsOf } from './start-fields';
import { TraceTitleContext } from './trace-view';
import { useDebugRun, type DebugRunError } from './use-debug-run';
import { WorkflowPanel } from './workflow-panel';
import s from './debug.module.css';

export interface DebugPaneProps {
  /** The editor's store: the pane reads the flow (start form, conversation variables) and shows run state on its nodes. */
  store: FlowStore;
  appId: string;
  /** The app's project space (X-Workspace-Id of the run calls). */
  workspaceId: string;
  /** The editor's autosave: flushed before each run, since the server runs the stored draft. */
  autosave?: AutosaveController;
  onClose?: () => void;
  className?: string;
}

function ErrorLine({ error }: { error: DebugRunError }) {
  const { t } = useTranslation('debug');
  const text = error.kind === 'unsaved' ? t('errors.unsaved') : error.kind === 'conflict' ? t('errors.conflict') : (describeError(error.error, 'silent')?.text ?? t('errors.failed'));
  return (
    <p className={s.paneError} role="alert" data-testid="debug-error">
      {text}
    </p>
  );
}

/**
 * The editor's debug pane: a chat (chatflow, agent, agent team) or a run form (workflow) against the
 * app's saved draft, with each run's trace; the canvas nodes show their run status meanwhile.
 * Calls go to the real API unless a {@link DebugApiContext} gives another (stories, tests).
 * @example
 * {debugOpen && <DebugPane store={store} appId={app.id} workspaceId={app.workspace_id} autosave={autosave} onClose={() => setDebugOpen(false)} />}
 */
export function DebugPane({ store, appId, workspaceId, autosave, onClose, className }: DebugPaneProps) {
  const { t, i18n } = useTranslation('debug');
  const override = useDebugApiOverride();
  const api = useMemo(() => override ?? apiDebugApi(appId, workspaceId), [override, appId, workspaceId]);
  const runs = runStoreOf(store);
  const run = useDebugRun(runs, api, autosave);
  const doc = useStore(store.api, (st) => st.document);
  const fields = useMemo(() => runFieldsOf(doc, store.registry), [doc, store.registry]);
  // What end users see when a conversation starts (schemas/flow.ts AppFeatures).
  const features = useMemo(() => featuresOf(doc), [doc.features]); // eslint-disable-line react-hooks/exhaustive-deps
  const chat = isChatMode(doc.mode);
  const blocking = blockingIssuesOf(run.error);
  // The trace names kinds as the canvas does.
  const kindTitle = useCallback(
    (kind: string) => {
      const plugin = store.registry.get(kind);
      return plugin ? tDynamic(`${plugin.ns}:${plugin.titleKey}`) : undefined;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the language changes the kind titles
    [store.registry, i18n.language],
  );
  // Closing the pane clears the canvas statuses (they describe a run no longer shown).
  useEffect(() => () => runs.reset(), [runs]);

  return (
    <aside className={cn(s.pane, className)} aria-label={t('title')} data-testid="debug-pane" data-mode={chat ? 'chat' : 'workflow'}>
      <header className={s.paneHeader}>
        <h2 className={s.paneTitle}>{t('title')}</h2>
        {onClose && (
          <Button size="sm" variant="ghost" iconOnly aria-label={t('close')} onClick={onClose} data-testid="debug-close">
            <X aria-hidden="true" />
          </Button>
        )}
      </header>
      {blocking ? <ChecklistBlocked store={store} issues={blocking} /> : run.error && <ErrorLine error={run.error} />}
      <div className={s.paneBody}>
        <TraceTitleContext value={kindTitle}>
          {chat ? (
            <ChatPanel api={api} runs={runs} run={run} fields={fields} declaredVariables={doc.variables.conversation} features={features} />
          ) : (
            <WorkflowPanel api={api} runs={runs} run={run} fields={fields} />
          )}
        </TraceTitleContext>
      </div>
    </aside>
  );
}
