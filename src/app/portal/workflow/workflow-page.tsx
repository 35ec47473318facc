/**
 * /portal/sessions/workflow/:appId: a workflow app's run page: the form of its start node's inputs
 * (the schema-driven kit, from PortalInputField[]), a run with its steps as they go and its result
 * (text outputs as markdown, the others as JSON), and the user's past runs (one opens in place).
 */
import { Play, Square } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { PortalAppDetail, WebRun } from '../../../../schemas/portal';
import { SchemaForm } from '../../../kit/schema-form';
import { AppIcon } from '../../../kit/widgets/app-icon';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { Page, PageHeader } from '../../shell/page';
import { LostAccess } from '../chat/lost-access';
import { inputSchemaOf, toRunInputs } from '../input-schema';
import { isAccessLost, settleLoadError } from '../load-error';
import { PortalModeBadge } from '../mode-badge';
import { usePortalApi } from '../portal-api';
import { RunHistory } from './run-history';
import { RunResult, RunSteps } from './run-result';
import { useWorkflowRun } from './use-workflow-run';
import { fromStoredRun, secondsText } from './workflow-state';
import s from './workflow.module.css';

type AppState = { status: 'loading' } | { status: 'ready'; app: PortalAppDetail } | { status: 'lost' } | { status: 'error' };

export default function WorkflowPage() {
  const { t } = useTranslation('portal');
  const { appId = '' } = useParams();
  const api = usePortalApi();
  const [state, setState] = useState<AppState>({ status: 'loading' });
  const [runs, setRuns] = useState<WebRun[] | null>(null);
  const [historyNonce, setHistoryNonce] = useState(0);
  const reloadHistory = useCallback(() => setHistoryNonce((n) => n + 1), []);
  const { run, setRun, start, stop, stopping, running } = useWorkflowRun(api, appId, { onDone: reloadHistory, onAccessLost: () => setState({ status: 'lost' }) });

  useEffect(() => {
    const ctrl = new AbortController();
    api.getApp(appId, { signal: ctrl.signal }).then(
      (app) => setState({ status: 'ready', app }),
      (e: unknown) => {
        if (isAccessLost(e)) setState({ status: 'lost' });
        else if (!settleLoadError(e)) setState({ status: 'error' });
      },
    );
    return () => ctrl.abort();
  }, [api, appId]);

  useEffect(() => {
    const ctrl = new AbortController();
    api.listRuns(appId, { page: 1, page_size: 20 }, { signal: ctrl.signal }).then(
      (p) => setRuns(p.list),
      (e: unknown) => {
        if (!settleLoadError(e)) setRuns([]);
      },
    );
    return () => ctrl.abort();
  }, [api, appId, historyNonce]);

  /** A past run opens in the panel at once, then with its steps (the list may leave them out). */
  const openRun = (r: WebRun) => {
    setRun(fromStoredRun(r));
    api.getRun(appId, r.id).then(
      (full) => setRun((v) => (v.runId === full.id ? fromStoredRun(full) : v)),
      (e: unknown) => void settleLoadError(e),
    );
  };

  const app = state.status === 'ready' ? state.app : null;
  const schema = useMemo(() => inputSchemaOf(app?.inputs ?? []), [app]);

  if (state.status === 'lost') return <LostAccess />;
  if (state.status === 'error') return <EmptyState className={s.center} title={t('chat.loadFailed')} />;
  if (!app)
    return (
      <div className={s.center} aria-busy="true">
        <Spinner size={20} />
      </div>
    );

  const submit = (values: Record<string, unknown>) => {
    // The run streams in the panel: the form is not kept "saving" meanwhile.
    void start({ inputs: toRunInputs(app.inputs, values) });
  };

  return (
    <Page data-testid="portal-workflow">
      <PageHeader leading={<AppIcon value={app.icon} size={36} />} title={app.name} description={app.description} actions={<PortalModeBadge mode={app.mode} />} />
      <div className={s.layout}>
        <Card className={s.panel}>
          <h2 className={s.panelTitle}>{t('workflow.form')}</h2>
          {app.inputs.length === 0 && <p className={s.muted}>{t('workflow.noInputs')}</p>}
          <SchemaForm
            schema={schema}
            upload={api.upload}
            disabled={running}
            submitLabel={
              <>
                <Play aria-hidden="true" /> {running ? t('workflow.running') : t('workflow.run')}
              </>
            }
            onSubmit={(v) => submit(v as Record<string, unknown>)}
            actions={
              running ? (
                <Button icon={<Square aria-hidden="true" />} loading={stopping} onClick={stop} data-testid="workflow-stop">
                  {t('workflow.stop')}
                </Button>
              ) : undefined
            }
          />
        </Card>
        <Card className={s.panel} data-testid="workflow-run-panel">
          <h2 className={s.panelTitle}>{t('workflow.progress')}</h2>
          {run.status === 'idle' ? <p className={s.muted}>{t('workflow.noResult')}</p> : <RunSteps steps={run.steps} />}
          {(run.status === 'succeeded' || run.status === 'failed' || run.status === 'stopped') && (
            <>
              <h2 className={s.panelTitle}>
                {t('workflow.result')}
                {run.elapsed_ms > 0 && <span className={s.elapsed}>{t('workflow.elapsed', { seconds: secondsText(run.elapsed_ms) })}</span>}
              </h2>
              <RunResult run={run} />
            </>
          )}
        </Card>
      </div>
      <section className={s.historySection} aria-labelledby="workflow-history-title">
        <h2 id="workflow-history-title" className={s.panelTitle}>
          {t('workflow.history')}
        </h2>
        <RunHistory runs={runs} activeId={run.runId} onOpen={(r) => !running && openRun(r)} />
      </section>
    </Page>
  );
}
