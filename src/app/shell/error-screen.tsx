import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { LostPicture, NoPermissionPicture, NotFoundPicture } from './illustrations';
import s from './error-screen.module.css';

/** Where the back button of an error screen returns to (spec 2: store, system or operation home). */
export type BackTarget = 'operation' | 'store' | 'system';

export const backHref: Record<BackTarget, string> = {
  operation: '/operation',
  store: '/operation/store/app',
  system: '/operation/system',
};

export interface ErrorScreenProps {
  /** 'no-permission' (resource outside the user's spaces), 'not-found' (missing or deleted), 'lost' (a page that does not exist). */
  kind: 'no-permission' | 'not-found' | 'lost';
  /** Main line; defaults by kind. */
  title?: ReactNode;
  /** Second line; defaults by kind. */
  description?: ReactNode;
  /** The id of the missing resource (shown for 'not-found'). */
  id?: string | null;
  back?: BackTarget;
  onBack?(): void;
  /** Replaces the back button. */
  actions?: ReactNode;
  /** Fill the viewport (top-level pages) instead of the content area. */
  fullPage?: boolean;
  className?: string;
}

/** The error screen of spec 2: a picture, what cannot be viewed, the id, and a way back. */
export function ErrorScreen({ kind, title, description, id, back = 'operation', onBack, actions, fullPage, className }: ErrorScreenProps) {
  const { t } = useTranslation(['pages', 'common', 'errors']);
  const picture = kind === 'no-permission' ? <NoPermissionPicture /> : kind === 'not-found' ? <NotFoundPicture /> : <LostPicture />;
  const defaultTitle = kind === 'no-permission' ? t('error.noPermission') : kind === 'not-found' ? t('error.notFound') : t('notFound.title');
  const defaultDescription =
    kind === 'no-permission' ? t('error.noPermissionHint') : kind === 'not-found' ? t('error.cannotView') : t('notFound.description');
  return (
    <section
      role="alert"
      className={cn(s.root, fullPage && s.fullPage, className)}
      data-testid="error-screen"
      data-kind={kind}
    >
      <div className={s.picture}>{picture}</div>
      <h1 className={s.title}>{title ?? defaultTitle}</h1>
      <p className={s.description}>{description ?? defaultDescription}</p>
      {kind === 'not-found' && id && (
        <p className={s.id} data-testid="error-id">
          {t('errors:page.errorId', { id })}
        </p>
      )}
      <div className={s.actions}>
        {actions ?? (
          <Button variant="primary" icon={<ArrowLeft aria-hidden="true" />} onClick={onBack} data-testid="error-back">
            {t(`error.back.${back}`)}
          </Button>
        )}
      </div>
    </section>
  );
}
