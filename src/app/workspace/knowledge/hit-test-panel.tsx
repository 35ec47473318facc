import { Eye, Search, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HIT_QUERY_MAX, MAX_GRAPH_MIN_RELEVANCE, RETRIEVAL_MODES, type HitResult, type HitTestBody, type RetrievalMode } from '../../../api/datasets-contract';
import { usePagedList } from '../../../kit/schema-table';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { NumberInput } from '../../../kit/widgets/number-input';
import { Badge, Button, ConfirmDialog, EmptyState, Field, Label, Pagination, Select, Switch, Textarea, toast } from '../../../ui';
import { usePaginationLabels } from '../../system/users/admin-kit';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import s from './knowledge.module.css';

/** Spec 9: semantic relevance up to 1, graph relevance up to 0.5. */
export const SCORE_MAX = 1;
export const GRAPH_SCORE_MAX = MAX_GRAPH_MIN_RELEVANCE;
export const TOP_K_MAX = 20;

export const HIT_DEFAULTS: Omit<HitTestBody, 'query'> = { mode: 'hybrid', top_k: 5, score_threshold: 0, rerank: false, graph: false };

/** The results of a hit test: score, text, source unit and segment. */
export function HitResults({ results }: { results: readonly HitResult[] }) {
  const { t } = useTranslation('knowledge');
  if (results.length === 0) return <EmptyState size="sm" title={t('hit.noResults')} />;
  return (
    <ol className={s.segmentList} data-testid="hit-results">
      {results.map((r, i) => (
        <li key={`${r.segment_id}-${i}`} className={s.segment} data-testid="hit-result">
          <span className={s.segmentHead}>
            <Badge variant="primary" className={s.score}>
              {r.score.toFixed(3)}
            </Badge>
            {/* Segments count from 1; a matched Q&A pair comes back at position 0. */}
            <span>{r.position > 0 ? t('hit.source', { name: r.document_name, n: r.position }) : t('hit.sourceQa', { name: r.document_name })}</span>
            {r.source !== 'vector' && <Badge variant="neutral">{t(`hit.via.${r.source}` as 'hit.via.full_text')}</Badge>}
          </span>
          <p className={s.segmentText}>{r.content}</p>
        </li>
      ))}
    </ol>
  );
}

/** Hit test of a knowledge base: the query form, its results, and the history of earlier tests. */
export function HitTestPanel({ workspaceId, datasetId, onTested }: { workspaceId: string; datasetId: string; /** A test ran (hit counts changed). */ onTested?: () => void }) {
  const { t } = useTranslation(['knowledge', 'common', 'kit']);
  const api = useKnowledgeApi();
  const [query, setQuery] = useState('');
  const [opts, setOpts] = useState(HIT_DEFAULTS);
  const [queryError, setQueryError] = useState<string | null>(null);
  /** With the graph on: the neighbours' minimum relevance for this test, the base's stored one until changed. */
  const [graphMin, setGraphMin] = useState<number | undefined>(undefined);
  const [graphMinError, setGraphMinError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<HitResult[] | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const history = usePagedList((q) => api.listHitHistory(workspaceId, datasetId, q), {}, [api, workspaceId, datasetId], reportError);
  const labels = usePaginationLabels();
  useEffect(() => {
    let live = true;
    api.getDataset(workspaceId, datasetId).then(
      (d) => live && setGraphMin((cur) => cur ?? d.graph_min_relevance),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, workspaceId, datasetId]);

  const run = async () => {
    const text = query.trim();
    if (!text) return setQueryError(t('kit:validation.required'));
    if (text.length > HIT_QUERY_MAX) return setQueryError(t('kit:validation.maxLength', { max: HIT_QUERY_MAX }));
    const graphOwn = opts.graph && graphMin !== undefined;
    if (graphOwn && (graphMin < 0 || graphMin > GRAPH_SCORE_MAX)) return setGraphMinError(t('hit.minScoreHelp', { max: GRAPH_SCORE_MAX }));
    setRunning(true);
    try {
      const body = { ...opts, score_threshold: Math.max(0, Math.min(opts.score_threshold ?? 0, SCORE_MAX)), query: text, ...(graphOwn ? { graph_min_relevance: graphMin } : {}) };
      const r = await api.hitTest(workspaceId, datasetId, body);
      setResults(r.results);
      history.reload();
      onTested?.();
    } catch (e) {
      reportError(e);
    } finally {
      setRunning(false);
    }
  };

  const show = async (id: string) => {
    try {
      const r = await api.getHitHistory(workspaceId, datasetId, id);
      setQuery(r.query);
      setOpts({ mode: r.mode, top_k: r.top_k, score_threshold: r.score_threshold, rerank: r.rerank, graph: r.graph });
      setResults(r.results);
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <div className={s.columns} data-testid="hit-test-panel">
      <div className={s.stack}>
        <section className={s.panel}>
          <Field label={t('hit.query')} required error={queryError} help={`${query.length}/${HIT_QUERY_MAX}`}>
            <Textarea
              rows={4}
              value={query}
              placeholder={t('hit.queryPlaceholder')}
              data-testid="hit-query"
              onChange={(e) => {
                setQuery(e.target.value);
                setQueryError(null);
              }}
            />
          </Field>
          <div className={s.formRow}>
            <Field label={t('hit.mode')}>
              <Select value={opts.mode} onValueChange={(m) => setOpts((o) => ({ ...o, mode: m as RetrievalMode }))} options={RETRIEVAL_MODES.map((m) => ({ value: m, label: t(`hit.modes.${m}`) }))} data-testid="hit-mode" />
            </Field>
            <Field label={t('hit.topK')}>
              <NumberInput value={opts.top_k} min={1} max={TOP_K_MAX} integer onChange={(v) => setOpts((o) => ({ ...o, top_k: v ?? 1 }))} />
            </Field>
            <Field label={t('hit.minScore')} help={t('hit.minScoreHelp', { max: SCORE_MAX })}>
              <NumberInput value={opts.score_threshold} min={0} max={SCORE_MAX} onChange={(v) => setOpts((o) => ({ ...o, score_threshold: v ?? 0 }))} />
            </Field>
            {opts.graph && (
              <Field label={t('hit.graphMinRelevance')} error={graphMinError} help={t('hit.minScoreHelp', { max: GRAPH_SCORE_MAX })}>
                <NumberInput
                  value={graphMin}
                  min={0}
                  max={GRAPH_SCORE_MAX}
                  onChange={(v) => {
                    setGraphMin(v ?? undefined);
                    setGraphMinError(null);
                  }}
                />
              </Field>
            )}
          </div>
          <Label className={s.inline}>
            <Switch size="sm" checked={opts.rerank} onCheckedChange={(c) => setOpts((o) => ({ ...o, rerank: c }))} />
            {t('hit.rerank')}
          </Label>
          <Label className={s.inline}>
            <Switch size="sm" checked={opts.graph} onCheckedChange={(c) => setOpts((o) => ({ ...o, graph: c }))} />
            {t('hit.graph')}
          </Label>
          <Button variant="primary" icon={<Search aria-hidden="true" />} loading={running} onClick={() => void run()} data-testid="hit-run">
            {t('hit.run')}
          </Button>
        </section>
        <section className={s.panel} aria-label={t('hit.history')}>
          <h3 className={s.panelTitle}>{t('hit.history')}</h3>
          {history.rows !== null && history.rows.length === 0 ? (
            <p className={s.muted}>{t('hit.noHistory')}</p>
          ) : (
            <ul className={s.segmentList} data-testid="hit-history">
              {(history.rows ?? []).map((h) => (
                <li key={h.id} className={s.segment}>
                  <span className={s.segmentHead}>
                    <span>{formatDateTime(h.created_at)}</span>
                    <Badge variant="neutral">{t(`hit.modes.${h.mode}`)}</Badge>
                    <span>{t('hit.resultCount', { count: h.result_count })}</span>
                    <span className={s.spacer} />
                    <Button size="sm" variant="ghost" iconOnly aria-label={t('hit.showHistory')} onClick={() => void show(h.id)}>
                      <Eye aria-hidden="true" />
                    </Button>
                    <Button size="sm" variant="ghost" iconOnly aria-label={t('hit.deleteHistory')} onClick={() => setDeleting(h.id)}>
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </span>
                  <p className={s.segmentText}>{h.query}</p>
                </li>
              ))}
            </ul>
          )}
          {history.total > history.pageSize && (
            <Pagination page={history.page} pageSize={history.pageSize} total={history.total} onPageChange={history.setPage} onPageSizeChange={history.setPageSize} labels={labels} />
          )}
        </section>
      </div>
      <section className={s.panel} aria-label={t('hit.results')}>
        <h3 className={s.panelTitle}>{t('hit.results')}</h3>
        {results === null ? <p className={s.muted}>{t('hit.hint')}</p> : <HitResults results={results} />}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        danger
        title={t('hit.confirmDelete')}
        confirmLabel={t('common:actions.delete')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={async () => {
          try {
            await api.deleteHitHistory(workspaceId, datasetId, deleting!);
            toast.success(t('hit.deleted'));
          } catch (e) {
            reportError(e);
            throw e;
          } finally {
            history.reload();
          }
        }}
      />
    </div>
  );
}
