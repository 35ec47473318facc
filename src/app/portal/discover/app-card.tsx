import { Building2, Globe } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PortalApp } from '../../../../schemas/portal';
import { AppIcon } from '../../../kit/widgets/app-icon';
import { Card } from '../../../ui/card';
import { Skeleton } from '../../../ui/skeleton';
import { PortalModeBadge } from '../mode-badge';
import { appPath } from '../paths';
import s from './discover.module.css';
import { seededName } from '../../../i18n/seeded';

/**
 * An app in discover: icon, name, mode, description, where it comes from (the tenant's portal or one
 * of the user's project spaces) and the distributed version. The whole card opens the app: its chat,
 * or its run page for a workflow.
 */
export function AppCard({ app }: { app: PortalApp }) {
  const { t } = useTranslation('portal');
  const SourceIcon = app.platform === 'portal' ? Globe : Building2;
  return (
    <Card interactive className={s.card} data-testid="portal-app-card" data-app-id={app.id} data-mode={app.mode}>
      <div className={s.cardTop}>
        <AppIcon value={app.icon} size={40} />
        <div className={s.cardHeading}>
          <Link to={appPath(app)} className={s.cardLink} aria-label={t('discover.open', { name: app.name })} data-testid="portal-app-open">
            {app.name}
          </Link>
          <PortalModeBadge mode={app.mode} />
        </div>
      </div>
      <p className={s.cardDescription} title={app.description || undefined}>
        {app.description}
      </p>
      <div className={s.cardMeta}>
        <span className={s.source}>
          <SourceIcon aria-hidden="true" />
          <span className={s.ellipsis}>{t(`source.${app.platform}`, { name: seededName(app.workspace_name) })}</span>
        </span>
        <span className={s.version}>{t('discover.version', { version: app.version })}</span>
      </div>
    </Card>
  );
}

/** The shape of a card while the list loads. */
export function AppCardSkeleton() {
  return (
    <Card className={s.card} aria-hidden="true">
      <div className={s.cardTop}>
        <Skeleton width={40} height={40} />
        <div className={s.cardHeading}>
          <Skeleton width={140} height={14} />
          <Skeleton width={64} height={18} />
        </div>
      </div>
      <Skeleton width="90%" height={12} />
      <Skeleton width="40%" height={12} />
    </Card>
  );
}
