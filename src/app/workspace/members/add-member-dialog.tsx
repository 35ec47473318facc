import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  /** After a successful add (the page reloads its table). */
  onAdded: () => void;
}

/**
 * 'Add member': the person picker (existing members shown checked and disabled) with the role the new
 * members get (admin or ordinary member) in its footer; confirm adds them all (POST members).
 */
export function AddMemberDialog({ open, onOpenChange, workspaceId, onAdded }: AddMemberDialogProps) {
  const { t } = useTranslation('member');
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
            options={[
              { value: 'ordinary_member', label: t('roles.ordinary_member') },
              { value: 'admin', label: t('roles.admin') },
            ]}
          />
        </div>
      }
    />
  );
}
