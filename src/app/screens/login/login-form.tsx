import { Eye, EyeOff, LockKeyhole, UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/reactions';
// Each primitive from its own file: the ui barrel would bring every component into the login page (issue 28).
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { rules, tv } from '../../shell/validation';
import s from './login.module.css';
import { preselectedTenant, TenantField } from './tenant-field';

export interface LoginTenant {
  id: string;
  name: string;
  is_default: boolean;
}

export interface LoginValues {
  tenantId: string;
  username: string;
  password: string;
}

export interface LoginFormProps {
  /** Tenants to sign in to; the choice is hidden when there is only one. */
  tenants: LoginTenant[];
  /** Preselected (the configured default tenant). */
  defaultTenantId: string;
  /** Signs in; a rejection is shown above the button ('Login failed' …). */
  onSubmit(values: LoginValues): Promise<unknown>;
}

/** Local-mode sign-in: tenant, account, password (spec 2 /login, 7.2 mode 1). */
export function LoginForm({ tenants, defaultTenantId, onSubmit }: LoginFormProps) {
  const { t } = useTranslation(['auth', 'common', 'errors', 'pages', 'shell']);
  const [failure, setFailure] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const preselected = preselectedTenant(tenants, defaultTenantId);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ defaultValues: { tenantId: preselected, username: '', password: '' } });

  // The tenant list arrives after the first render: preselect the default once it is known.
  useEffect(() => {
    if (!tenants.some((x) => x.id === getValues('tenantId'))) setValue('tenantId', preselected);
  }, [tenants, preselected, getValues, setValue]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit({ ...values, username: values.username.trim() });
    } catch (e) {
      setFailure(describeError(e, 'silent')?.text ?? t('errors:ops.loginFailed'));
    }
  });

  return (
    <form onSubmit={submit} noValidate className={s.form} data-testid="login-form" aria-label={t('login.title')}>
      <TenantField control={control} tenants={tenants} error={errors.tenantId?.message} controlId="login-tenant" />
      <Field label={t('login.account')} required error={tv(errors.username?.message)} controlId="login-username">
        <Input
          size="md"
          className={s.input}
          prefix={<UserRound aria-hidden="true" />}
          autoComplete="username"
          placeholder={t('login.accountPlaceholder')}
          autoFocus
          {...register('username', { validate: rules.notBlank, maxLength: rules.maxLength(64) })}
          name="username"
          data-testid="login-username"
        />
      </Field>
      <Field label={t('login.password')} required error={tv(errors.password?.message)} controlId="login-password">
        <Input
          size="md"
          className={s.input}
          type={showPassword ? 'text' : 'password'}
          prefix={<LockKeyhole aria-hidden="true" />}
          suffix={
            <button
              type="button"
              className={s.reveal}
              onClick={() => setShowPassword((v) => !v)}
              aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
              aria-pressed={showPassword}
            >
              {showPassword ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            </button>
          }
          autoComplete="current-password"
          placeholder={t('login.passwordPlaceholder')}
          {...register('password', { required: rules.required, maxLength: rules.maxLength(128) })}
          name="password"
          data-testid="login-password"
        />
      </Field>
      {failure && (
        <p role="alert" className={s.failure} data-testid="login-error">
          {failure}
        </p>
      )}
      <Button type="submit" variant="primary" loading={isSubmitting} className={s.submit} data-testid="login-submit">
        {t('login.submit')}
      </Button>
    </form>
  );
}
