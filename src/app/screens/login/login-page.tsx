/**
 * /login: signs in (local mode) and goes to the `redirect_uri` of the query when it is a path of this
 * app, else to /operation (spec 2).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { signIn } from '../../../api/auth';
import { listLoginTenants } from '../../../api/common';
import { getConfig } from '../../config';
import { REDIRECT_PARAM, safeRedirectTarget } from '../../paths';
import { ConnectedLanguageSwitcher } from '../../shell/language-switcher';
import { LogoMark } from '../../shell/logo';
import { LoginForm, type LoginTenant } from './login-form';
import s from './login.module.css';

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common', 'errors', 'pages', 'shell']);
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
        <LoginForm
          tenants={tenants}
          defaultTenantId={config.defaultTenantId}
          onSubmit={async (values) => {
            await signIn(values);
            navigate(safeRedirectTarget(params.get(REDIRECT_PARAM)), { replace: true });
          }}
        />
      </div>
      {config.version && <p className={s.version}>{t('login.version', { version: config.version })}</p>}
    </div>
  );
}
