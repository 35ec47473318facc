import { Ellipsis, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { App, AppType } from '../../../../schemas/app';
import type { MemberRole } from '../../../../schemas/workspace';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { AppIcon } from '../../../kit/widgets/icon-picker';
import { StatusBadge } from '../../../kit/widgets/status-badge';
import { Badge, Button, Card, DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger, Skeleton } from '../../../ui';
import { editorPath, MODE_BADGE } from './app-modes';
import s from './apps-page.module.css';

/** Spec 6 as the server enforces it: every member builds; only owner and admin delete. */
export const canDeleteApps = (role: MemberRole | null) => role === 'owner' || role === 'admin';

export function ModeBadge({ type }: { type: AppType }) {
  const { t } = useTranslation('apps');
  return (
    <Badge variant={MODE_BADGE[type]} appearance="outline" data-mode={type}>
      {t(`modes.${type}`)}
    </Badge>
  );
}

export interface AppCardsProps {
  /** null while the first page loads (skeleton cards). */
  apps: App[] | null;
  /** The caller's role (null while unknown: no delete). */
  myRole: MemberRole | null;
  busy?: boolean;
  onEdit(app: App): void;
  onDelete(app: App): void;
  onStatus(app: App, next: App['status']): void;
}

/**
 * The apps of a project space as cards: icon, name (opens the app's editor), mode, status,
 * description, creator and last change; a menu to edit, activate or deactivate, and delete.
 */
export function AppCards({ apps, myRole, busy, onEdit, onDelete, onStatus }: AppCardsProps) {
  const { t } = useTranslation(['apps', 'common']);
  if (apps === null) {
    return (
      <ul className={s.grid} aria-busy="true" data-testid="app-grid-loading">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i}>
            <Card className={s.card}>
              <div className={s.cardTop}>
                <Skeleton width={40} height={40} />
                <div className={s.cardHeading}>
                  <Skeleton width={140} height={14} />
                  <Skeleton width={72} height={12} />
                </div>
              </div>
              <Skeleton width="90%" height={12} />
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className={s.grid} aria-busy={busy || undefined} data-testid="app-grid">
      {apps.map((app) => {
        const next = app.status === 'active' ? 'inactive' : 'active';
        return (
          <li key={app.id}>
            <Card interactive className={s.card} data-testid="app-card" data-app-id={app.id} data-status={app.status}>
              <div className={s.cardTop}>
                <AppIcon value={app.icon} size={40} />
                <div className={s.cardHeading}>
                  <Link to={editorPath(app)} className={s.cardLink} aria-label={t('card.open', { name: app.name })} data-testid="app-open">
                    {app.name}
                  </Link>
                  <span className={s.badges}>
                    <ModeBadge type={app.type} />
                    <StatusBadge value={app.status} label={t(`status.${app.status}`)} />
                  </span>
                </div>
                <div className={s.cardActions}>
                  <DropdownMenu>
                    <DropdownMenuTrigger asChild>
                      <Button variant="ghost" size="sm" iconOnly aria-label={t('card.actionsFor', { name: app.name })} data-testid="app-actions">
                        <Ellipsis aria-hidden="true" />
                      </Button>
                    </DropdownMenuTrigger>
                    <DropdownMenuContent align="end">
                      <DropdownMenuItem icon={<Pencil aria-hidden="true" />} onSelect={() => onEdit(app)} data-testid="app-edit">
                        {t('actions.edit')}
                      </DropdownMenuItem>
                      <DropdownMenuItem
                        icon={next === 'active' ? <Power aria-hidden="true" /> : <PowerOff aria-hidden="true" />}
                        onSelect={() => onStatus(app, next)}
                        data-testid="app-status"
                      >
                        {next === 'active' ? t('actions.activate') : t('actions.deactivate')}
                      </DropdownMenuItem>
                      {canDeleteApps(myRole) && (
                        <>
                          <DropdownMenuSeparator />
                          <DropdownMenuItem variant="danger" icon={<Trash2 aria-hidden="true" />} onSelect={() => onDelete(app)} data-testid="app-delete">
                            {t('actions.delete')}
                          </DropdownMenuItem>
                        </>
                      )}
                    </DropdownMenuContent>
                  </DropdownMenu>
                </div>
              </div>
              <p className={s.cardDescription}>{app.description}</p>
              <div className={s.cardMeta}>
                <span className={s.ellipsis}>{t('card.createdBy', { name: app.created_by_name })}</span>
                <span className={s.time}>{t('card.updatedAt', { time: formatDateTime(app.updated_at, { withSeconds: false }) ?? '' })}</span>
              </div>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
