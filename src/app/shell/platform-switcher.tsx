import { Check, ChevronsUpDown, LayoutDashboard, MessagesSquare, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../schemas/auth';
import type { SwitchAppEntry } from '../../../schemas/org';
import { hasText, tDynamic } from '../../i18n';
import { Button } from '../../ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '../../ui/dropdown-menu';
import { canEnterSystem } from '../guards';
import s from './top-bar.module.css';

export type PlatformEntry = SwitchAppEntry;

/** The switcher's entries when GET /common/switch-app-config fails: console, portal, and system for admins. */
export function platformsForRole(role: CurrentUser['role'] | undefined): PlatformEntry[] {
  const entries: PlatformEntry[] = [
    { code: 'console', name: 'Console', url: '/operation' },
    { code: 'portal', name: 'Portal', url: '/portal' },
  ];
  if (canEnterSystem(role ? { role } : null)) entries.push({ code: 'system', name: 'System admin', url: '/operation/system' });
  return entries;
}

const icons: Record<string, ReactNode> = {
  console: <LayoutDashboard aria-hidden="true" />,
  portal: <MessagesSquare aria-hidden="true" />,
  system: <Settings aria-hidden="true" />,
};

/** The entry's name in the current language (the server's name for codes the client does not know). */
export function platformLabel(entry: Pick<PlatformEntry, 'code' | 'name'>): string {
  const key = `shell:platform.${entry.code}`;
  return hasText(key) ? tDynamic(key) : entry.name;
}

export interface PlatformSwitcherProps {
  entries: PlatformEntry[];
  /** Code of the platform the user is in. */
  current: string;
  onSelect(entry: PlatformEntry): void;
}

/** Switches between the console, the portal and the system-admin area. */
export function PlatformSwitcher({ entries, current, onSelect }: PlatformSwitcherProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const active = entries.find((e) => e.code === current);
  const label = active ? platformLabel(active) : t('platform.console');
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" className={s.switcher} aria-label={`${t('platform.label')}: ${label}`} data-testid="platform-switcher">
          <span className={s.switcherText}>{label}</span>
          <ChevronsUpDown aria-hidden="true" className={s.chevron} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className={s.menu}>
        <DropdownMenuLabel>{t('platform.label')}</DropdownMenuLabel>
        {entries.map((e) => (
          <DropdownMenuItem
            key={e.code}
            icon={icons[e.code] ?? <LayoutDashboard aria-hidden="true" />}
            shortcut={e.code === current ? <Check aria-hidden="true" className={s.check} /> : undefined}
            onSelect={() => onSelect(e)}
            data-testid={`platform-option-${e.code}`}
          >
            {platformLabel(e)}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
