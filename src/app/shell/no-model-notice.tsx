/**
 * What an AI feature says before the click when no chat model is configured (issue 28): what is
 * missing and, for an administrator, a link to System › Models; anyone else is told to ask one.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../../ui';
import { useSession } from '../session';
import s from './no-model-notice.module.css';

/** The models page of the system area (console-routes.tsx `system/model`). */
export const MODELS_PATH = '/operation/system/model';

/** @example {noModel && <NoModelNotice />} */
export function NoModelNotice({ className }: { className?: string }) {
  const { t } = useTranslation('common');
  const role = useSession((st) => st.user?.role);
  const admin = role === 'super_admin' || role === 'tenant_admin';
  return (
    <p className={cn(s.notice, className)} role="note" data-testid="no-model-notice">
      {t('noModel.missing')}{' '}
      {admin ? (
        <>
          {t('noModel.goTo')} <Link to={MODELS_PATH}>{t('noModel.link')}</Link>
        </>
      ) : (
        t('noModel.ask')
      )}
    </p>
  );
}
