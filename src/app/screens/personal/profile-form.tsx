import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../../schemas/auth';
import { describeError } from '../../../api/reactions';
import { Button, Field, Input } from '../../../ui';
import { rules, tv, vmsg } from '../../shell/validation';
import s from './personal.module.css';

export interface ProfileValues {
  nickname: string;
  realName: string;
  email: string;
  phone: string;
  avatar: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The phone rule of schemas/auth.ts ProfileBody. */
const PHONE = /^\+?[0-9][0-9 -]{4,19}$/;

export const profileValuesOf = (u: CurrentUser): ProfileValues => ({
  nickname: u.nickname,
  realName: u.realName,
  email: u.email,
  phone: u.phone,
  avatar: u.avatar,
});

export interface ProfileFormProps {
  user: CurrentUser;
  /** Saves; a rejection is shown in the form. */
  onSubmit(values: ProfileValues): Promise<unknown>;
}

/** The personal center's profile: nickname, real name, email, phone, avatar URL. */
export function ProfileForm({ user, onSubmit }: ProfileFormProps) {
  const { t } = useTranslation(['auth', 'common', 'errors', 'pages', 'shell']);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileValues>({ defaultValues: profileValuesOf(user) });

  useEffect(() => reset(profileValuesOf(user)), [user, reset]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as unknown as ProfileValues;
    try {
      await onSubmit(body);
    } catch (e) {
      setFailure(describeError(e, 'silent')?.text ?? t('errors:ops.saveFailed'));
    }
  });

  return (
    <form onSubmit={submit} noValidate className={s.form} data-testid="profile-form">
      <div className={s.grid}>
        <Field label={t('profile.nickname')} error={tv(errors.nickname?.message)}>
          <Input {...register('nickname', { maxLength: rules.maxLength(64) })} autoComplete="nickname" data-testid="profile-nickname" />
        </Field>
        <Field label={t('profile.realName')} error={tv(errors.realName?.message)}>
          <Input {...register('realName', { maxLength: rules.maxLength(64) })} autoComplete="name" data-testid="profile-real-name" />
        </Field>
        <Field label={t('profile.email')} error={tv(errors.email?.message)}>
          <Input
            type="email"
            autoComplete="email"
            {...register('email', {
              maxLength: rules.maxLength(128),
              validate: (v) => !v.trim() || EMAIL.test(v.trim()) || vmsg('auth:validation.email'),
            })}
            data-testid="profile-email"
          />
        </Field>
        <Field label={t('profile.phone')} error={tv(errors.phone?.message)}>
          <Input
            type="tel"
            autoComplete="tel"
            {...register('phone', { validate: (v) => !v.trim() || PHONE.test(v.trim()) || vmsg('auth:validation.phone') })}
            data-testid="profile-phone"
          />
        </Field>
      </div>
      <Field label={t('profile.avatar')} help={t('profile.avatarHelp')} error={tv(errors.avatar?.message)}>
        <Input placeholder="https://" {...register('avatar', { maxLength: rules.maxLength(1024) })} data-testid="profile-avatar" />
      </Field>
      {failure && (
        <p role="alert" className={s.failure}>
          {failure}
        </p>
      )}
      <div className={s.actions}>
        <Button onClick={() => reset(profileValuesOf(user))} disabled={!isDirty || isSubmitting}>
          {t('common:actions.reset')}
        </Button>
        <Button type="submit" variant="primary" loading={isSubmitting} disabled={!isDirty} data-testid="profile-submit">
          {t('common:actions.save')}
        </Button>
      </div>
    </form>
  );
}
