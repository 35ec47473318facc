/**
 * /portal/** (except the embedded chat): the top bar, the portal's own navigation (discover, the
 * user's conversations) and the page. Pages whose route says `fullHeight` (the chat) fill the window
 * below the bars and scroll inside themselves; the others scroll with the window. Loaded with the
 * portal's routes, not in the app's entry.
 */
import { Compass, DatabaseZap, MessagesSquare, SlidersHorizontal } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useMatches } from 'react-router';
import { listWorkspaces } from '../../api/workspaces';
import { DocumentTitle, NavigationProgress } from '../shell/layouts';
import type { RouteHandle } from '../shell/route-handle';
import { ShellTopBar } from '../shell/shell-top-bar';
import { useSession } from '../session';
import { portalPaths } from './paths';
import s from './portal-layout.module.css';

/** What a portal route may tell its layout. */
export interface PortalRouteHandle extends RouteHandle {
  /** The page fills the window and scrolls inside (the chat). */
  fullHeight?: boolean;
}

/**
 * Discover and My conversations, as links; GBI's ask and data settings for users in a project
 * space (GBI's data is a space's: the server checks the membership and role of every call).
 */
export function PortalNav() {
  const { t } = useTranslation('portal');
  const inSpace = useInAnySpace();
  return (
    <nav className={s.nav} aria-label={t('nav.label')} data-testid="portal-nav">
      <NavLink to={portalPaths.discover} className={s.navLink}>
        <Compass aria-hidden="true" />
        {t('nav.discover')}
      </NavLink>
      <NavLink to={portalPaths.sessions} className={s.navLink}>
        <MessagesSquare aria-hidden="true" />
        {t('nav.sessions')}
      </NavLink>
      {inSpace && (
        <>
          <NavLink to={portalPaths.gbiAsk} className={s.navLink}>
            <DatabaseZap aria-hidden="true" />
            {t('nav.gbiAsk')}
          </NavLink>
          <NavLink to={portalPaths.gbiSettings} className={s.navLink}>
            <SlidersHorizontal aria-hidden="true" />
            {t('nav.gbiSettings')}
          </NavLink>
        </>
      )}
    </nav>
  );
}

/**
 * Whether the user belongs to a project space. A current space in the session says so at once; without
 * one (a fresh sign-in that never opened the console) their spaces are asked for, as the GBI pages do
 * (they then use the first), so GBI is not hidden from a member who has not picked a space yet.
 */
function useInAnySpace(): boolean {
  const current = useSession((st) => st.workspaceId !== null);
  const [listed, setListed] = useState(false);
  useEffect(() => {
    if (current) return;
    const ctrl = new AbortController();
    listWorkspaces({ page_size: 1 }, { signal: ctrl.signal, reaction: 'silent' }).then(
      (p) => setListed(p.items.length > 0),
      () => {},
    );
    return () => ctrl.abort();
  }, [current]);
  return current || listed;
}

export default function PortalLayout() {
  const fullHeight = useMatches().some((m) => (m.handle as PortalRouteHandle | undefined)?.fullHeight);
  return (
    <div className={s.shell} data-full-height={fullHeight || undefined} data-testid="portal-layout">
      <NavigationProgress />
      <DocumentTitle />
      <ShellTopBar area="portal" />
      <PortalNav />
      <main className={s.main} id="main">
        <Outlet />
      </main>
    </div>
  );
}
