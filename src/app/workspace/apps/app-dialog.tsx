import { Bot, MessagesSquare, Users, Workflow, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AppIcon as AppIconSchema, type App, type AppIcon, type AppType } from '../../../../schemas/app';
import { describeError } from '../../../api/reactions';
import { isApiError } from '../../../api/request';
import { IconPicker } from '../../../kit/widgets/icon-picker';
import { DEFAULT_ICON } from '../../../kit/widgets/icon-presets';
import { Button, cn, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Field, Input, Textarea } from '../../../ui';
import { rules, tv, vmsg } from '../../shell/validation';
import type { AppFields } from './app-api';
import { APP_DESCRIPTION_MAX, APP_MODES, APP_NAME_MAX, MODE_DEFAULT_ICON } from './app-modes';
import s from './apps-page.module.css';

const MODE_ICONS: Record<AppType, LucideIcon> = { agent: Bot, chatflow: MessagesSquare, workflow: Workflow, agent_team: Users };

interface FormValues {
  name: string;
  description: string;
  type: AppType | '';
  icon: AppIcon;
  digitalHuman: DigitalHumanChoice;
}

/** A new app may start as a digital human (issue 31): the kinds each mode can be. */
type DigitalHumanChoice = 'none' | 'conversation' | 'broadcast';
const DH_CHOICES: Readonly<Record<AppType, readonly DigitalHumanChoice[]>> = {
  agent: ['none', 'conversation'],
  chatflow: ['none', 'conversation'],
  workflow: ['none', 'broadcast'],
  agent_team: ['none'],
};

export interface AppDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Absent: create. Present: edit that app (its type is shown but cannot change). */
  app?: App | null;
  /** Saves (trimmed values); a rejection is shown in the dialog and keeps it open. */
  onSubmit(values: AppFields & { type: AppType; digital_human?: 'conversation' | 'broadcast' }): Promise<unknown>;
  /** Stores an uploaded icon image; without it the picker offers the presets only. */
  uploadIcon?: (file: File) => Promise<{ iconPath: string; iconId?: string }>;
}

const iconOk = (v: AppIcon) => AppIconSchema.safeParse(v).success || vmsg('shell:validation.required');

/**
 * Create or edit an app (spec 3, 5): icon (7 colours, 9 icons or an uploaded image), name (required,
 * at most 50), description (required, at most 500) and type (required; one of the four modes, fixed
 * once created). A name the space already has (VALIDATION-1001) is shown on the name field.
 */
export function AppDialog({ open, onOpenChange, app, onSubmit, uploadIcon }: AppDialogProps) {
  const { t } = useTranslation(['apps', 'common', 'errors', 'digitalHuman']);
  const editing = Boolean(app);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    watch,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({ defaultValues: { name: '', description: '', type: '', icon: DEFAULT_ICON, digitalHuman: 'none' } });

  // Until the user picks an icon, a new app's icon follows its type.
  const iconPicked = useRef(false);

  useEffect(() => {
    if (!open) return;
    iconPicked.current = false;
    setFailure(null);
    reset({ name: app?.name ?? '', description: app?.description ?? '', type: app?.type ?? '', icon: app?.icon ?? { ...DEFAULT_ICON }, digitalHuman: 'none' });
  }, [open, app, reset]);

  const submit = handleSubmit(async (v) => {
    setFailure(null);
    try {
      const dh = v.type && DH_CHOICES[v.type].includes(v.digitalHuman) && v.digitalHuman !== 'none' ? v.digitalHuman : undefined;
      await onSubmit({ name: v.name.trim(), description: v.description.trim(), type: v.type as AppType, icon: v.icon, ...(dh ? { digital_human: dh } : {}) });
      onOpenChange(false);
    } catch (e) {
      const text = describeError(e, 'silent')?.text ?? t('dialog.saveFailed');
      if (isApiError(e, 'VALIDATION-1001')) setError('name', { message: text }, { shouldFocus: true });
      else setFailure(text);
    }
  });

  const nameLength = watch('name')?.length ?? 0;
  const type = watch('type');
  const dhChoices = !editing && type ? DH_CHOICES[type] : [];
  const descriptionLength = watch('description')?.length ?? 0;

  return (
    <Dialog open={open} onOpenChange={(o) => !isSubmitting && onOpenChange(o)}>
      <DialogContent size="md" closeLabel={t('common:actions.close')} data-testid="app-dialog">
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>{editing ? t('dialog.editTitle') : t('dialog.createTitle')}</DialogTitle>
            <DialogDescription>{t('dialog.intro')}</DialogDescription>
          </DialogHeader>
          <DialogBody className={s.dialogBody}>
            <div className={s.nameRow}>
              <Controller
                control={control}
                name="icon"
                rules={{ validate: iconOk }}
                render={({ field }) => (
                  <div className={s.iconField}>
                    <IconPicker
                      value={field.value}
                      onChange={(v) => {
                        iconPicked.current = true;
                        field.onChange(v);
                      }} onBlur={field.onBlur} upload={uploadIcon} aria-label={t('dialog.icon')} />
                    {errors.icon && (
                      <span className={s.fieldError} role="alert">
                        {tv(errors.icon.message)}
                      </span>
                    )}
                  </div>
                )}
              />
              <Field label={t('dialog.name')} required error={tv(errors.name?.message)} className={s.grow} controlId="app-name">
                <Input
                  placeholder={t('dialog.namePlaceholder')}
                  suffix={<span className={s.counter}>{`${nameLength}/${APP_NAME_MAX}`}</span>}
                  {...register('name', { validate: rules.notBlank, maxLength: rules.maxLength(APP_NAME_MAX) })}
                  data-testid="app-name"
                  autoFocus
                />
              </Field>
            </div>
            <Field
              label={t('dialog.descriptionLabel')}
              required
              error={tv(errors.description?.message)}
              help={<span className={s.counter}>{`${descriptionLength}/${APP_DESCRIPTION_MAX}`}</span>}
              controlId="app-description"
            >
              <Textarea
                rows={3}
                placeholder={t('dialog.descriptionPlaceholder')}
                {...register('description', { validate: rules.notBlank, maxLength: rules.maxLength(APP_DESCRIPTION_MAX) })}
                data-testid="app-description"
              />
            </Field>
            <Controller
              control={control}
              name="type"
              rules={{ required: rules.required.message }}
              render={({ field }) => (
                <Field label={t('dialog.type')} required error={tv(errors.type?.message)} help={editing ? t('dialog.typeFixed') : undefined} controlId="app-type">
                  <div role="radiogroup" aria-label={t('dialog.type')} className={s.modes} data-testid="app-type">
                    {APP_MODES.map((mode) => {
                      const Icon = MODE_ICONS[mode];
                      const on = field.value === mode;
                      return (
                        <button
                          key={mode}
                          type="button"
                          role="radio"
                          aria-checked={on}
                          disabled={editing && !on}
                          className={cn(s.mode, on && s.modeOn)}
                          onClick={() => {
                            if (editing) return;
                            field.onChange(mode);
                            if (!iconPicked.current) setValue('icon', { ...MODE_DEFAULT_ICON[mode] });
                          }}
                          onBlur={field.onBlur}
                          data-mode={mode}
                        >
                          <Icon aria-hidden="true" className={s.modeIcon} />
                          <span className={s.modeText}>
                            <span className={s.modeName}>{t(`modes.${mode}`)}</span>
                            <span className={s.modeHint}>{t(`modeHints.${mode}`)}</span>
                          </span>
                        </button>
                      );
                    })}
                  </div>
                </Field>
              )}
            />
            {dhChoices.length > 1 && (
              <Controller
                control={control}
                name="digitalHuman"
                render={({ field }) => (
                  <Field label={t('digitalHuman:app.title')} help={field.value !== 'none' ? t(`digitalHuman:kinds.${field.value as 'conversation'}Help`) : undefined} controlId="app-digital-human">
                    <div role="radiogroup" aria-label={t('digitalHuman:app.title')} className={s.dhChoices} data-testid="app-digital-human">
                      {dhChoices.map((k) => (
                        <button key={k} type="button" role="radio" aria-checked={field.value === k} className={cn(s.dhChoice, field.value === k && s.modeOn)} onClick={() => field.onChange(k)} data-kind={k}>
                          {t(`digitalHuman:kinds.${k}`)}
                        </button>
                      ))}
                    </div>
                  </Field>
                )}
              />
            )}
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
            <Button type="submit" variant="primary" loading={isSubmitting} data-testid="app-dialog-submit">
              {editing ? t('common:actions.save') : t('common:actions.create')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
