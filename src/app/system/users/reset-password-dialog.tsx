import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AdminSetPasswordBody, type AdminUser } from '../../../../schemas/user';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { toast } from '../../../ui/toast';
import { reportError, translatedResolver, useErrorText, type FieldRules } from './admin-kit';
import { useSystemApi } from './system-api';
import s from './system.module.css';

export const ResetPasswordForm = AdminSetPasswordBody.extend({ confirm_password: z.string().min(1) }).refine((v) => v.password === v.confirm_password, {
  path: ['confirm_password'],
  message: 'The passwords entered twice are inconsistent',
});
type FormIn = z.input<typeof ResetPasswordForm>;

const rules: FieldRules = {
  password: { format: 'validation.password', max: 128 },
  confirm_password: { format: 'validation.passwordMismatch', max: 128 },
};
const resolver = translatedResolver(ResetPasswordForm, rules);

export interface ResetPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: AdminUser | null;
}

/** Sets another user's password (PUT /admin/users/:id/password); their sessions end at once. */
export function ResetPasswordDialog({ open, onOpenChange, user }: ResetPasswordDialogProps) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="sm" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('users.resetPasswordTitle')}</DialogTitle>
          <DialogDescription>{t('users.resetPasswordDescription', { name: user?.username ?? '' })}</DialogDescription>
        </DialogHeader>
        {user && <ResetForm user={user} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ResetForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const errorText = useErrorText(rules);
  const { register, handleSubmit, formState } = useForm<FormIn, unknown, z.output<typeof ResetPasswordForm>>({
    resolver,
    defaultValues: { password: '', confirm_password: '' },
  });
  const save = handleSubmit(async (v) => {
    try {
      await api.setUserPassword(user.id, { password: v.password });
      toast.success(t('users.passwordReset'));
      onDone();
    } catch (e) {
      reportError(e);
    }
  });
  return (
    <form onSubmit={save} noValidate className={s.dialogForm}>
      <DialogBody>
        <div className={s.formStack}>
          <Field label={t('users.fields.newPassword')} required help={t('users.passwordHelp')} error={errorText('password', formState.errors.password)}>
            <Input type="password" autoComplete="new-password" autoFocus {...register('password')} />
          </Field>
          <Field label={t('users.fields.confirmPassword')} required error={errorText('confirm_password', formState.errors.confirm_password)}>
            <Input type="password" autoComplete="new-password" {...register('confirm_password')} />
          </Field>
        </div>
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button disabled={formState.isSubmitting}>{t('common:actions.cancel')}</Button>
        </DialogClose>
        <Button type="submit" variant="primary" loading={formState.isSubmitting}>
          {t('common:actions.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}
