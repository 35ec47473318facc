/**
 * The log's detail sheets: a run with its full trace, and a conversation with its messages, each
 * message opening on its run's trace (loaded when opened).
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentNodeRegistry, loadNodeRegistry } from '../../../canvas/node-registry-loader';
import { registerPluginTexts } from '../../../canvas/editor/plugin-texts';
import { tDynamic } from '../../../i18n';
import type { NodeRegistry } from '../../../plugin-sdk';
import type { ConversationMessage, RunDetail } from '../../../../schemas/run-api';
import { formatDateTime } from '../../../kit/schema-table';
import { RunStatusBadge, traceFromStored, TraceTitleContext, TraceView } from '../../../canvas/debug';
import { Button, Dialog, DialogBody, DialogContent, DialogHeader, DialogTitle, EmptyState, Spinner } from '../../../ui';
import { useLogApi } from './log-api';
import s from './log-page.module.css';

/**
 * Gives the traces below the kinds' titles for untitled nodes (as the canvas shows them).
 * @example <KindTitles><TraceView trace={t} /></KindTitles>
 */
export function KindTitles({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  // The built-ins' at once, then with the installed plugins' kinds (a trace of a plugin's node
  // titles it as the editor does).
  const [kinds, setKinds] = useState<NodeRegistry>(() => {
    const now = currentNodeRegistry();
    registerPluginTexts(i18n, now);
    return now;
  });
  useEffect(() => {
    let live = true;
    void loadNodeRegistry().then((nodes) => {
      if (!live) return;
      registerPluginTexts(i18n, nodes);
      setKinds(nodes);
    });
    return () => {
      live = false;
    };
  }, [i18n]);
  const titleOf = useCallback(
    (kind: string) => {
      const plugin = kinds.get(kind);
      return plugin ? tDynamic(`${plugin.ns}:${plugin.titleKey}`) : undefined;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the language changes the titles
    [kinds, i18n.language],
  );
  return <TraceTitleContext value={titleOf}>{children}</TraceTitleContext>;
}

type Load<T> = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; value: T };

/** Loads once per key; `retry` loads again. */
function useLoad<T>(load: (() => Promise<T>) | null, key: string | null): [Load<T>, () => void] {
  const [state, setState] = useState<Load<T>>({ state: 'loading' });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!load) return;
    let live = true;
    setState({ state: 'loading' });
    load().then(
      (value) => live && setState({ state: 'ready', value }),
      () => live && setState({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, nonce]);
  return [state, () => setNonce((n) => n + 1)];
}

function Loading<T>({ load, retry, children }: { load: Load<T>; retry: () => void; children: (value: T) => ReactNode }) {
  const { t } = useTranslation('runlog');
  if (load.state === 'loading') return <Spinner label={t('detail.loading')} />;
  if (load.state === 'failed') return <EmptyState title={t('detail.failed')} action={<Button onClick={retry}>{t('detail.retry')}</Button>} />;
  return <>{children(load.value)}</>;
}

/**
 * Inputs or outputs on one line, `name: value` joined by commas (strings as they are, the rest as
 * JSON); '' when there are none.
 * @example valuesLine({ topic: 'tea', pages: 2 }) // 'topic: tea, pages: 2'
 */
export function valuesLine(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

const hasValues = (v: Record<string, unknown>) => Object.keys(v).length > 0;

function RunBody({ detail }: { detail: RunDetail }) {
  const { t } = useTranslation('runlog');
  const { run } = detail;
  return (
    <div className={s.detail}>
      <dl className={s.facts} data-testid="run-facts">
        <dt>{t('run.createdAt')}</dt>
        <dd>{formatDateTime(run.created_at)}</dd>
        <dt>{t('run.id')}</dt>
        <dd className={s.mono}>{run.id}</dd>
        <dt>{t('run.source')}</dt>
        <dd>
          {t(`source.${run.source}`)} · {run.version ?? (run.source === 'draft' || run.source === 'single-node' ? t('draft') : '—')}
        </dd>
        {hasValues(run.inputs) && (
          <>
            <dt>{t('run.inputs')}</dt>
            <dd>
              <pre className={s.json} data-testid="run-detail-inputs">
                {JSON.stringify(run.inputs, null, 2)}
              </pre>
            </dd>
          </>
        )}
        {hasValues(run.outputs) && (
          <>
            <dt>{t('run.outputs')}</dt>
            <dd>
              <pre className={s.json} data-testid="run-detail-outputs">
                {JSON.stringify(run.outputs, null, 2)}
              </pre>
            </dd>
          </>
        )}
        {run.query && (
          <>
            <dt>{t('run.query')}</dt>
            <dd className={s.pre}>{run.query}</dd>
          </>
        )}
        {run.answer && (
          <>
            <dt>{t('run.answer')}</dt>
            <dd className={s.pre}>{run.answer}</dd>
          </>
        )}
      </dl>
      <TraceView trace={traceFromStored(detail)} />
    </div>
  );
}

export function RunSheet({ appId, workspaceId, runId, onClose }: { appId: string; workspaceId: string; runId: string | null; onClose: () => void }) {
  const { t } = useTranslation('runlog');
  const api = useLogApi();
  const [load, retry] = useLoad(runId ? () => api.getRun(appId, workspaceId, runId) : null, runId);
  return (
    <Dialog open={!!runId} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="xl" className={s.sheet} data-testid="run-sheet" aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>{t('detail.runTitle')}</DialogTitle>
        </DialogHeader>
        <DialogBody className={s.sheetBody}>{runId && <Loading load={load} retry={retry}>{(d) => <RunBody detail={d} />}</Loading>}</DialogBody>
      </DialogContent>
    </Dialog>
  );
}

/** One message; its trace loads when opened. */
function Message({ appId, workspaceId, message }: { appId: string; workspaceId: string; message: ConversationMessage }) {
  const { t } = useTranslation(['runlog', 'debug']);
  const api = useLogApi();
  const [open, setOpen] = useState(false);
  const runId = message.runId;
  const [load, retry] = useLoad(open && runId ? () => api.getRun(appId, workspaceId, runId) : null, open ? runId : null);
  return (
    <li className={s.message} data-testid="log-message">
      <div className={s.question}>{message.query}</div>
      <div className={s.answer}>
        <p className={s.pre}>{message.answer || t('debug:chat.noAnswer')}</p>
        {message.error && <p className={s.error}>{message.error.message}</p>}
        <div className={s.messageMeta}>
          <RunStatusBadge status={message.status} />
          <span>{formatDateTime(message.created_at)}</span>
        </div>
        {runId && (
          <details className={s.messageTrace} onToggle={(e) => setOpen(e.currentTarget.open)}>
            <summary>{t('debug:trace.show')}</summary>
            {open && <Loading load={load} retry={retry}>{(d) => <TraceView trace={traceFromStored(d)} />}</Loading>}
          </details>
        )}
      </div>
    </li>
  );
}

export function ConversationSheet({ appId, workspaceId, conversationId, onClose }: { appId: string; workspaceId: string; conversationId: string | null; onClose: () => void }) {
  const { t } = useTranslation('runlog');
  const api = useLogApi();
  const [load, retry] = useLoad(conversationId ? () => api.listMessages(appId, workspaceId, conversationId) : null, conversationId);
  return (
    <Dialog open={!!conversationId} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="xl" className={s.sheet} data-testid="conversation-sheet" aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>{t('detail.conversationTitle')}</DialogTitle>
        </DialogHeader>
        <DialogBody className={s.sheetBody}>
          {conversationId && (
            <Loading load={load} retry={retry}>
              {(messages) =>
                messages.length ? (
                  <ol className={s.messages}>
                    {messages.map((m) => (
                      <Message key={m.id} appId={appId} workspaceId={workspaceId} message={m} />
                    ))}
                  </ol>
                ) : (
                  <EmptyState title={t('detail.noMessages')} />
                )
              }
            </Loading>
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
