/**
 * /operation/workspace/:workspace_id/database: the outside databases of a project space (spec 2, 3,
 * 9). Every member sees the list with each database's detection status (the last check's message on
 * hover) and may check one again; owner and admin add, edit (password only through its endpoint)
 * and delete. While a database is 'detecting' the list refreshes until the check ends. Data comes
 * through {@link DatabaseApiContext}.
 */
import { Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Database, DATABASE_TYPES, type DatabaseType } from '../../../../schemas/database';
import type { MemberRole } from '../../../../schemas/workspace';
import { SchemaTable, usePagedList, type RowAction } from '../../../kit/schema-table';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button } from '../../../ui/button';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toast';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { DatabaseDialog } from './database-dialog';
import { useDatabaseApi } from './database-api';
import s from './databases-page.module.css';

/** How often the list looks again while a check runs in the background. */
export const DETECTING_POLL_MS = 2000;

const overrides = { type: { optionLabels: 'database.types' } } as const;

export interface DatabasesPageProps {
  /** Default: the route's `:workspace_id`. */
  workspaceId?: string;
  pollMs?: number;
}

export default function DatabasesPage({ workspaceId: given, pollMs = DETECTING_POLL_MS }: DatabasesPageProps) {
  const { t } = useTranslation(['database', 'common']);
  const api = useDatabaseApi();
  const params = useParams();
  const workspaceId = given ?? params.workspace_id ?? '';
  const [role, setRole] = useState<MemberRole | null>(null);
  const [target, setTarget] = useState<Database | 'new' | null>(null);
  const list = usePagedList((q) => api.list(workspaceId, q), { name: '', type: '' as DatabaseType | '' }, [api, workspaceId], reportError);

  useEffect(() => {
    api.getWorkspace(workspaceId).then((w) => setRole(w.role_type), reportError);
  }, [api, workspaceId]);

  const detecting = list.rows?.some((r) => r.status === 'detecting') ?? false;
  const { reload } = list;
  useEffect(() => {
    if (!detecting || list.status !== 'ready') return;
    const timer = setTimeout(reload, pollMs);
    return () => clearTimeout(timer);
  }, [detecting, list.status, list.rows, reload, pollMs]);

  const canChange = role === 'owner' || role === 'admin';

  const actions = useMemo<RowAction<Database>[]>(() => {
    const recheck: RowAction<Database> = {
      id: 'recheck',
      label: t('actions.recheck'),
      icon: <RefreshCw aria-hidden="true" />,
      run: async (row) => {
        try {
          const next = await api.recheck(workspaceId, row.id);
          list.replaceRow((r) => r.id === row.id, next);
          // The toast tells the check's outcome: a failed check is not "finished" good news.
          if (next.status === 'failed') toast.error(t('check.failed'), next.status_code ? { description: t(`check.codes.${next.status_code}`) } : undefined);
          else toast.success(t('done.rechecked'));
        } catch (e) {
          reportError(e);
        }
      },
    };
    if (!canChange) return [recheck];
    return [
      recheck,
      { id: 'edit', label: t('actions.edit'), icon: <Pencil aria-hidden="true" />, run: (row) => setTarget(row) },
      {
        id: 'delete',
        label: t('actions.delete'),
        icon: <Trash2 aria-hidden="true" />,
        danger: true,
        confirm: (row) => ({ title: t('confirmDelete.title'), description: t('confirmDelete.description', { name: row.name }) }),
        run: async (row) => {
          try {
            await api.remove(workspaceId, row.id);
          } catch (e) {
            reportError(e);
            throw e;
          }
          toast.success(t('done.deleted'));
          list.reload();
        },
      },
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canChange, api, workspaceId, t]);

  const filtered = list.filters.name !== '' || list.filters.type !== '';
  // The status tooltip: the failure's cause in the user's language, once (status_message is the
  // server's English sentence; only the catch-all code of older checks needs its words).
  const rows = useMemo(
    () =>
      list.rows?.map((r) =>
        r.status === 'failed' && r.status_code
          ? { ...r, status_message: r.status_code === 'error' ? [t('check.codes.error'), r.status_message].filter(Boolean).join(' · ') : t(`check.codes.${r.status_code}`) }
          : r,
      ) ?? null,
    [list.rows, t],
  );

  return (
    <Page data-testid="databases-page">
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          canChange && (
            <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setTarget('new')} data-testid="database-add">
              {t('actions.add')}
            </Button>
          )
        }
      />
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.name} onChange={(name) => list.setFilters({ name })} placeholder={t('search')} aria-label={t('search')} />
        <Select
          size="sm"
          className={s.typeFilter}
          value={list.filters.type || 'all'}
          aria-label={t('filterType')}
          onValueChange={(v) => list.setFilters({ type: v === 'all' ? '' : (v as DatabaseType) })}
          options={[{ value: 'all', label: t('allTypes') }, ...DATABASE_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))]}
        />
      </div>
      <SchemaTable
        schema={Database}
        ns="database"
        overrides={overrides}
        rows={list.status === 'error' ? [] : rows}
        error={list.status === 'error'}
        onRetry={list.reload}
        busy={list.status === 'loading' && list.rows !== null && !detecting}
        total={list.total}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        emptyText={filtered ? t('noMatch') : t('empty')}
        actions={actions}
        rowProps={(row) => ({ 'data-testid': `database-row-${row.id}` })}
      />
      {canChange && (
        <DatabaseDialog
          workspaceId={workspaceId}
          target={target}
          onClose={() => setTarget(null)}
          onSaved={() => {
            setTarget(null);
            list.reload();
          }}
        />
      )}
    </Page>
  );
}
