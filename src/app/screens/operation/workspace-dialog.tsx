import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/reactions';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Field, Input, Textarea } from '../../../ui';
import { rules, tv } from '../../shell/validation';
import { formatWorkspaceIcon, parseWorkspaceIcon } from '../../shell/workspace-icon';
import { IconPicker } from './icon-picker';
import s from './operation.module.css';

export const WORKSPACE_NAME_MAX = 50;
export const WORKSPACE_DESCRIPTION_MAX = 500;

export interface WorkspaceFormValues {
  name: string;
  description: string;
  icon: string;
}

export interface WorkspaceDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** 'create' or 'edit' (then `initial` holds the workspace's values). */
  mode: 'create' | 'edit';
  initial?: Partial<WorkspaceFormValues>;
  /** Saves; a rejection is shown in the dialog and keeps it open. */
  onSubmit(values: WorkspaceFormValues): Promise<unknown>;
}

const DEFAULT_ICON = 'folder:indigo';

/** Create or edit a project space: name (required, at most 50), description, icon. */
export function WorkspaceDialog({ open, onOpenChange, mode, initial, onSubmit }: WorkspaceDialogProps) {
  const { t } = useTranslation(['workspace', 'common', 'errors']);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<WorkspaceFormValues>({ defaultValues: { name: '', description: '', icon: DEFAULT_ICON } });

  useEffect(() => {
    if (!open) return;
    setFailure(null);
    reset({
      name: initial?.name ?? '',
      description: initial?.description ?? '',
      icon: parseWorkspaceIcon(initial?.icon) ? (initial?.icon as string) : DEFAULT_ICON,
    });
  }, [open, initial, reset]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit({ name: values.name.trim(), description: values.description.trim(), icon: values.icon });
      onOpenChange(false);
    } catch (e) {
      setFailure(describeError(e, 'silent')?.text ?? t('errors:ops.saveFailed'));
    }
  });

  const nameLength = watch('name')?.length ?? 0;

  return (
    <Dialog open={open} onOpenChange={(o) => !isSubmitting && onOpenChange(o)}>
      <DialogContent size="md" closeLabel={t('common:actions.close')} data-testid="workspace-dialog">
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>{mode === 'create' ? t('dialog.createTitle') : t('dialog.editTitle')}</DialogTitle>
            <DialogDescription>{t('dialog.description')}</DialogDescription>
          </DialogHeader>
          <DialogBody className={s.dialogBody}>
            <div className={s.nameRow}>
              <Controller
                control={control}
                name="icon"
                render={({ field }) => (
                  <IconPicker
                    value={parseWorkspaceIcon(field.value) ?? { icon: 'folder', color: 'indigo' }}
                    onChange={(v) => field.onChange(formatWorkspaceIcon(v))}
                    name={watch('name') || t('dialog.namePlaceholder')}
                  />
                )}
              />
              <Field label={t('dialog.name')} required error={tv(errors.name?.message)} className={s.grow} controlId="workspace-name">
                <Input
                  placeholder={t('dialog.namePlaceholder')}
                  suffix={
                    <span className={s.counter}>
                      {nameLength}/{WORKSPACE_NAME_MAX}
                    </span>
                  }
                  {...register('name', { validate: rules.notBlank, maxLength: rules.maxLength(WORKSPACE_NAME_MAX) })}
                  data-testid="workspace-name"
                  autoFocus
                />
              </Field>
            </div>
            <Field label={t('dialog.descriptionLabel')} error={tv(errors.description?.message)} controlId="workspace-description">
              <Textarea
                rows={3}
                placeholder={t('dialog.descriptionPlaceholder')}
                {...register('description', { maxLength: rules.maxLength(WORKSPACE_DESCRIPTION_MAX) })}
                data-testid="workspace-description"
              />
            </Field>
            {failure && (
              <p role="alert" className={s.failure}>
                {failure}
              </p>
            )}
          </DialogBody>
          <DialogFooter>
            <Button onClick={() => onOpenChange(false)} disabled={isSubmitting}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" variant="primary" loading={isSubmitting} data-testid="workspace-dialog-submit">
              {mode === 'create' ? t('common:actions.create') : t('common:actions.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
