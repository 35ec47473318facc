/**
 * The connected top bar: binds the presentational pieces (platform switcher, workspace switcher,
 * language switcher, user menu) to the session, the router and the API.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useRouteLoaderData } from 'react-router';
import type { Workspace } from '../../../schemas/workspace';
import { signOut } from '../../api/auth';
import { updateOwnPassword } from '../../api/base';
import { getSwitchAppConfig } from '../../api/common';
import { notify } from '../../api/reactions';
import { Button } from '../../ui/button';
import { lazyWithReload } from '../guards';
import { loginPath } from '../paths';
import { useSession } from '../session';
import { ConnectedLanguageSwitcher } from './language-switcher';
import { PlatformSwitcher, platformsForRole, type PlatformEntry } from './platform-switcher';
import { projectTabOf } from './project-tabs';
import type { Area } from './route-handle';
import { setTheme, useTheme } from './theme';
import { TopBar, TopBarDivider } from './top-bar';
import { UserMenu } from './user-menu';
import { WorkspaceSwitcher } from './workspace-switcher';
import { useWorkspaces } from './workspaces-store';

// The password form (react-hook-form and its rules) loads when the dialog first opens: the portal's
// first load leaves it out.
const ChangePasswordDialog = lazy(lazyWithReload(async () => ({ default: (await import('./change-password-dialog')).ChangePasswordDialog })));

const platformCache = new Map<string, PlatformEntry[]>();

/** Entries of the platform switcher: GET /common/switch-app-config, else by role (spec: fall back). */
export function usePlatforms(): PlatformEntry[] {
  const user = useSession((s) => s.user);
  const key = user?.id ?? '';
  const [entries, setEntries] = useState<PlatformEntry[]>(() => platformCache.get(key) ?? platformsForRole(user?.role));
  useEffect(() => {
    if (!user) return;
    const cached = platformCache.get(user.id);
    if (cached) {
      setEntries(cached);
      return;
    }
    let live = true;
    setEntries(platformsForRole(user.role));
    getSwitchAppConfig({ reaction: 'silent' })
      .then((list) => {
        const usable = list.length > 0 ? list : platformsForRole(user.role);
        platformCache.set(user.id, usable);
        if (live) setEntries(usable);
      })
      .catch(() => {
        // The fallback by role stays.
      });
    return () => {
      live = false;
    };
  }, [user]);
  return entries;
}

/** The platform the user is in, from the route's area. */
export function platformOf(area: Area | undefined): string {
  return area === 'system' ? 'system' : area === 'portal' ? 'portal' : 'console';
}

/** Switching project space keeps the tab the user is on (the list of that tab in the other space). */
export function workspaceTarget(id: string, pathname: string): string {
  const m = /^\/operation\/workspace\/[^/]+\/([^/]+)/.exec(pathname);
  const tab = projectTabOf(m?.[1]) ?? 'app';
  return `/operation/workspace/${encodeURIComponent(id)}/${tab}`;
}

export interface ShellTopBarProps {
  area: Area | undefined;
  /** Show the project-space switcher (console pages). */
  showWorkspaces?: boolean;
}

export function ShellTopBar({ area, showWorkspaces = false }: ShellTopBarProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const theme = useTheme();
  const platforms = usePlatforms();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [passwordAsked, setPasswordAsked] = useState(false);
  const params = useParams();
  // In an app editor the app guard's project space is the current one (spec 2: it switches to it).
  const appRoute = useRouteLoaderData('app') as { workspace?: Workspace } | undefined;
  const workspace_id = params.workspace_id ?? appRoute?.workspace?.id;
  const routeWorkspace = (useRouteLoaderData('workspace') as Workspace | undefined) ?? appRoute?.workspace;
  const workspaces = useWorkspaces((s) => s.items);
  const wsStatus = useWorkspaces((s) => s.status);
  const loadWorkspaces = useWorkspaces((s) => s.load);

  useEffect(() => {
    if (showWorkspaces && user) void loadWorkspaces();
  }, [showWorkspaces, user, loadWorkspaces]);

  const doSignOut = async () => {
    await signOut();
    useWorkspaces.getState().reset();
    navigate('/login', { replace: true });
  };

  const left = (
    <>
      <PlatformSwitcher entries={platforms} current={platformOf(area)} onSelect={(e) => navigate(e.url)} />
      {showWorkspaces && user && (
        <>
          <TopBarDivider />
          <WorkspaceSwitcher
            workspaces={workspaces}
            currentId={workspace_id}
            currentName={routeWorkspace?.id === workspace_id ? routeWorkspace?.name : undefined}
            currentIcon={routeWorkspace?.id === workspace_id ? routeWorkspace?.icon : undefined}
            loading={wsStatus === 'loading'}
            onOpen={() => void loadWorkspaces(true)}
            onSelect={(id) => navigate(workspaceTarget(id, window.location.pathname))}
            onShowAll={() => navigate('/operation')}
          />
        </>
      )}
    </>
  );

  const right = (
    <>
      <ConnectedLanguageSwitcher />
      {user ? (
        <UserMenu
          user={user}
          theme={theme}
          onThemeChange={setTheme}
          onPersonalCenter={() => navigate('/personal/personal-center')}
          onChangePassword={() => {
            setPasswordAsked(true);
            setPasswordOpen(true);
          }}
          onSignOut={() => void doSignOut()}
        />
      ) : (
        <Button size="sm" variant="primary" onClick={() => navigate(loginPath(window.location.pathname + window.location.search))}>
          {t('user.signIn')}
        </Button>
      )}
    </>
  );

  return (
    <>
      <TopBar homeHref={area === 'portal' ? '/portal/sessions/discover' : '/operation'} left={left} right={right} />
      {user && passwordAsked && (
        <Suspense fallback={null}>
          <ChangePasswordDialog
            open={passwordOpen}
            onOpenChange={setPasswordOpen}
            onSubmit={(body) => updateOwnPassword(body, { reaction: 'silent' })}
            onDone={() => {
              // The server ends every session of the user on a password change: sign in again.
              notify({ level: 'success', text: t('auth:password.changed') });
              void doSignOut();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
