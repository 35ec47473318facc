/**
 * The buttons of the top bar's menus (platform, language, user), without the menus: the menus' Radix
 * code loads when the user first reaches for one (deferred-menu.tsx), and until then these stand in
 * with the same look. The menus use them as their triggers, so both look the same.
 */
import { ChevronDown, ChevronsUpDown, Languages } from 'lucide-react';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../schemas/auth';
import type { SwitchAppEntry } from '../../../schemas/org';
import { hasText, tDynamic, type Language } from '../../i18n';
import { seededName } from '../../i18n/seeded';
import { canEnterSystem } from '../guards';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import s from './top-bar.module.css';

export type MenuUser = Pick<CurrentUser, 'id' | 'username' | 'nickname' | 'realName' | 'avatar' | 'role' | 'tenant_name'>;

/** The name to show for a user: nickname, else real name, else account. */
export function displayName(u: Pick<CurrentUser, 'username' | 'nickname' | 'realName'>): string {
  return u.nickname.trim() || seededName(u.realName.trim()) || u.username;
}

/** The entry's name in the current language (the server's name for codes the client does not know). */
export function platformLabel(entry: Pick<SwitchAppEntry, 'code' | 'name'>): string {
  const key = `shell:platform.${entry.code}`;
  return hasText(key) ? tDynamic(key) : entry.name;
}

/** The platform switcher's entries when GET /common/switch-app-config fails: console, portal, and system for admins. */
export function platformsForRole(role: CurrentUser['role'] | undefined): SwitchAppEntry[] {
  const entries: SwitchAppEntry[] = [
    { code: 'console', name: 'Console', url: '/operation' },
    { code: 'portal', name: 'Portal', url: '/portal' },
  ];
  if (canEnterSystem(role ? { role } : null)) entries.push({ code: 'system', name: 'System admin', url: '/operation/system' });
  return entries;
}

type ButtonProps = ComponentProps<'button'>;

/** The user menu's button: avatar and name. */
export function UserMenuButton({ user, ...props }: ButtonProps & { user: MenuUser }) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const name = displayName(user);
  return (
    <button type="button" className={s.userTrigger} aria-label={t('user.menu', { name })} data-testid="user-menu-trigger" {...props}>
      <Avatar name={name} src={user.avatar || null} size="sm" colorSeed={user.id} />
      <span className={s.userName}>{name}</span>
      <ChevronDown aria-hidden="true" className={s.chevron} />
    </button>
  );
}

/** The platform switcher's button: the current platform's name. */
export function PlatformButton({ entries, current, ...props }: ButtonProps & { entries: readonly SwitchAppEntry[]; current: string }) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const active = entries.find((e) => e.code === current);
  const label = active ? platformLabel(active) : t('platform.console');
  return (
    <Button variant="ghost" size="sm" className={s.switcher} aria-label={`${t('platform.label')}: ${label}`} data-testid="platform-switcher" {...props}>
      <span className={s.switcherText}>{label}</span>
      <ChevronsUpDown aria-hidden="true" className={s.chevron} />
    </Button>
  );
}

/** The language switcher's button: the current language. */
export function LanguageButton({ language: value, ...props }: Omit<ButtonProps, 'value'> & { language: Language }) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  return (
    <Button variant="ghost" size="sm" icon={<Languages aria-hidden="true" />} aria-label={`${t('language.label')}: ${t(`common:language.${value}`)}`} data-testid="language-switcher" {...props}>
      {t(`common:language.${value}`)}
    </Button>
  );
}
