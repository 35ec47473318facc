/**
 * One approval: what was submitted, by whom and when, its approvers, every step (who, when, comment),
 * and the actions the caller may take (the server's `can_*`): agree, return for changes (a comment is
 * required), reject; the submitter's cancel and recall; an admin's forced recall.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ApprovalDetail } from '../../../schemas/approval';
import { actOnApproval, forceRecall, getApproval, type ApprovalUserAction } from '../../api/approvals';
import { formatDateTime } from '../../kit/schema-table';
import { Badge, Button, Dialog, DialogBody, DialogContent, DialogFooter, DialogHeader, DialogTitle, Field, Spinner, Textarea, toast } from '../../ui';
import { reportError } from '../system/users/admin-kit';
import { approvalsChanged, itemPath, STATE_TONE } from './approval-kit';
import s from './approvals.module.css';
import { seededName } from '../../i18n/seeded';

type Action = ApprovalUserAction | 'force_recall';

export interface ApprovalDialogProps {
  id: string | null;
  onClose(): void;
  /** After an action: the list reloads. */
  onChanged(): void;
}

export function ApprovalDialog({ id, onClose, onChanged }: ApprovalDialogProps) {
  const { t } = useTranslation('approval');
  const [detail, setDetail] = useState<ApprovalDetail | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);

  useEffect(() => {
    setDetail(null);
    setComment('');
    setError(null);
    if (!id) return;
    let live = true;
    getApproval(id).then(
      (d) => live && setDetail(d),
      () => live && onClose(),
    );
    return () => {
      live = false;
    };
  }, [id, onClose]);

  const run = async (action: Action) => {
    if (!detail) return;
    if (action === 'return' && !comment.trim()) {
      setError(t('commentRequired'));
      return;
    }
    setBusy(action);
    try {
      const next = action === 'force_recall' ? await forceRecall(detail.id, comment.trim()) : await actOnApproval(detail.id, action, comment.trim());
      setDetail(next);
      setComment('');
      setError(null);
      toast.success(t('done', { action: t(`actions.${action}`) }));
      approvalsChanged();
      onChanged();
    } catch (e) {
      reportError(e);
      // What is true now (another approver may have decided first).
      getApproval(detail.id).then(setDetail, () => {});
      onChanged();
    } finally {
      setBusy(null);
    }
  };

  const actions: { action: Action; shown: boolean; variant: 'primary' | 'secondary' | 'danger' }[] = detail
    ? [
        { action: 'agree', shown: detail.can_decide, variant: 'primary' },
        { action: 'return', shown: detail.can_decide, variant: 'secondary' },
        { action: 'reject', shown: detail.can_decide, variant: 'danger' },
        { action: 'cancel', shown: detail.can_cancel, variant: 'secondary' },
        { action: 'recall', shown: detail.can_recall, variant: 'secondary' },
        { action: 'force_recall', shown: detail.can_force_recall, variant: 'danger' },
      ]
    : [];
  const shown = actions.filter((a) => a.shown);

  return (
    <Dialog open={id !== null} onOpenChange={(o) => !o && !busy && onClose()}>
      <DialogContent size="lg" closeLabel={t('close')} data-testid="approval-dialog">
        <DialogHeader>
          <DialogTitle>{t('detailTitle', { title: detail?.title ?? '' })}</DialogTitle>
        </DialogHeader>
        <DialogBody>
          {!detail ? (
            <Spinner />
          ) : (
            <div className={s.detail}>
              <dl className={s.facts}>
                <dt>{t('columns.state')}</dt>
                <dd>
                  <Badge variant={STATE_TONE[detail.state]} dot data-testid="approval-state" data-state={detail.state}>
                    {t(`states.${detail.state}`)}
                  </Badge>
                </dd>
                <dt>{t('columns.kind')}</dt>
                <dd>
                  {t(`kinds.${detail.kind}`)} · {t(`itemTypes.${detail.item_type}`)}
                  {detail.version ? ` · ${detail.version}` : ''}
                </dd>
                <dt>{t('columns.workspace')}</dt>
                <dd>{seededName(detail.workspace_name)}</dd>
                <dt>{t('columns.submitter')}</dt>
                <dd>
                  {detail.submitted_by_name} · {formatDateTime(detail.submitted_at)}
                </dd>
                <dt>{t('approvers')}</dt>
                <dd data-testid="approval-approvers">{detail.approvers.map((a) => (a.kind === 'role' ? t('roleTenantAdmin') : a.name || a.id)).join('、')}</dd>
              </dl>
              <Link to={itemPath(detail)} className={s.link} onClick={onClose}>
                {t('openItem')}
              </Link>
              <h3 className={s.subTitle}>{t('history')}</h3>
              <ol className={s.steps} data-testid="approval-steps">
                {detail.steps.map((step) => (
                  <li key={step.id} className={s.step}>
                    <span className={s.stepHead}>
                      {t('step', { name: step.actor_name, action: t(`actions.${step.action}`) })}
                      <Badge variant={STATE_TONE[step.to_state]}>{t(`states.${step.to_state}`)}</Badge>
                    </span>
                    <span className={s.muted}>{formatDateTime(step.created_at)}</span>
                    {step.comment && <span className={s.comment}>{step.comment}</span>}
                  </li>
                ))}
              </ol>
              {shown.length > 0 && (
                <Field label={t('comment')} error={error ?? undefined}>
                  <Textarea value={comment} maxLength={500} placeholder={t('commentPlaceholder')} onChange={(e) => setComment(e.target.value)} data-testid="approval-comment" />
                </Field>
              )}
            </div>
          )}
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" disabled={!!busy} onClick={onClose}>
            {t('close')}
          </Button>
          {shown.map(({ action, variant }) => (
            <Button key={action} variant={variant} loading={busy === action} disabled={!!busy && busy !== action} onClick={() => void run(action)} data-testid={`approval-${action}`}>
              {t(`actions.${action}`)}
            </Button>
          ))}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
