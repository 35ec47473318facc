/**
 * /portal/gbi/table-display?source=…&table=…: a source's tables with their business names and
 * descriptions, the chosen table's described columns, and its first rows (GET
 * /console/gbi/sources/{id}/tables/{table_id}/rows) in the ask page's virtualised result table.
 * Without parameters the first source and its first table are shown; the pickers change them.
 */
import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { GbiSource, GbiSourceDetail, GbiTableRows } from '../../../../schemas/gbi';
import { getGbiSource, getGbiTableRows, listGbiSources } from '../../../api/gbi';
import { SelectInput } from '../../../kit/widgets/select-input';
import { buttonClass } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { Page, PageHeader } from '../../shell/page';
import { settleLoadError } from '../load-error';
import { portalPaths } from '../paths';
import { ColumnsTable } from './columns-table';
import { ResultTable } from './result-table';
import { SpacePicker, useGbiSpace } from './use-gbi-space';
import s from './gbi.module.css';

/** Rows a user may choose to see (the server takes 1 to 1000). */
const LIMITS = [100, 500, 1000];

export default function GbiTableDisplayPage() {
  const { t } = useTranslation(['portal', 'pages']);
  const space = useGbiSpace();
  const ws = space.workspaceId;
  const [params, setParams] = useSearchParams();
  const [sources, setSources] = useState<GbiSource[] | null>(null);
  const [detail, setDetail] = useState<GbiSourceDetail | null>(null);
  const [rows, setRows] = useState<GbiTableRows | null>(null);
  const [loadingRows, setLoadingRows] = useState(false);
  const [limit, setLimit] = useState(LIMITS[0]);

  const sourceId = params.get('source') ?? sources?.[0]?.id ?? null;
  const tableId = params.get('table') ?? (detail?.id === sourceId ? detail?.tables[0]?.id : undefined) ?? null;
  const table = detail?.tables.find((x) => x.id === tableId) ?? null;
  const choose = (source: string, tb?: string) => setParams(tb ? { source, table: tb } : { source }, { replace: true });

  useEffect(() => {
    if (!ws) return;
    listGbiSources({ workspaceId: ws, reaction: 'silent' }).then(setSources, settleLoadError);
  }, [ws]);

  useEffect(() => {
    if (!ws || !sourceId) return setDetail(null);
    const ctrl = new AbortController();
    getGbiSource(sourceId, { workspaceId: ws, signal: ctrl.signal }).then(setDetail, settleLoadError);
    return () => ctrl.abort();
  }, [ws, sourceId]);

  useEffect(() => {
    setRows(null);
    if (!ws || !sourceId || !table) return;
    const ctrl = new AbortController();
    setLoadingRows(true);
    getGbiTableRows(sourceId, table.id, limit, { workspaceId: ws, signal: ctrl.signal })
      .then(setRows, () => {})
      .finally(() => !ctrl.signal.aborted && setLoadingRows(false));
    return () => ctrl.abort();
  }, [ws, sourceId, table, limit]);

  if (space.spaces && !ws) return <EmptyState title={t('gbi.noWorkspace')} />;
  return (
    <Page>
      <PageHeader
        title={t('pages:portal.gbiTable')}
        actions={
          <Link to={`${portalPaths.gbiAsk}/ask`} className={buttonClass({ size: 'sm' })}>
            <ArrowLeft aria-hidden="true" size={14} />
            {t('gbi.backToAsk')}
          </Link>
        }
      />
      {/* The pickers sit in the page (not the header) so they wrap at a phone's width. */}
      <div className={s.row} style={{ marginBottom: 12 }}>
        <SpacePicker space={space} />
        {sources && sources.length > 0 && (
          <div className={s.picker}>
            <SelectInput aria-label={t('gbi.source')} size="sm" value={sourceId} onChange={(v) => v && choose(v)} options={sources.map((x) => ({ value: x.id, label: x.name }))} />
          </div>
        )}
      </div>
      {sources === null ? (
        <Spinner />
      ) : sources.length === 0 ? (
        <EmptyState title={t('gbi.noSources')} description={t('gbi.noSourcesHint')} />
      ) : !detail || detail.id !== sourceId ? (
        <Spinner />
      ) : (
        <div className={s.display}>
          <nav className={s.tableList} aria-label={t('gbi.tables')}>
            {detail.tables.length === 0 && <span className={s.muted}>{t('gbi.noTables')}</span>}
            {detail.tables.map((tb) => (
              <button key={tb.id} type="button" className={s.tableItem} aria-current={tb.id === table?.id} onClick={() => choose(detail.id, tb.id)} data-testid="gbi-table-item">
                <strong>{tb.business_name || tb.name}</strong>
                {tb.business_name && <span className={s.muted}>{tb.name}</span>}
                {tb.description && <span className={s.muted}>{tb.description}</span>}
              </button>
            ))}
          </nav>
          {table && (
            <section className={s.tableDetail} aria-label={table.business_name || table.name}>
              <div className={s.row}>
                <h2 style={{ margin: 0, fontSize: 18 }}>{table.business_name || table.name}</h2>
                {table.business_name && <span className={s.muted}>{table.name}</span>}
                {table.row_count !== null && <span className={s.muted}>{t('gbi.rows', { count: table.row_count })}</span>}
              </div>
              {table.description && <p style={{ margin: 0 }}>{table.description}</p>}
              <div className={s.scroll}>
                <ColumnsTable columns={table.columns} data-testid="gbi-table-columns" />
              </div>
              <div className={s.row}>
                <strong>{t('gbi.previewRows')}</strong>
                <div style={{ width: 140 }}>
                  <SelectInput aria-label={t('gbi.rowLimit')} size="sm" value={String(limit)} onChange={(v) => v && setLimit(Number(v))} options={LIMITS.map((n) => ({ value: String(n), label: t('gbi.firstRows', { count: n }) }))} />
                </div>
                {loadingRows && <Spinner />}
                {rows?.truncated && <span className={s.muted}>{t('gbi.previewTruncated', { count: rows.limit })}</span>}
              </div>
              {rows && (
                <div data-testid="gbi-table-rows">
                  {rows.rows.length === 0 ? (
                    <span className={s.muted}>{t('gbi.noRows')}</span>
                  ) : (
                    // Headers in the user's words, the column's own name beside them.
                    <ResultTable columns={rows.columns.map((c) => ({ name: c.business_name && c.business_name !== c.name ? `${c.business_name} (${c.name})` : c.name }))} rows={rows.rows} tall={rows.rows.length > 6} />
                  )}
                </div>
              )}
            </section>
          )}
        </div>
      )}
    </Page>
  );
}
