/**
 * /operation/workspace/:workspace_id/knowledge-unit?dataset_id=…: the units (documents) of one knowledge
 * base (spec 2, 3, 4): name, file type, status with progress (uploading, waiting, in queue with its
 * position, segmenting/vectorising, done, failed), segmentation method, segment / Q&A / hit counts,
 * upload time, the enable switch and the graph state with its "graph analysis" action (once vector
 * analysis succeeded); stop a running task, cancel a queued one, delete. The list refreshes by itself
 * while any unit is moving. Buttons add text files, table files or a URL.
 */
import { FileSpreadsheet, FileText, Globe, Network, RefreshCw, ScrollText, Square, Trash2, XCircle } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Dataset, DatasetDocument } from '../../../api/datasets-contract';
import { usePagedList } from '../../../kit/schema-table';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { SearchInput } from '../../../kit/widgets/search-input';
import { StatusBadge } from '../../../kit/widgets/status-badge';
import { formatBytes } from '../../../kit/widgets/upload-rules';
import { Button, ConfirmDialog, EmptyState, Pagination, Switch, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, toast, Tooltip } from '../../../ui';
import { Page, PageHeader, PagePager } from '../../shell/page';
import { usePaginationLabels } from '../../system/users/admin-kit';
import { PublishToStore } from '../../store/publish-to-store';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import { knowledgePaths, useKnowledgeQuery } from './knowledge-nav';
import { NoDataset } from './no-dataset';
import { ProgressBar } from './progress-bar';
import { TaskLogDialog } from './task-log-dialog';
import { anyInProgress, graphView, POLL_MS, unitView } from './unit-status';
import s from './knowledge.module.css';
import { useDatasetCrumb } from './dataset-crumb';
import { missingText } from '../../../api/reactions';
import { isApiError } from '../../../api/request';

type Pending = { kind: 'delete' | 'stop' | 'cancel'; doc: DatasetDocument } | null;

export default function KnowledgeUnitPage(props: { workspaceId?: string }) {
  const { datasetId } = useKnowledgeQuery();
  return datasetId ? <UnitList {...props} /> : <NoDataset workspaceId={props.workspaceId} />;
}

/** A queued or running graph analysis, with its place in the queue while queued (asked again on each list refresh). */
function GraphQueueBadge({ workspaceId, datasetId, doc }: { workspaceId: string; datasetId: string; doc: DatasetDocument }) {
  const { t } = useTranslation('knowledge');
  const api = useKnowledgeApi();
  const [position, setPosition] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    api.graphQueuePosition(workspaceId, datasetId, doc.id).then((p) => live && setPosition(p), reportError);
    return () => {
      live = false;
    };
  }, [api, workspaceId, datasetId, doc]);
  // The server says `analysing` from the toggle on, queued or running: the queue place tells which.
  if (!position && doc.graph_status === 'analysing') return <StatusBadge value="analysing" label={t('graph.analysing')} tones={{ analysing: 'info' }} />;
  return <StatusBadge value="queued" label={position ? t('graph.queuedAt', { position }) : t('graph.queued')} tones={{ queued: 'warning' }} />;
}

function UnitList({ workspaceId: given }: { workspaceId?: string }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const params = useParams();
  const workspaceId = given ?? params.workspace_id ?? '';
  const { datasetId } = useKnowledgeQuery();
  const [dataset, setDataset] = useState<Dataset | null>(null);
  useDatasetCrumb(workspaceId, datasetId, dataset?.name ?? '');
  const [pending, setPending] = useState<Pending>(null);
  const [busyRow, setBusyRow] = useState<string | null>(null);
  const [logsOf, setLogsOf] = useState<DatasetDocument | null>(null);
  /** The knowledge base is missing (or foreign): said once, by its own load, instead of "load failed, retry". */
  const [missing, setMissing] = useState<string | null>(null);
  // A missing knowledge base fails the list too; its load tells the user (one toast), the list does not.
  const listError = useCallback((e: unknown) => {
    if (!(isApiError(e) && missingText(e.data))) reportError(e);
  }, []);
  const list = usePagedList((q) => api.listDocuments(workspaceId, datasetId, q), { keyword: '' }, [api, workspaceId, datasetId], listError);
  const pagerLabels = usePaginationLabels();

  useEffect(() => {
    setMissing(null);
    api.getDataset(workspaceId, datasetId).then(setDataset, (e: unknown) => {
      const text = isApiError(e) ? missingText(e.data) : undefined;
      if (text) setMissing(text);
      reportError(e, 'page');
    });
  }, [api, workspaceId, datasetId]);

  // Refresh while anything moves (uploading, queued, segmenting, graph analysing).
  const moving = list.rows !== null && anyInProgress(list.rows);
  useEffect(() => {
    if (!moving) return;
    const timer = setTimeout(list.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [moving, list.rows, list.reload]);

  const act = async (doc: DatasetDocument, run: () => Promise<unknown>, done: string) => {
    setBusyRow(doc.id);
    try {
      await run();
      toast.success(done);
    } catch (e) {
      reportError(e);
      throw e;
    } finally {
      setBusyRow(null);
      list.reload();
    }
  };

  const rows = list.status === 'error' ? [] : (list.rows ?? []);
  const filtered = list.filters.keyword !== '';
  const addButtons = (
    <>
      {dataset && <PublishToStore workspaceId={workspaceId} type="dataset" sourceId={datasetId} name={dataset.name} description={dataset.description ?? ''} />}
      <Button asChild>
        <Link to={knowledgePaths.add(workspaceId, datasetId, 'url')} data-testid="unit-add-url">
          <Globe aria-hidden="true" />
          {t('units.addUrl')}
        </Link>
      </Button>
      <Button asChild>
        <Link to={knowledgePaths.addTable(workspaceId, datasetId)} data-testid="unit-add-table">
          <FileSpreadsheet aria-hidden="true" />
          {t('units.addTable')}
        </Link>
      </Button>
      <Button variant="primary" asChild>
        <Link to={knowledgePaths.add(workspaceId, datasetId)} data-testid="unit-add-text">
          <FileText aria-hidden="true" />
          {t('units.addText')}
        </Link>
      </Button>
    </>
  );

  const confirmText = pending
    ? { delete: t('units.confirm.delete', { name: pending.doc.name }), stop: t('units.confirm.stop', { name: pending.doc.name }), cancel: t('units.confirm.cancel', { name: pending.doc.name }) }[pending.kind]
    : '';

  return (
    <Page className={list.total > 0 ? s.withPager : undefined} data-testid="knowledge-unit-page">
      <PageHeader title={dataset?.name ?? t('units.title')} description={dataset?.description || t('units.description')} actions={missing ? undefined : addButtons} />
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.keyword} placeholder={t('units.search')} aria-label={t('units.search')} onChange={(v) => list.setFilters({ keyword: v.trim().slice(0, 64) })} />
        <span className={s.spacer} />
        {moving && <span className={s.muted}>{t('units.autoRefresh')}</span>}
      </div>
      {missing ? (
        <EmptyState
          title={missing}
          action={
            <Button size="sm" asChild>
              <Link to={knowledgePaths.list(workspaceId)}>{t('list.title')}</Link>
            </Button>
          }
        />
      ) : list.status === 'error' ? (
        <EmptyState title={t('units.loadFailed')} action={<Button size="sm" onClick={list.reload}>{t('common:actions.retry')}</Button>} />
      ) : list.rows !== null && rows.length === 0 ? (
        <EmptyState title={filtered ? t('units.noMatch') : t('units.empty')} description={filtered ? undefined : t('units.emptyHint')} data-testid="unit-empty" />
      ) : (
        <Table aria-busy={list.status === 'loading' || undefined} data-testid="unit-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('units.col.name')}</TableHead>
              <TableHead>{t('units.col.type')}</TableHead>
              <TableHead>{t('units.col.status')}</TableHead>
              <TableHead>{t('units.col.method')}</TableHead>
              <TableHead>{t('units.col.counts')}</TableHead>
              <TableHead>{t('units.col.uploadedAt')}</TableHead>
              <TableHead>{t('units.col.enabled')}</TableHead>
              <TableHead>{t('units.col.graph')}</TableHead>
              <TableHead>{t('units.col.actions')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((doc) => {
              const v = unitView(doc);
              const g = graphView(doc);
              const busy = busyRow === doc.id;
              return (
                <TableRow key={doc.id} data-testid="unit-row" data-status={doc.status} data-name={doc.name}>
                  <TableCell>
                    {v.ready ? (
                      <Link to={knowledgePaths.details(workspaceId, datasetId, doc.id)} data-testid="unit-open">
                        {doc.name}
                      </Link>
                    ) : (
                      doc.name
                    )}
                    <div className={s.muted}>
                      {doc.source_url ? `${doc.source_url} · ${t(`frequency.${doc.update_frequency}` as 'frequency.none')}` : formatBytes(doc.size)}
                    </div>
                  </TableCell>
                  <TableCell>{doc.file_type.toUpperCase()}</TableCell>
                  <TableCell>
                    <Tooltip content={doc.error || undefined}>
                      <span>
                        <ProgressBar percent={v.percent} tone={v.tone} label={t(v.labelKey as 'status.waiting', v.labelParams)} data-testid="unit-status" />
                      </span>
                    </Tooltip>
                  </TableCell>
                  <TableCell>{t(`method.${doc.segment_mode}` as 'method.general')}</TableCell>
                  <TableCell className={s.muted}>{t('units.counts', { segments: doc.segment_count, qa: doc.qa_count, hits: doc.hit_count })}</TableCell>
                  <TableCell className={s.muted}>{formatDateTime(doc.created_at)}</TableCell>
                  <TableCell>
                    <Switch
                      checked={doc.enabled}
                      disabled={busy || !v.ready}
                      aria-label={t('units.enable', { name: doc.name })}
                      onCheckedChange={(on) => void act(doc, () => api.toggleEnable(workspaceId, datasetId, doc.id, on), on ? t('units.enabled') : t('units.disabled')).catch(() => {})}
                    />
                  </TableCell>
                  <TableCell>
                    <span className={s.inline}>
                      {doc.graph_status === 'queued' || doc.graph_status === 'analysing' ? (
                        <GraphQueueBadge workspaceId={workspaceId} datasetId={datasetId} doc={doc} />
                      ) : (
                        <StatusBadge value={doc.graph_status} label={t(g.labelKey as 'graph.disabled')} tones={{ [doc.graph_status ?? '']: g.tone }} />
                      )}
                      {g.canAnalyse && (
                        <Tooltip content={t('units.graphAnalyse', { name: doc.name })}>
                          <Button
                            size="sm"
                            variant="ghost"
                            iconOnly
                            disabled={busy}
                            aria-label={t('units.graphAnalyse', { name: doc.name })}
                            onClick={() => void act(doc, () => api.toggleGraph(workspaceId, datasetId, doc.id, true), t('units.graphStarted')).catch(() => {})}
                          >
                            <Network aria-hidden="true" />
                          </Button>
                        </Tooltip>
                      )}
                    </span>
                    {doc.graph_status === 'failed' && doc.graph_error && (
                      // Why the analysis failed, on the unit itself (not only in the task log).
                      <div className={s.errorText} data-testid="unit-graph-error" title={doc.graph_error}>
                        {t('units.graphFailedReason', { reason: doc.graph_error })}
                      </div>
                    )}
                  </TableCell>
                  <TableCell>
                    <span className={s.inline}>
                      {doc.source_url && !v.inProgress && (
                        <Tooltip content={t('units.refreshNow', { name: doc.name })}>
                          <Button
                            size="sm"
                            variant="ghost"
                            iconOnly
                            disabled={busy}
                            aria-label={t('units.refreshNow', { name: doc.name })}
                            data-testid="unit-refresh"
                            onClick={() => void act(doc, () => api.refreshNow(workspaceId, datasetId, doc.id), t('units.refreshStarted')).catch(() => {})}
                          >
                            <RefreshCw aria-hidden="true" />
                          </Button>
                        </Tooltip>
                      )}
                      {v.canStop && (
                        <Tooltip content={t('units.stop', { name: doc.name })}>
                          <Button size="sm" variant="ghost" iconOnly disabled={busy} aria-label={t('units.stop', { name: doc.name })} onClick={() => setPending({ kind: 'stop', doc })}>
                            <Square aria-hidden="true" />
                          </Button>
                        </Tooltip>
                      )}
                      {v.canCancelQueue && (
                        <Tooltip content={t('units.cancelQueue', { name: doc.name })}>
                          <Button size="sm" variant="ghost" iconOnly disabled={busy} aria-label={t('units.cancelQueue', { name: doc.name })} onClick={() => setPending({ kind: 'cancel', doc })}>
                            <XCircle aria-hidden="true" />
                          </Button>
                        </Tooltip>
                      )}
                      {doc.task_id && (
                        <Tooltip content={t('units.logs', { name: doc.name })}>
                          <Button size="sm" variant="ghost" iconOnly aria-label={t('units.logs', { name: doc.name })} onClick={() => setLogsOf(doc)}>
                            <ScrollText aria-hidden="true" />
                          </Button>
                        </Tooltip>
                      )}
                      <Tooltip content={t('units.delete', { name: doc.name })}>
                        <Button size="sm" variant="ghost" iconOnly disabled={busy} aria-label={t('units.delete', { name: doc.name })} onClick={() => setPending({ kind: 'delete', doc })}>
                          <Trash2 aria-hidden="true" />
                        </Button>
                      </Tooltip>
                    </span>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      {list.total > 0 && list.status !== 'error' && (
        <PagePager>
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} labels={pagerLabels} />
        </PagePager>
      )}
      <TaskLogDialog workspaceId={workspaceId} datasetId={datasetId} doc={logsOf} onClose={() => setLogsOf(null)} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(o) => !o && setPending(null)}
        danger={pending?.kind === 'delete'}
        title={pending ? t(`units.confirm.${pending.kind}Title`) : ''}
        description={confirmText}
        confirmLabel={t('common:actions.confirm')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={() => {
          const p = pending!;
          if (p.kind === 'delete') return act(p.doc, () => api.deleteDocument(workspaceId, datasetId, p.doc.id), t('units.deleted'));
          if (p.kind === 'stop') return act(p.doc, () => api.stopTask(workspaceId, datasetId, p.doc), t('units.stopped'));
          return act(p.doc, () => api.cancelQueue(workspaceId, datasetId, p.doc), t('units.cancelled'));
        }}
      />
    </Page>
  );
}
