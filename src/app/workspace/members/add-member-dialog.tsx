import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MemberRole } from '../../../../schemas/workspace';
import { PersonOrgPicker } from '../../../kit/person-org-picker/person-org-picker';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toast';
import { ALL_MEMBERS_PAGE, useMemberApi, type AssignableRole } from './member-api';
import { reportError } from './report-error';
import s from './member-page.module.css';

export interface AddMemberDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspaceId: string;
  /** The caller's role: only the owner may add members as admins (spec 6; the server refuses others). */
  myRole: MemberRole | null;
  /** After a successful add (the page reloads its table). */
  onAdded: () => void;
}

/**
 * 'Add member': the person picker (existing members shown checked and disabled) with the role the new
 * members get (admin or ordinary member) in its footer; confirm adds them all (POST members). Only the
 * owner may choose admin: for an admin the choice is shown disabled, with the reason beside it.
 */
export function AddMemberDialog({ open, onOpenChange, workspaceId, myRole, onAdded }: AddMemberDialogProps) {
  const { t } = useTranslation('member');
  const mayGrantAdmin = myRole === 'owner';
  const reasonId = useId();
  const api = useMemberApi();
  const [role, setRole] = useState<AssignableRole>('ordinary_member');
  const [memberIds, setMemberIds] = useState<string[]>([]);

  useEffect(() => {
    if (!open) return;
    setRole('ordinary_member');
    let live = true;
    api.listMembers(workspaceId, { page: 1, page_size: ALL_MEMBERS_PAGE }).then(
      (p) => live && setMemberIds(p.items.map((m) => m.user_id)),
      () => {}, // the table shows its own error; the server refuses duplicates anyway
    );
    return () => {
      live = false;
    };
  }, [open, api, workspaceId]);

  const add = async (ids: string[]) => {
    try {
      const added = await api.addMembers(workspaceId, { user_ids: ids, role });
      toast.success(t('add.done', { count: added.length }));
      onAdded();
    } catch (e) {
      reportError(e);
      throw e; // keeps the picker open
    }
  };

  return (
    <PersonOrgPicker
      open={open}
      onOpenChange={onOpenChange}
      title={t('add.title')}
      selectType="user"
      mode="multiple"
      required
      disabledIds={memberIds}
      dataSource={api.picker}
      confirmLabel={t('add.confirm')}
      onChange={add}
      footer={
        <div className={s.roleChoice} data-testid="add-member-role">
          <span aria-hidden="true">{t('add.role')}</span>
          <Select
            size="sm"
            className={s.roleSelect}
            value={role}
            onValueChange={(v) => setRole(v as AssignableRole)}
            aria-label={t('add.role')}
            aria-describedby={mayGrantAdmin ? undefined : reasonId}
            options={[
              { value: 'ordinary_member', label: t('roles.ordinary_member') },
              mayGrantAdmin
                ? { value: 'admin', label: t('roles.admin') }
                : {
                    value: 'admin',
                    disabled: true,
                    label: (
                      <span className={s.disabledChoice}>
                        {t('roles.admin')}
                        <span className={s.choiceReason}>{t('add.adminOwnerOnly')}</span>
                      </span>
                    ),
                  },
            ]}
          />
          {!mayGrantAdmin && (
            <span id={reasonId} className={s.choiceReason} data-testid="add-member-role-reason">
              {t('add.adminOwnerOnly')}
            </span>
          )}
        </div>
      }
    />
  );
}
