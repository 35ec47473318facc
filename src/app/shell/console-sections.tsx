/**
 * The console's section layouts, loaded with their routes (console-routes.tsx): system admin (side navigation)
 * and store (store tabs). Not in the portal's first load (issue 21: Radix tabs, the section icons).
 */
import { Boxes, Building2, ClipboardCheck, Cpu, Database, KeySquare, Package, Puzzle, Server, ShieldCheck, Store, Users, Wrench, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { NavTab, NavTabs } from '../../ui/tabs';
import { useSession } from '../session';
import { SubHeader } from './layouts';
import s from './layouts.module.css';

export const SYSTEM_NAV = [
  { key: 'model', icon: Cpu },
  { key: 'store', icon: Store },
  { key: 'plugin', icon: Puzzle },
  { key: 'dataset', icon: Database },
  { key: 'tool', icon: Wrench },
  { key: 'user', icon: Users },
  { key: 'role', icon: KeySquare },
  { key: 'tenant', icon: Building2 },
  { key: 'security', icon: ShieldCheck },
  { key: 'approval', icon: ClipboardCheck },
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

