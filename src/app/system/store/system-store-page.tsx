/**
 * /operation/system/store: the store manager's list (issue 23). Submissions of every state — awaiting
 * release first by default — filtered by state, type and keyword, with the tenant (a super admin sees
 * every tenant's; a tenant admin their own, as the server decides). A row opens the item to review.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STORE_TYPES, StoreReviewState, type AdminStoreListQuery } from '../../../../schemas/store';
import { listAdminStore } from '../../../api/store';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Badge, EmptyState, Pagination, Select, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui';
import { Page, PageHeader } from '../../shell/page';
import { KindBadge } from '../../store/store-card';
import { REVIEW_TONE } from '../../store/store-kinds';
import { formatDateTime, LoadFailed, PAGE_STYLE, PAGE_SIZE, PAGE_SIZES, useLoad, usePaginationLabels } from '../users/admin-kit';
import s from '../../store/store.module.css';
import { seededName } from '../../../i18n/seeded';

type Query = { page: number; page_size: number; keyword: string; state: string; type: string };

export default function SystemStorePage() {
  const { t } = useTranslation('store');
  const labels = usePaginationLabels();
  const [q, setQ] = useState<Query>({ page: 1, page_size: PAGE_SIZE, keyword: '', state: 'awaiting_release', type: 'all' });
  const list = useLoad(
    (signal) => {
      const query: Partial<AdminStoreListQuery> = { page: q.page, page_size: q.page_size, keyword: q.keyword || undefined };
      if (q.state !== 'all') query.state = q.state as AdminStoreListQuery['state'];
      if (q.type !== 'all') query.type = q.type as AdminStoreListQuery['type'];
      return listAdminStore(query, { signal });
    },
    [q],
  );
  const data = list.data;
  return (
    <Page style={PAGE_STYLE} data-testid="system-store">
      <PageHeader title={t('system.title')} description={t('system.description')} />
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={q.keyword} placeholder={t('system.search')} aria-label={t('system.search')} onChange={(v) => setQ((x) => ({ ...x, keyword: v.trim().slice(0, 64), page: 1 }))} />
        <Select
          size="sm"
          className={s.filter}
          value={q.state}
          aria-label={t('system.state')}
          onValueChange={(state) => setQ((x) => ({ ...x, state, page: 1 }))}
          options={[{ value: 'all', label: t('system.allStates') }, ...StoreReviewState.options.map((v) => ({ value: v, label: t(`review.${v}`) }))]}
        />
        <Select
          size="sm"
          className={s.filter}
          value={q.type}
          aria-label={t('system.type')}
          onValueChange={(type) => setQ((x) => ({ ...x, type, page: 1 }))}
          options={[{ value: 'all', label: t('system.allTypes') }, ...STORE_TYPES.filter((v) => v !== 'plugin').map((v) => ({ value: v, label: t(`typeNames.${v}`) }))]}
        />
      </div>
      {list.status === 'error' ? (
        <LoadFailed onRetry={list.reload} />
      ) : data && data.items.length === 0 ? (
        <EmptyState className={s.emptyBox} title={t('system.empty')} data-testid="system-store-empty" />
      ) : (
        <Table aria-busy={list.status === 'loading' || undefined}>
          <TableHeader>
            <TableRow>
              <TableHead>{t('system.columns.name')}</TableHead>
              <TableHead>{t('system.columns.type')}</TableHead>
              <TableHead>{t('system.columns.state')}</TableHead>
              <TableHead>{t('system.columns.tenant')}</TableHead>
              <TableHead>{t('system.columns.space')}</TableHead>
              <TableHead>{t('system.columns.publisher')}</TableHead>
              <TableHead>{t('system.columns.publishedAt')}</TableHead>
              <TableHead>{t('system.columns.copies')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(data?.items ?? []).map((item) => (
              <TableRow key={item.id} data-testid="system-store-row" data-item-id={item.id}>
                <TableCell>
                  <Link to={`/operation/system/store/${item.type}/${item.id}`} data-testid="system-store-open">
                    {item.name}
                  </Link>
                </TableCell>
                <TableCell>
                  <span className={s.inline}>
                    {t(`typeNames.${item.type}`)} <KindBadge item={item} />
                  </span>
                </TableCell>
                <TableCell>
                  <Badge variant={REVIEW_TONE[item.review_state]}>{t(`review.${item.review_state}`)}</Badge>
                </TableCell>
                <TableCell>{seededName(item.tenant_name)}</TableCell>
                <TableCell>{seededName(item.source_workspace_name)}</TableCell>
                <TableCell>{item.published_by_name}</TableCell>
                <TableCell>{formatDateTime(item.published_at)}</TableCell>
                <TableCell>{item.copy_count}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {data && data.total > 0 && (
        <Pagination
          page={q.page}
          pageSize={q.page_size}
          total={data.total}
          pageSizes={PAGE_SIZES}
          onPageChange={(page) => setQ((x) => ({ ...x, page }))}
          onPageSizeChange={(page_size) => setQ((x) => ({ ...x, page_size, page: 1 }))}
          labels={labels}
        />
      )}
    </Page>
  );
}
