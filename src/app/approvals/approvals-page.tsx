/**
 * /operation/approvals (issue 33): the approvers' "to approve" box, the submitter's "submitted by me"
 * (opening it marks the decisions seen, so the bell forgets them) and, for tenant admins, every
 * approval of the tenant (to force the recall of an agreed item). A row opens the approval with its
 * history and the caller's actions.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ApprovalBox } from '../../../schemas/approval';
import { listApprovals, markApprovalsSeen } from '../../api/approvals';
import { formatDateTime } from '../../kit/schema-table';
import { Badge, Button, EmptyState, Spinner, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, Tabs, TabsList, TabsTrigger } from '../../ui';
import { useSession } from '../session';
import { Page, PageHeader } from '../shell/page';
import { LoadFailed, PAGE_STYLE, useLoad } from '../system/users/admin-kit';
import { ApprovalDialog } from './approval-dialog';
import { approvalsChanged, STATE_TONE } from './approval-kit';
import s from './approvals.module.css';
import { seededName } from '../../i18n/seeded';

export default function ApprovalsPage() {
  const { t } = useTranslation('approval');
  const role = useSession((st) => st.user?.role);
  const boxes: ApprovalBox[] = role === 'tenant_admin' || role === 'super_admin' ? ['todo', 'mine', 'tenant'] : ['todo', 'mine'];
  const [params] = useSearchParams();
  const [box, setBox] = useState<ApprovalBox>(() => (boxes as string[]).find((b) => b === params.get('box')) as ApprovalBox | undefined ?? 'todo');
  const [open, setOpen] = useState<string | null>(null);
  const list = useLoad((signal) => listApprovals({ box, page: 1, page_size: 100 }, { signal }), [box]);
  const close = useCallback(() => setOpen(null), []);

  useEffect(() => {
    if (box !== 'mine') return;
    markApprovalsSeen({ reaction: 'silent' }).then(approvalsChanged, () => {});
  }, [box]);

  return (
    <Page style={PAGE_STYLE} data-testid="approvals-page">
      <PageHeader title={t('title')} description={t('description')} />
      <Tabs value={box} onValueChange={(v) => setBox(v as ApprovalBox)}>
        <TabsList className={s.toolbar}>
          {boxes.map((b) => (
            <TabsTrigger key={b} value={b} data-testid={`approvals-box-${b}`}>
              {t(`boxes.${b}`)}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {list.status === 'error' && !list.data ? (
        <LoadFailed title={t('loadFailed')} onRetry={list.reload} />
      ) : !list.data ? (
        <Spinner />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={t(`empty.${box}`)} data-testid="approvals-empty" />
      ) : (
        <Table data-testid="approvals-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('columns.title')}</TableHead>
              <TableHead>{t('columns.kind')}</TableHead>
              <TableHead>{t('columns.workspace')}</TableHead>
              <TableHead>{t('columns.submitter')}</TableHead>
              <TableHead>{t('columns.submittedAt')}</TableHead>
              <TableHead>{t('columns.state')}</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.data.items.map((a) => (
              <TableRow key={a.id} data-testid="approval-row" data-id={a.id} data-state={a.state}>
                <TableCell>
                  <span className={s.title}>{a.title}</span>
                  {a.version && <span className={s.muted}> · {a.version}</span>}
                  {a.last_comment && <div className={s.muted}>{t('lastComment', { comment: a.last_comment })}</div>}
                </TableCell>
                <TableCell>
                  {t(`kinds.${a.kind}`)} · {t(`itemTypes.${a.item_type}`)}
                </TableCell>
                <TableCell>{seededName(a.workspace_name)}</TableCell>
                <TableCell>{a.submitted_by_name}</TableCell>
                <TableCell>{formatDateTime(a.submitted_at)}</TableCell>
                <TableCell>
                  <Badge variant={STATE_TONE[a.state]} dot>
                    {t(`states.${a.state}`)}
                  </Badge>
                </TableCell>
                <TableCell>
                  <Button size="sm" variant={a.can_decide ? 'primary' : 'secondary'} onClick={() => setOpen(a.id)} data-testid="approval-open">
                    {t('open')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ApprovalDialog id={open} onClose={close} onChanged={list.reload} />
    </Page>
  );
}
