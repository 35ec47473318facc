/**
 * /operation/workspace/:workspace_id/knowledge: the knowledge bases of a project space (spec 2, 3):
 * cards with name, description, included files, size and creator; search by name and paging; create
 * and edit in a dialog (name checked against the space's other bases); delete after confirming.
 * Opening a base goes to its units. Data comes through {@link KnowledgeApiContext}.
 */
import { BookOpen, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Dataset } from '../../../api/datasets-contract';
import { usePagedList } from '../../../kit/schema-table';
import { formatBytes } from '../../../kit/widgets/upload-rules';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button, Card, ConfirmDialog, EmptyState, Pagination, Skeleton, toast } from '../../../ui';
import { Page, PageHeader, PagePager } from '../../shell/page';
import { reportError } from '../members/report-error';
import { KnowledgeDialog } from './knowledge-dialog';
import { useKnowledgeApi } from './knowledge-api';
import { knowledgePaths } from './knowledge-nav';
import { usePaginationLabels } from '../../system/users/admin-kit';
import s from './knowledge.module.css';

export interface KnowledgePageProps {
  /** Default: the route's `:workspace_id`. */
  workspaceId?: string;
}

export default function KnowledgePage({ workspaceId: given }: KnowledgePageProps) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const params = useParams();
  const workspaceId = given ?? params.workspace_id ?? '';
  const list = usePagedList((q) => api.listDatasets(workspaceId, q), { keyword: '' }, [api, workspaceId], reportError);
  const [editing, setEditing] = useState<Dataset | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Dataset | null>(null);
  const pagerLabels = usePaginationLabels();

  const rows = list.status === 'error' ? [] : list.rows;
  const filtered = list.filters.keyword !== '';
  const showPager = list.status !== 'error' && list.total > 0;

  let body;
  if (list.status === 'error') {
    body = <EmptyState title={t('list.loadFailed')} action={<Button size="sm" onClick={list.reload}>{t('common:actions.retry')}</Button>} />;
  } else if (rows === null) {
    body = (
      <ul className={s.grid} aria-busy="true">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i}>
            <Card className={s.card}>
              <Skeleton width={160} height={14} />
              <Skeleton width="90%" height={12} />
            </Card>
          </li>
        ))}
      </ul>
    );
  } else if (rows.length === 0) {
    body = filtered ? (
      <EmptyState title={t('list.noMatch')} data-testid="kb-empty" />
    ) : (
      <EmptyState
        title={t('list.empty')}
        description={t('list.emptyHint')}
        data-testid="kb-empty"
        action={
          <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setEditing('new')}>
            {t('list.create')}
          </Button>
        }
      />
    );
  } else {
    body = (
      <ul className={s.grid} aria-busy={list.status === 'loading' || undefined} data-testid="kb-grid">
        {rows.map((d) => (
          <li key={d.id}>
            <Card interactive className={s.card} data-testid="kb-card" data-id={d.id}>
              <div className={s.cardTop}>
                <span className={s.kbIcon} aria-hidden="true">
                  <BookOpen size={20} />
                </span>
                <div className={s.cardHeading}>
                  <Link to={knowledgePaths.units(workspaceId, d.id)} className={s.cardLink} data-testid="kb-open">
                    {d.name}
                  </Link>
                  <span className={s.muted}>{t('list.creator', { name: d.created_by_name || '—' })}</span>
                </div>
                <span className={s.cardActions}>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('list.edit', { name: d.name })} onClick={() => setEditing(d)}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('list.delete', { name: d.name })} onClick={() => setDeleting(d)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </span>
              </div>
              <p className={s.cardDescription}>{d.description || t('list.noDescription')}</p>
              <div className={s.cardMeta}>
                <span>{t('list.files', { count: d.document_count })}</span>
                <span>{t('list.size', { size: formatBytes(d.size) })}</span>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Page className={showPager ? s.withPager : undefined} data-testid="knowledge-page">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setEditing('new')} data-testid="kb-create">
            {t('list.create')}
          </Button>
        }
      />
      <div className={s.toolbar}>
        <SearchInput
          size="sm"
          className={s.search}
          value={list.filters.keyword}
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          onChange={(v) => list.setFilters({ keyword: v.trim().slice(0, 64) })}
        />
      </div>
      {body}
      {showPager && (
        <PagePager>
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} labels={pagerLabels} />
        </PagePager>
      )}
      <KnowledgeDialog
        workspaceId={workspaceId}
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          list.reload();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        danger
        title={t('list.confirmDelete.title')}
        description={t('list.confirmDelete.description', { name: deleting?.name ?? '' })}
        confirmLabel={t('common:actions.delete')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={async () => {
          try {
            await api.deleteDataset(workspaceId, deleting!.id);
            toast.success(t('list.deleted'));
          } catch (e) {
            reportError(e);
            throw e;
          } finally {
            list.reload();
          }
        }}
      />
    </Page>
  );
}
