/**
 * Group management (spec 2 popup): the user's own groups of conversations: add, rename, delete
 * (after a confirmation; the conversations stay, out of the group). Names are unique per user and at
 * most 50 characters; the server refuses a taken name (VALIDATION-1001) and the message shows.
 */
import { Check, Folder, Pencil, Plus, Trash2, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GROUP_NAME_MAX, GROUPS_MAX, type ConversationGroup } from '../../../../schemas/portal';
import { Button } from '../../../ui/button';
import { confirm } from '../../../ui/confirm-dialog';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Input } from '../../../ui/input';
import s from './sessions.module.css';

export interface GroupManagerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  groups: readonly ConversationGroup[];
  onCreate: (name: string) => Promise<unknown>;
  onRename: (group: ConversationGroup, name: string) => Promise<unknown>;
  onDelete: (group: ConversationGroup) => Promise<unknown>;
}

function GroupRow({ group, onRename, onDelete }: { group: ConversationGroup; onRename: GroupManagerDialogProps['onRename']; onDelete: GroupManagerDialogProps['onDelete'] }) {
  const { t } = useTranslation(['portal', 'common']);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const name = editing?.trim() ?? '';
    if (!name || busy) return;
    setBusy(true);
    try {
      await onRename(group, name);
      setEditing(null);
    } catch {
      // The message shows; the field stays for another try.
    } finally {
      setBusy(false);
    }
  };
  if (editing !== null)
    return (
      <li className={s.groupRow}>
        <form className={s.groupEdit} onSubmit={(e) => void save(e)}>
          <Input size="sm" value={editing} maxLength={GROUP_NAME_MAX} onChange={(e) => setEditing(e.target.value)} aria-label={t('groups.name')} autoFocus />
          <Button type="submit" size="sm" variant="primary" iconOnly aria-label={t('groups.rename')} loading={busy} disabled={!editing.trim()}>
            <Check aria-hidden="true" />
          </Button>
          <Button type="button" size="sm" variant="ghost" iconOnly aria-label={t('common:actions.cancel')} onClick={() => setEditing(null)}>
            <X aria-hidden="true" />
          </Button>
        </form>
      </li>
    );
  return (
    <li className={s.groupRow} data-testid="group-row">
      <Folder aria-hidden="true" className={s.groupIcon} />
      <span className={s.groupName}>{group.name}</span>
      <span className={s.groupCount}>{t('groups.count', { count: group.conversation_count })}</span>
      <Button size="sm" variant="ghost" iconOnly aria-label={`${t('groups.rename')} ${group.name}`} onClick={() => setEditing(group.name)}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        size="sm"
        variant="ghost"
        iconOnly
        aria-label={`${t('groups.delete')} ${group.name}`}
        onClick={async () => {
          if (await confirm({ title: t('groups.deleteTitle', { name: group.name }), description: t('groups.deleteDescription'), danger: true, confirmLabel: t('groups.delete') })) {
            await onDelete(group).catch(() => {});
          }
        }}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </li>
  );
}

export function GroupManagerDialog({ open, onOpenChange, groups, onCreate, onRename, onDelete }: GroupManagerDialogProps) {
  const { t } = useTranslation(['portal', 'common']);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const full = groups.length >= GROUPS_MAX;
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || busy || full) return;
    setBusy(true);
    try {
      await onCreate(trimmed);
      setName('');
    } catch {
      // The message shows; the name stays.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="sm" data-testid="group-manager-dialog" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('groups.title')}</DialogTitle>
          <DialogDescription>{t('groups.description')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={s.dialogBody}>
          <form className={s.groupAdd} onSubmit={(e) => void add(e)}>
            <Input
              value={name}
              maxLength={GROUP_NAME_MAX}
              placeholder={t('groups.namePlaceholder')}
              aria-label={t('groups.name')}
              disabled={full}
              onChange={(e) => setName(e.target.value)}
              data-testid="group-name"
            />
            <Button type="submit" variant="primary" icon={<Plus aria-hidden="true" />} loading={busy} disabled={!name.trim() || full}>
              {t('groups.add')}
            </Button>
          </form>
          {full && <p className={s.hint}>{t('groups.limit', { count: GROUPS_MAX })}</p>}
          {groups.length === 0 ? (
            <p className={s.hint}>{t('groups.empty')}</p>
          ) : (
            <ul className={s.groupList}>
              {groups.map((g) => (
                <GroupRow key={g.id} group={g} onRename={onRename} onDelete={onDelete} />
              ))}
            </ul>
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
