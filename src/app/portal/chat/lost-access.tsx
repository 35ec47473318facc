import { ArrowLeft, Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClass } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { portalPaths } from '../paths';
import s from './chat.module.css';

/** The clear state of an app the user can no longer use, with the way back to discover. */
export function LostAccess({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('portal');
  const back = (
    <Link to={portalPaths.discover} className={buttonClass({ variant: compact ? 'secondary' : 'primary', size: compact ? 'sm' : 'md' })} data-testid="lost-access-back">
      <ArrowLeft aria-hidden="true" />
      {t('access.back')}
    </Link>
  );
  if (compact)
    return (
      <div className={s.banner} role="status" data-testid="lost-access-banner">
        <Lock aria-hidden="true" className={s.bannerIcon} />
        <div className={s.bannerText}>
          <strong>{t('access.lostTitle')}</strong>
          <span>{t('access.lostDescription')}</span>
        </div>
        {back}
      </div>
    );
  return (
    <div className={s.lostPage} data-testid="lost-access">
      <EmptyState icon={<Lock aria-hidden="true" />} title={t('access.lostTitle')} description={t('access.lostDescription')} action={back} />
    </div>
  );
}
