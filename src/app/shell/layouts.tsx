/**
 * The layouts of the route tree: console (top bar + page), system admin (top bar + side navigation),
 * store (top bar + store tabs). Each renders the child route in <Outlet/>. The portal has its own
 * layout (app/portal/portal-layout.tsx), loaded with its routes.
 */
import { Boxes, Building2, Cpu, Database, Package, Puzzle, Server, ShieldCheck, Store, Users, Wrench, type LucideIcon } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { cn } from '../../ui/cn';
import { NavTab, NavTabs } from '../../ui/tabs';
import { useSession } from '../session';
import { PageBand } from './page';
import { RouteBreadcrumb } from './route-breadcrumb';
import { useArea, usePageTitle } from './route-handle';
import { ShellTopBar } from './shell-top-bar';
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

/** /operation (console pages, store, app editors) and /personal. */
export function ConsoleLayout() {
  const area = useArea();
  return (
    <div className={s.shell}>
      <NavigationProgress />
      <DocumentTitle />
      <ShellTopBar area={area} showWorkspaces={area === 'console' || area === undefined} />
      <main className={s.main} id="main">
        <Outlet />
      </main>
    </div>
  );
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

export const SYSTEM_NAV = [
  { key: 'model', icon: Cpu },
  { key: 'store', icon: Store },
  { key: 'plugin', icon: Puzzle },
  { key: 'dataset', icon: Database },
  { key: 'tool', icon: Wrench },
  { key: 'user', icon: Users },
  { key: 'tenant', icon: Building2 },
  { key: 'security', icon: ShieldCheck },
  { key: 'resource', icon: Server },
] as const satisfies readonly { key: string; icon: LucideIcon }[];

/** Pages of the system area for super admins only (they act on every tenant). */
const SUPER_ADMIN_ONLY = new Set<string>(['tenant', 'security']);

/** The system-admin side navigation (presentational; links through the router); `showTenants`: the super admin's pages too. */
export function SystemNav({ showTenants = true }: { showTenants?: boolean }) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  return (
    <nav aria-label={t('system.nav')} className={s.sideNav} data-testid="system-nav">
      <div className={s.sideTitle}>{t('platform.system')}</div>
      {SYSTEM_NAV.filter((n) => showTenants || !SUPER_ADMIN_ONLY.has(n.key)).map(({ key, icon: Icon }) => (
        <NavLink key={key} to={`/operation/system/${key}`} className={s.sideItem} data-testid={`system-nav-${key}`}>
          <Icon aria-hidden="true" />
          <span>{t(`system.${key}`)}</span>
        </NavLink>
      ))}
    </nav>
  );
}

/** /operation/system/**: side navigation + breadcrumb + page. Tenants and security are for super admins only. */
export function SystemLayout() {
  const showTenants = useSession((st) => st.user?.role === 'super_admin');
  return (
    <div className={s.withSide}>
      <SystemNav showTenants={showTenants} />
      <div className={s.sideContent}>
        <SubHeader />
        <Outlet />
      </div>
    </div>
  );
}

export const STORE_TABS = [
  { key: 'app', icon: Boxes },
  { key: 'knowledge', icon: Database },
  { key: 'prompt', icon: Package },
  { key: 'tool', icon: Wrench },
  { key: 'plugin', icon: Puzzle },
] as const;

/** /operation/store/**: breadcrumb, store tabs, page. */
export function StoreLayout() {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const { pathname } = useLocation();
  const active = /^\/operation\/store\/([^/]+)/.exec(pathname)?.[1];
  return (
    <>
      <SubHeader>
        <NavTabs aria-label={t('store.nav')}>
          {STORE_TABS.map(({ key, icon: Icon }) => (
            <NavTab key={key} asChild active={active === key}>
              <Link to={`/operation/store/${key}`}>
                <Icon aria-hidden="true" />
                {t(`store.${key}`)}
              </Link>
            </NavTab>
          ))}
        </NavTabs>
      </SubHeader>
      <Outlet />
    </>
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
