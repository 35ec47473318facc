/**
 * The sessions page's popups about one conversation (spec 2): session settings (rename, pin),
 * character settings (./character-dialog.tsx) and moving it into or out of a group. Each
 * saves through `onSave` (PUT /web/conversations/{id}); a failed save keeps the popup open (the
 * request layer shows the message).
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CONVERSATION_NAME_MAX, type ConversationGroup, type WebConversation, type WebConversationUpdateBody } from '../../../../schemas/portal';
import { SelectInput } from '../../../kit/widgets/select-input';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Switch } from '../../../ui/switch';
import s from './sessions.module.css';

export interface SaveDialogProps {
  /** The conversation the popup is about; null: closed. */
  conversation: WebConversation | null;
  onClose: () => void;
  onSave: (conversation: WebConversation, body: WebConversationUpdateBody) => Promise<unknown>;
}

/** A popup with a form: its title, fields, cancel and save (busy while saving; closes when saved). */
export function FormDialog({
  open,
  title,
  description,
  testId,
  onClose,
  onSubmit,
  canSave = true,
  children,
}: {
  open: boolean;
  title: string;
  description?: string;
  testId: string;
  onClose: () => void;
  onSubmit: () => Promise<unknown>;
  canSave?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation(['portal', 'common']);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSave || busy) return;
    setBusy(true);
    try {
      await onSubmit();
      onClose();
    } catch {
      // The request layer showed why; the popup stays for another try.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="sm" data-testid={testId} closeLabel={t('common:actions.close')} {...(description ? {} : { 'aria-describedby': undefined })}>
        <form onSubmit={(e) => void submit(e)} className={s.dialogForm}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description && <DialogDescription>{description}</DialogDescription>}
          </DialogHeader>
          <DialogBody className={s.dialogBody}>{children}</DialogBody>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button">{t('common:actions.cancel')}</Button>
            </DialogClose>
            <Button type="submit" variant="primary" loading={busy} disabled={!canSave}>
              {t('common:actions.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Session settings: the conversation's name and whether it is pinned. */
export function SessionSettingsDialog({ conversation, onClose, onSave }: SaveDialogProps) {
  const { t } = useTranslation('portal');
  const [name, setName] = useState('');
  const [pinned, setPinned] = useState(false);
  useEffect(() => {
    setName(conversation?.name ?? '');
    setPinned(conversation?.pinned ?? false);
  }, [conversation]);
  const trimmed = name.trim();
  return (
    <FormDialog
      open={conversation !== null}
      title={t('settings.title')}
      testId="session-settings-dialog"
      onClose={onClose}
      canSave={trimmed.length > 0 && trimmed.length <= CONVERSATION_NAME_MAX}
      onSubmit={() => onSave(conversation!, { name: trimmed, pinned })}
    >
      <Field label={t('settings.name')} required>
        <Input value={name} maxLength={CONVERSATION_NAME_MAX} onChange={(e) => setName(e.target.value)} autoFocus />
      </Field>
      <label className={s.switchRow}>
        <Switch checked={pinned} onCheckedChange={setPinned} />
        {t('settings.pinned')}
      </label>
    </FormDialog>
  );
}

/** Moving a conversation into one of the user's groups, or out of any. */
export function MoveToGroupDialog({ conversation, groups, onClose, onSave }: SaveDialogProps & { groups: readonly ConversationGroup[] }) {
  const { t } = useTranslation('portal');
  const NONE = '__none__';
  const [group, setGroup] = useState(NONE);
  useEffect(() => setGroup(conversation?.group_id ?? NONE), [conversation]);
  return (
    <FormDialog
      open={conversation !== null}
      title={t('groups.move.title')}
      description={t('groups.move.description', { name: conversation?.name ?? '' })}
      testId="move-group-dialog"
      onClose={onClose}
      onSubmit={() => onSave(conversation!, { group_id: group === NONE ? null : group })}
    >
      <Field label={t('groups.move.group')}>
        <SelectInput value={group} onChange={(v) => setGroup(v ?? NONE)} options={[{ value: NONE, label: t('groups.none') }, ...groups.map((g) => ({ value: g.id, label: g.name }))]} />
      </Field>
    </FormDialog>
  );
}
