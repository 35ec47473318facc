import { KeyRound, Mail, Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/request';
import { describeError } from '../../../api/reactions';
import { codeProblem, targetProblem, type LoginCodeChannel } from '../../../../schemas/login-code-rules';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { tv, vmsg } from '../../shell/validation';
import type { LoginTenant } from './login-form';
import s from './login.module.css';
import { preselectedTenant, TenantField } from './tenant-field';

export interface CodeLoginValues {
  tenantId: string;
  target: string;
  code: string;
}

export interface CodeLoginFormProps {
  /** 'sms': the phone number; 'email': the email address. */
  channel: LoginCodeChannel;
  tenants: LoginTenant[];
  defaultTenantId: string;
  /** Sends a code; answers in how many seconds the next may be sent and how long a code lives. */
  onSend(values: Omit<CodeLoginValues, 'code'>): Promise<{ resend_after: number; expires_in: number }>;
  /** Signs in; a rejection is shown above the button. */
  onSubmit(values: CodeLoginValues): Promise<unknown>;
}

/** The spec-5 message of a failed check, translated when shown (a language switch re-translates it). */
const ruleMessage = (code: string | null) => (code ? vmsg(`errors:codes.${code}`) : true);

/**
 * Sign-in with a verification code (spec 5 login variants): the phone or email, a "send code" button
 * that counts down before the next send, the code. Checks: phone/email required and valid, code
 * required (the server checks the same, with the same catalogue codes).
 */
export function CodeLoginForm({ channel, tenants, defaultTenantId, onSend, onSubmit }: CodeLoginFormProps) {
  const { t } = useTranslation(['auth', 'errors', 'shell']);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  /** Seconds until "send code" is offered again. */
  const [wait, setWait] = useState(0);
  const preselected = preselectedTenant(tenants, defaultTenantId);
  const {
    register,
    control,
    handleSubmit,
    trigger,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<CodeLoginValues>({ defaultValues: { tenantId: preselected, target: '', code: '' } });

  useEffect(() => {
    if (!tenants.some((x) => x.id === getValues('tenantId'))) setValue('tenantId', preselected);
  }, [tenants, preselected, getValues, setValue]);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const send = async () => {
    setFailure(null);
    setNotice(null);
    // Only the phone or email must pass to send; the code is checked on sign-in.
    if (!(await trigger('target'))) return;
    setSending(true);
    try {
      const r = await onSend({ tenantId: getValues('tenantId'), target: getValues('target').trim() });
      setWait(r.resend_after);
      setNotice(t('login.codeSent', { minutes: Math.ceil(r.expires_in / 60) }));
    } catch (e) {
      // Sending too soon or too often: the countdown says when to try again.
      const retry = e instanceof ApiError ? Number((e.data as { retry_after?: unknown } | null)?.retry_after) : NaN;
      if (retry > 0) setWait(retry);
      setFailure(describeError(e, 'silent')?.text ?? t('errors:ops.loginFailed'));
    } finally {
      setSending(false);
    }
  };

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit({ ...values, target: values.target.trim(), code: values.code.trim() });
    } catch (e) {
      setFailure(describeError(e, 'silent')?.text ?? t('errors:ops.loginFailed'));
    }
  });

  const phone = channel === 'sms';
  return (
    <form onSubmit={submit} noValidate className={s.form} data-testid={`login-code-form-${channel}`} aria-label={phone ? t('login.tabPhone') : t('login.tabEmail')}>
      <TenantField control={control} tenants={tenants} error={errors.tenantId?.message} controlId={`login-${channel}-tenant`} />
      <Field label={phone ? t('login.phone') : t('login.email')} required error={tv(errors.target?.message)} controlId={`login-${channel}-target`}>
        <Input
          size="md"
          className={s.input}
          type={phone ? 'tel' : 'email'}
          inputMode={phone ? 'tel' : 'email'}
          prefix={phone ? <Smartphone aria-hidden="true" /> : <Mail aria-hidden="true" />}
          autoComplete={phone ? 'tel' : 'email'}
          placeholder={phone ? t('login.phonePlaceholder') : t('login.emailPlaceholder')}
          {...register('target', { validate: (v) => ruleMessage(targetProblem(channel, v)) })}
          data-testid="login-code-target"
        />
      </Field>
      <Field label={t('login.code')} required error={tv(errors.code?.message)} controlId={`login-${channel}-code`}>
        <div className={s.codeRow}>
          <Input
            size="md"
            className={s.input}
            inputMode="numeric"
            maxLength={6}
            prefix={<KeyRound aria-hidden="true" />}
            autoComplete="one-time-code"
            placeholder={t('login.codePlaceholder')}
            {...register('code', { validate: (v) => ruleMessage(codeProblem(v)) })}
            data-testid="login-code-code"
          />
          <Button type="button" variant="secondary" className={s.sendCode} onClick={send} loading={sending} disabled={wait > 0} data-testid="login-code-send">
            {wait > 0 ? t('login.resendIn', { seconds: wait }) : t('login.sendCode')}
          </Button>
        </div>
      </Field>
      {notice && !failure && (
        <p role="status" className={s.notice} data-testid="login-code-sent">
          {notice}
        </p>
      )}
      {failure && (
        <p role="alert" className={s.failure} data-testid="login-error">
          {failure}
        </p>
      )}
      <Button type="submit" variant="primary" loading={isSubmitting} className={s.submit} data-testid="login-code-submit">
        {t('login.submit')}
      </Button>
    </form>
  );
}
