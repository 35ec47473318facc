/**
 * /operation/system/dataset (spec 2 system area, 7.4 dataset tasks): the knowledge tasks of the
 * tenant (every tenant for a super admin): type (normal vectorisation, graph, FAQ), tenant, project
 * space, knowledge base and unit, status with progress or queue position, and the stop and
 * cancel-queue actions. Filtered by status; refreshes by itself while tasks move. Admins only (spec 6).
 */
import { Square, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TASK_STATUSES, type AdminDatasetTask } from '../../../api/datasets-contract';
import { usePagedList } from '../../../kit/schema-table';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { Badge, Button, ConfirmDialog, EmptyState, Pagination, Select, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, toast } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader, PagePager } from '../../shell/page';
import { LoadFailed, NoPermission, PAGE_STYLE, reportError, usePaginationLabels } from '../users/admin-kit';
import { useKnowledgeApi } from '../../workspace/knowledge/knowledge-api';
import { ProgressBar } from '../../workspace/knowledge/progress-bar';
import { POLL_MS, unitView } from '../../workspace/knowledge/unit-status';
import s from '../../workspace/knowledge/knowledge.module.css';
import { seededName } from '../../../i18n/seeded';

type Pending = { kind: 'stop' | 'cancel'; task: AdminDatasetTask } | null;

export default function DatasetTasksPage() {
  const { t } = useTranslation(['knowledge', 'common']);
  const me = useSession((st) => st.user);
  const allowed = me?.role === 'super_admin' || me?.role === 'tenant_admin';
  return (
    <Page style={PAGE_STYLE} data-testid="dataset-tasks-page">
      <PageHeader title={t('tasks.title')} description={t('tasks.description')} />
      {allowed ? <TaskList /> : <NoPermission />}
    </Page>
  );
}

function TaskList() {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const list = usePagedList((q) => api.listAdminTasks({ ...q, status: q.status === 'all' ? undefined : q.status }), { status: 'all' as string }, [api], reportError);
  const [pending, setPending] = useState<Pending>(null);
  const labels = usePaginationLabels();

  const moving = (list.rows ?? []).some((task) => unitView(task).inProgress);
  useEffect(() => {
    if (!moving) return;
    const timer = setTimeout(list.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [moving, list.rows, list.reload]);

  return (
    <>
      <div className={s.toolbar}>
        <Select
          size="sm"
          className={s.filter}
          value={list.filters.status}
          aria-label={t('tasks.statusFilter')}
          onValueChange={(status) => list.setFilters({ status })}
          options={[{ value: 'all', label: t('tasks.allStatuses') }, ...TASK_STATUSES.map((x) => ({ value: x, label: t(`status.${x}` as 'status.waiting', { position: '', pct: '' }) }))]}
          data-testid="task-status-filter"
        />
      </div>
      {list.status === 'error' ? (
        <LoadFailed onRetry={list.reload} />
      ) : list.rows !== null && list.rows.length === 0 ? (
        <EmptyState title={t('tasks.empty')} />
      ) : (
        <Table data-testid="task-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('tasks.col.type')}</TableHead>
              <TableHead>{t('tasks.col.tenant')}</TableHead>
              <TableHead>{t('tasks.col.workspace')}</TableHead>
              <TableHead>{t('tasks.col.dataset')}</TableHead>
              <TableHead>{t('tasks.col.unit')}</TableHead>
              <TableHead>{t('tasks.col.status')}</TableHead>
              <TableHead>{t('tasks.col.createdAt')}</TableHead>
              <TableHead>{t('units.col.actions')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(list.rows ?? []).map((task) => {
              const v = unitView(task);
              return (
                <TableRow key={task.id} data-testid="task-row" data-status={task.status}>
                  <TableCell>
                    <Badge variant="neutral">{t(`tasks.types.${task.task_type}`)}</Badge>
                  </TableCell>
                  <TableCell>{seededName(task.tenant_name)}</TableCell>
                  <TableCell>{seededName(task.workspace_name)}</TableCell>
                  <TableCell>{task.dataset_name}</TableCell>
                  <TableCell>{task.document_name}</TableCell>
                  <TableCell>
                    <ProgressBar percent={v.percent} tone={v.tone} label={t(v.labelKey as 'status.waiting', v.labelParams)} />
                  </TableCell>
                  <TableCell className={s.muted}>{formatDateTime(task.created_at)}</TableCell>
                  <TableCell>
                    <span className={s.inline}>
                      {v.canStop && (
                        <Button size="sm" variant="ghost" iconOnly aria-label={t('tasks.stop')} onClick={() => setPending({ kind: 'stop', task })}>
                          <Square aria-hidden="true" />
                        </Button>
                      )}
                      {v.canCancelQueue && (
                        <Button size="sm" variant="ghost" iconOnly aria-label={t('tasks.cancelQueue')} onClick={() => setPending({ kind: 'cancel', task })}>
                          <XCircle aria-hidden="true" />
                        </Button>
                      )}
                    </span>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      {list.total > 0 && (
        <PagePager>
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} labels={labels} />
        </PagePager>
      )}
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(o) => !o && setPending(null)}
        title={pending?.kind === 'stop' ? t('units.confirm.stopTitle') : t('units.confirm.cancelTitle')}
        description={pending ? t(pending.kind === 'stop' ? 'units.confirm.stop' : 'units.confirm.cancel', { name: pending.task.document_name }) : ''}
        confirmLabel={t('common:actions.confirm')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={async () => {
          const p = pending!;
          try {
            if (p.kind === 'stop') await api.stopAdminTask(p.task.id);
            else await api.cancelAdminQueue(p.task.id);
            toast.success(p.kind === 'stop' ? t('units.stopped') : t('units.cancelled'));
          } catch (e) {
            reportError(e);
            throw e;
          } finally {
            list.reload();
          }
        }}
      />
    </>
  );
}
