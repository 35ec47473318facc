/**
 * The connected top bar: binds the presentational pieces (platform switcher, language switcher, user
 * menu) to the session, the router and the API. The menus' Radix code loads on first use
 * (deferred-menu.tsx) and the console passes its project-space switcher in `workspaceSwitcher`
 * (console-layout.tsx): the portal's first load carries neither (issue 21).
 */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../../api/auth';
import { updateOwnPassword } from '../../api/base';
import { getSwitchAppConfig } from '../../api/common';
import { notify } from '../../api/reactions';
import { currentLanguage } from '../../i18n';
import { Button } from '../../ui/button';
import { lazyWithReload } from '../guards';
import { loginPath } from '../paths';
import { useSession } from '../session';
import { DeferredMenu } from './deferred-menu';
import type { Area } from './route-handle';
import { setTheme, useTheme } from './theme';
import { TopBar, TopBarDivider } from './top-bar';
import { LanguageButton, PlatformButton, platformsForRole, UserMenuButton } from './top-bar-buttons';
import type { SwitchAppEntry } from '../../../schemas/org';

type PlatformEntry = SwitchAppEntry;

// Module-level loaders: DeferredMenu remembers each by identity, so a later top bar shows the menu at once.
const loadPlatformSwitcher = lazyWithReload(async () => (await import('./platform-switcher')).PlatformSwitcher);
const loadLanguageSwitcher = lazyWithReload(async () => (await import('./language-switcher')).ConnectedLanguageSwitcher);
const loadUserMenu = lazyWithReload(async () => (await import('./user-menu')).UserMenu);

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

export interface ShellTopBarProps {
  area: Area | undefined;
  /** The project-space switcher (console pages: console-layout.tsx). */
  workspaceSwitcher?: ReactNode;
  /** Before the language switcher: the console's notification bell (console-layout.tsx). */
  notifications?: ReactNode;
}

export function ShellTopBar({ area, workspaceSwitcher, notifications }: ShellTopBarProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const theme = useTheme();
  const platforms = usePlatforms();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [passwordAsked, setPasswordAsked] = useState(false);
  const current = platformOf(area);

  const doSignOut = async () => {
    // The workspaces store (console) forgets its list by itself when the session ends.
    await signOut();
    navigate('/login', { replace: true });
  };

  const left = (
    <>
      <DeferredMenu
        load={loadPlatformSwitcher}
        props={{ entries: platforms, current, onSelect: (e: PlatformEntry) => navigate(e.url) }}
        trigger={<PlatformButton entries={platforms} current={current} />}
      />
      {workspaceSwitcher && (
        <>
          <TopBarDivider />
          {workspaceSwitcher}
        </>
      )}
    </>
  );

  const right = (
    <>
      {user && notifications}
      <DeferredMenu load={loadLanguageSwitcher} props={{}} trigger={<LanguageButton language={currentLanguage()} />} />
      {user ? (
        <DeferredMenu
          load={loadUserMenu}
          props={{
            user,
            theme,
            onThemeChange: setTheme,
            onPersonalCenter: () => navigate('/personal/personal-center'),
            onChangePassword: () => {
              setPasswordAsked(true);
              setPasswordOpen(true);
            },
            onSignOut: () => void doSignOut(),
          }}
          trigger={<UserMenuButton user={user} />}
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
