/**
 * /login: signs in and goes to the `redirect_uri` of the query when it is a path of this app, else to
 * /operation (spec 2). Local mode: account and password. Single sign-on modes (spec 7.2): "Sign in
 * with <provider>" sends the browser to the get-auth-URL; account and password stay folded away for
 * the super admin (break-glass) unless the operator turned them off. A failed round trip through the
 * provider comes back with `sso_error` (a catalogue code), shown above the button. In local mode a
 * server that can send codes (config.json `codeLogin`) adds tabs for phone and email verification
 * codes (spec 5 login variants).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { signIn, signInWithCode } from '../../../api/auth';
import { sendLoginCode } from '../../../api/login-code';
import { ssoAuthUrl } from '../../../api/sso';
import { Button } from '../../../ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { listLoginTenants } from '../../../api/common';
import { getConfig } from '../../config';
import { REDIRECT_PARAM, safeRedirectTarget } from '../../paths';
import { ConnectedLanguageSwitcher } from '../../shell/language-switcher';
import { LogoMark } from '../../shell/logo';
import { LoginForm, type LoginTenant } from './login-form';
import { CodeLoginForm } from './code-login-form';
import s from './login.module.css';

export default function LoginPage() {
  const { t, i18n } = useTranslation(['auth', 'common', 'errors', 'pages', 'shell']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const config = getConfig();
  const [tenants, setTenants] = useState<LoginTenant[]>([]);

  useEffect(() => {
    const ctrl = new AbortController();
    listLoginTenants({ signal: ctrl.signal, reaction: 'silent' })
      .then(setTenants)
      .catch(() => {
        // Without the list the configured default tenant is used (the choice stays hidden).
      });
    return () => ctrl.abort();
  }, []);

  const target = safeRedirectTarget(params.get(REDIRECT_PARAM));
  const sso = config.authMode !== 'local';
  const ssoError = params.get('sso_error');
  const form = (
    <LoginForm
      tenants={tenants}
      defaultTenantId={config.defaultTenantId}
      onSubmit={async (values) => {
        await signIn(values);
        navigate(target, { replace: true });
      }}
    />
  );

  const lang = i18n.language?.startsWith('en') ? 'en' : 'zh';
  const channels = config.codeLogin ?? [];
  const local =
    channels.length === 0 ? (
      form
    ) : (
      <Tabs defaultValue="password" data-testid="login-tabs">
        <TabsList variant="segmented" className={s.tabs} aria-label={t('login.tabs')}>
          <TabsTrigger value="password" data-testid="login-tab-password">
            {t('login.tabPassword')}
          </TabsTrigger>
          {channels.includes('sms') && (
            <TabsTrigger value="sms" data-testid="login-tab-sms">
              {t('login.tabPhone')}
            </TabsTrigger>
          )}
          {channels.includes('email') && (
            <TabsTrigger value="email" data-testid="login-tab-email">
              {t('login.tabEmail')}
            </TabsTrigger>
          )}
        </TabsList>
        <TabsContent value="password">{form}</TabsContent>
        {channels.map((channel) => (
          <TabsContent key={channel} value={channel}>
            <CodeLoginForm
              channel={channel}
              tenants={tenants}
              defaultTenantId={config.defaultTenantId}
              onSend={(v) => sendLoginCode({ ...v, channel, lang })}
              onSubmit={async (v) => {
                await signInWithCode({ ...v, channel });
                navigate(target, { replace: true });
              }}
            />
          </TabsContent>
        ))}
      </Tabs>
    );

  return (
    <div className={s.page}>
      <div className={s.corner}>
        <ConnectedLanguageSwitcher />
      </div>
      <div className={s.panel}>
        <div className={s.brand}>
          <LogoMark size={32} />
          <span className={s.brandName}>{t('common:appName')}</span>
        </div>
        <h1 className={s.title}>{t('login.title')}</h1>
        <p className={s.subtitle}>{t('login.subtitle')}</p>
        {ssoError && (
          <p role="alert" className={s.failure} data-testid="login-sso-error">
            {t(`errors:codes.${ssoError}`, { defaultValue: t('errors:ops.socialLoginFailed') })}
          </p>
        )}
        {sso ? (
          <div className={s.sso}>
            <Button asChild variant="primary" className={s.submit}>
              <a
                data-testid="login-sso"
                href={ssoAuthUrl({ appCode: config.sso?.appCode ?? 'weft', redirectUri: target, tenantId: config.defaultTenantId, loginType: config.authMode })}
              >
                {t('login.sso', { provider: config.sso?.providerName || t('login.ssoDefaultProvider') })}
              </a>
            </Button>
            <p className={s.ssoHint}>{t('login.ssoHint')}</p>
          </div>
        ) : (
          local
        )}
        {sso && config.sso?.localLogin !== 'off' && (
          <details className={s.breakGlass} data-testid="login-break-glass">
            <summary>{t('login.breakGlass')}</summary>
            {form}
          </details>
        )}
      </div>
      {config.version && <p className={s.version}>{t('login.version', { version: config.version })}</p>}
    </div>
  );
}
