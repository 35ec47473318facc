import { KeyRound, LogOut, Moon, Sun, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../ui/avatar';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../../ui/dropdown-menu';
import type { Theme } from './theme';
import { displayName, UserMenuButton, type MenuUser } from './top-bar-buttons';
import s from './top-bar.module.css';

export { displayName, type MenuUser };

export interface UserMenuProps {
  user: MenuUser;
  theme: Theme;
  onThemeChange(theme: Theme): void;
  onPersonalCenter(): void;
  onChangePassword(): void;
  onSignOut(): void;
  /** Open from the start (the menu was asked for before its code had loaded). */
  defaultOpen?: boolean;
}

/** Avatar and name in the top bar; opens personal center, password change, theme and sign-out. */
export function UserMenu({ user, theme, onThemeChange, onPersonalCenter, onChangePassword, onSignOut, defaultOpen }: UserMenuProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const name = displayName(user);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <UserMenuButton user={user} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className={s.menu} data-testid="user-menu">
        <DropdownMenuLabel className={s.userCard}>
          <Avatar name={name} src={user.avatar || null} size="md" colorSeed={user.id} />
          <span className={s.userCardText}>
            <span className={s.userCardName}>{name}</span>
            <span className={s.userCardMeta}>
              {user.username} · {t(`role.${user.role}`)}
            </span>
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={<UserRound aria-hidden="true" />} onSelect={onPersonalCenter} data-testid="personal-center">
          {t('user.personalCenter')}
        </DropdownMenuItem>
        <DropdownMenuItem icon={<KeyRound aria-hidden="true" />} onSelect={onChangePassword} data-testid="change-password">
          {t('user.changePassword')}
        </DropdownMenuItem>
        <DropdownMenuItem
          icon={theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
          onSelect={() => onThemeChange(theme === 'dark' ? 'light' : 'dark')}
          data-testid="theme-toggle"
        >
          {theme === 'dark' ? t('user.lightTheme') : t('user.darkTheme')}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="danger" icon={<LogOut aria-hidden="true" />} onSelect={onSignOut} data-testid="sign-out">
          {t('user.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
