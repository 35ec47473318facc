/**
 * The personal center's usage records (spec 7.6 "GET usage-records", 9 "page size 10"): the user's
 * uses of apps, newest first: app, source, question, status, tokens, time, in the kit's table.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UsageRecord } from '../../../../schemas/portal';
import { USAGE_PAGE_SIZE } from '../../../../schemas/portal';
import type { ColumnMeta, UiMeta } from '../../../../schemas/ui';
import { SchemaTable } from '../../../kit/schema-table';
import { settleLoadError } from '../load-error';
import { usePortalApi } from '../portal-api';

const SHOWN = ['app_name', 'source', 'query', 'status', 'usage', 'created_at'] as const;

/** The contract's schema carries no UI metadata: the labels and widgets of this table. */
const OVERRIDES: Record<string, UiMeta> = {
  app_name: { label: 'portal:usage.app' },
  source: { label: 'portal:usage.source', widget: 'status', optionLabels: 'portal:usage.sources', tones: { portal: 'primary', api: 'info', draft: 'neutral', tool: 'warning' } },
  query: { label: 'portal:usage.question' },
  status: { label: 'portal:usage.status', widget: 'status', optionLabels: 'portal:usage.statuses', tones: { running: 'info', succeeded: 'success', failed: 'danger', stopped: 'neutral' } },
  usage: { label: 'portal:usage.tokens' },
  created_at: { label: 'portal:usage.time', widget: 'datetime' },
};
const COLUMNS: Record<string, ColumnMeta> = {
  app_name: { width: 160 },
  source: { width: 110 },
  query: { minWidth: 200 },
  status: { width: 100 },
  usage: { width: 110, align: 'right' },
  created_at: { width: 160 },
};

export function UsageRecords() {
  const { t } = useTranslation('portal');
  const api = usePortalApi();
  const [page, setPage] = useState(1);
  const [nonce, setNonce] = useState(0);
  const [data, setData] = useState<{ rows: UsageRecord[] | null; total: number; error: boolean }>({ rows: null, total: 0, error: false });
  useEffect(() => {
    const ctrl = new AbortController();
    api.listUsage({ page, page_size: USAGE_PAGE_SIZE }, { signal: ctrl.signal }).then(
      (p) => setData({ rows: p.list, total: p.total, error: false }),
      (e: unknown) => {
        if (!settleLoadError(e)) setData((d) => ({ ...d, error: true }));
      },
    );
    return () => ctrl.abort();
  }, [api, page, nonce]);
  return (
    <SchemaTable<UsageRecord>
      schema={UsageRecord}
      ns="portal"
      rows={data.rows}
      include={SHOWN}
      overrides={OVERRIDES}
      columns={COLUMNS}
      rowKey={(r) => r.id}
      cells={{
        query: ({ row }) => (row.query ? <span title={row.query}>{row.query.length > 80 ? `${row.query.slice(0, 80)}…` : row.query}</span> : '—'),
        usage: ({ row }) => row.usage.totalTokens.toLocaleString(),
      }}
      total={data.total}
      page={page}
      pageSize={USAGE_PAGE_SIZE}
      onPageChange={setPage}
      emptyText={t('usage.empty')}
      error={data.error}
      onRetry={() => setNonce((n) => n + 1)}
      data-testid="usage-records"
    />
  );
}
