/**
 * The bare layout (login, 403, 404) and the pieces every layout uses (progress bar, document title,
 * breadcrumb strip). The console's layouts (console-layout.tsx, console-sections.tsx) and the portal's
 * (app/portal/portal-layout.tsx) load with their routes: none of them is in the portal's first load.
 */
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigation } from 'react-router';
import { cn } from '../../ui/cn';
import { PageBand } from './page';
import { RouteBreadcrumb } from './route-breadcrumb';
import { usePageTitle } from './route-handle';
import s from './layouts.module.css';

/** A thin bar at the very top while a navigation waits for its loaders. */
export function NavigationProgress() {
  const busy = useNavigation().state !== 'idle';
  return <div className={s.progress} data-active={busy || undefined} aria-hidden="true" />;
}

/** Keeps `document.title` on the current page's title. */
export function DocumentTitle() {
  const title = usePageTitle();
  const { t } = useTranslation();
  useEffect(() => {
    document.title = title ? `${title} · ${t('appName')}` : t('appName');
  }, [title, t]);
  return null;
}

/** A header strip under the top bar holding the breadcrumb (and optional tabs). */
export function SubHeader({ children, className }: { children?: ReactNode; className?: string }) {
  return (
    <PageBand className={cn(s.subHeader, className)}>
      <RouteBreadcrumb className={s.crumbs} />
      {children}
    </PageBand>
  );
}

/** Pages with no chrome (login, 403, 404): only the title and the progress bar. */
export function BareLayout() {
  return (
    <>
      <NavigationProgress />
      <DocumentTitle />
      <Outlet />
    </>
  );
}
