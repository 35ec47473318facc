import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { OrgRenameBody } from '../../../../schemas/org';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { translatedResolver, useErrorText, type FieldRules } from '../users/admin-kit';
import s from '../users/system.module.css';

const rules: FieldRules = { name: { format: 'validation.orgName', max: 64 } };
const resolver = translatedResolver(OrgRenameBody, rules);

export interface OrgNameDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'create' | 'rename';
  /** The parent's path (create) or the organisation's current name (rename). */
  context: string;
  initialName?: string;
  /** Rejects to keep the dialog open (the caller reports the failure). */
  onSubmit: (name: string) => Promise<unknown>;
}

/** Name of a new organisation, or a new name for one (OrgRenameBody: required, at most 64, no '/'). */
export function OrgNameDialog({ open, onOpenChange, mode, context, initialName = '', onSubmit }: OrgNameDialogProps) {
  const { t } = useTranslation(['system', 'common']);
  const errorText = useErrorText(rules);
  const form = useForm<z.input<typeof OrgRenameBody>, unknown, z.output<typeof OrgRenameBody>>({ resolver, defaultValues: { name: initialName } });
  const { register, handleSubmit, reset, formState } = form;

  useEffect(() => {
    if (open) reset({ name: initialName });
  }, [open, initialName, reset]);

  const save = handleSubmit(async (v) => {
    try {
      await onSubmit(v.name);
      onOpenChange(false);
    } catch {
      // reported by the caller; stay open
    }
  });

  return (
    <Dialog open={open} onOpenChange={(o) => !formState.isSubmitting && onOpenChange(o)}>
      <DialogContent size="sm" closeLabel={t('common:actions.close')}>
        <form onSubmit={save} noValidate className={s.dialogForm}>
          <DialogHeader>
            <DialogTitle>{mode === 'create' ? t('orgs.createTitle') : t('orgs.renameTitle')}</DialogTitle>
            <DialogDescription>
              {mode === 'create' ? `${t('orgs.parent')}: ${context}` : context}
            </DialogDescription>
          </DialogHeader>
          <DialogBody>
            <Field label={t('orgs.name')} required error={errorText('name', formState.errors.name)}>
              <Input autoFocus autoComplete="off" maxLength={64} {...register('name')} />
            </Field>
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
      </DialogContent>
    </Dialog>
  );
}
