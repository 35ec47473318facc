import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/reactions';
import { ApiError } from '../../api/request';
import { Button } from '../../ui/button';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import { rules, tv, vmsg } from './validation';
import s from './forms.module.css';

export interface PasswordChange {
  old_password: string;
  new_password: string;
  confirm_password: string;
}

/** The password policy of schemas/auth.ts NewPassword: 8-128 characters with a letter and a digit. */
export function checkNewPassword(v: string): true | string {
  if (v.length < 8 || v.length > 128 || !/[A-Za-z]/.test(v) || !/[0-9]/.test(v)) return vmsg('auth:validation.passwordPolicy');
  return true;
}

export interface PasswordFormProps {
  /** Sends the change; a rejection (ApiError) is shown in the form. */
  onSubmit(body: PasswordChange): Promise<unknown>;
  /** Called after a successful change. */
  onDone?(): void;
  onCancel?(): void;
  /** Render inside a dialog (footer layout) or inline (a page section). */
  variant?: 'dialog' | 'inline';
}

/** Old password, new password, confirmation; validation messages of spec 5. */
export function PasswordForm({ onSubmit, onDone, onCancel, variant = 'inline' }: PasswordFormProps) {
  const { t } = useTranslation(['auth', 'common', 'errors', 'pages', 'shell']);
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<PasswordChange>({ defaultValues: { old_password: '', new_password: '', confirm_password: '' } });

  const submit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      await onSubmit(body);
      onDone?.();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'AUTH-1005') {
        setError('old_password', { message: vmsg('errors:codes.AUTH-1005') });
        return;
      }
      setServerError(describeError(e, 'silent')?.text ?? t('errors:ops.operationFailed'));
    }
  });

  const fields = (
    <div className={s.stack}>
      <Field label={t('password.old')} required error={tv(errors.old_password?.message)}>
        <Input type="password" autoComplete="current-password" {...register('old_password', { required: rules.required })} data-testid="old-password" />
      </Field>
      <Field label={t('password.new')} required help={t('password.policy')} error={tv(errors.new_password?.message)}>
        <Input type="password" autoComplete="new-password" {...register('new_password', { required: rules.required, validate: checkNewPassword })} data-testid="new-password" />
      </Field>
      <Field label={t('password.confirm')} required error={tv(errors.confirm_password?.message)}>
        <Input
          type="password"
          autoComplete="new-password"
          {...register('confirm_password', {
            required: rules.required,
            validate: (v) => v === getValues('new_password') || vmsg('auth:validation.passwordMismatch'),
          })}
          data-testid="confirm-password"
        />
      </Field>
      {serverError && (
        <p role="alert" className={s.formError}>
          {serverError}
        </p>
      )}
    </div>
  );

  if (variant === 'dialog') {
    return (
      <form onSubmit={submit} noValidate>
        <DialogBody>{fields}</DialogBody>
        <DialogFooter>
          <Button onClick={onCancel}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="primary" loading={isSubmitting} data-testid="password-submit">
            {t('password.submit')}
          </Button>
        </DialogFooter>
      </form>
    );
  }
  return (
    <form onSubmit={submit} noValidate className={s.inlineForm}>
      {fields}
      <div className={s.formActions}>
        <Button type="submit" variant="primary" loading={isSubmitting} data-testid="password-submit">
          {t('password.submit')}
        </Button>
      </div>
    </form>
  );
}

export interface ChangePasswordDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  onSubmit(body: PasswordChange): Promise<unknown>;
  onDone?(): void;
}

/** The user menu's "Change password" dialog. */
export function ChangePasswordDialog({ open, onOpenChange, onSubmit, onDone }: ChangePasswordDialogProps) {
  const { t } = useTranslation(['auth', 'common', 'errors', 'pages', 'shell']);
  // A fresh form every time the dialog opens.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (open) setGeneration((g) => g + 1);
  }, [open]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="sm" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('password.title')}</DialogTitle>
          <DialogDescription>{t('password.description')}</DialogDescription>
        </DialogHeader>
        <PasswordForm
          key={generation}
          variant="dialog"
          onSubmit={onSubmit}
          onCancel={() => onOpenChange(false)}
          onDone={() => {
            onOpenChange(false);
            onDone?.();
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
