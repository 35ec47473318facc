import { Check, LayoutDashboard, MessagesSquare, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SwitchAppEntry } from '../../../schemas/org';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '../../ui/dropdown-menu';
import { PlatformButton, platformLabel, platformsForRole } from './top-bar-buttons';
import s from './top-bar.module.css';

export { platformLabel, platformsForRole };

export type PlatformEntry = SwitchAppEntry;

const icons: Record<string, ReactNode> = {
  console: <LayoutDashboard aria-hidden="true" />,
  portal: <MessagesSquare aria-hidden="true" />,
  system: <Settings aria-hidden="true" />,
};

export interface PlatformSwitcherProps {
  entries: PlatformEntry[];
  /** Code of the platform the user is in. */
  current: string;
  onSelect(entry: PlatformEntry): void;
  /** Open from the start (the menu was asked for before its code had loaded). */
  defaultOpen?: boolean;
}

/** Switches between the console, the portal and the system-admin area. */
export function PlatformSwitcher({ entries, current, onSelect, defaultOpen }: PlatformSwitcherProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <PlatformButton entries={entries} current={current} />
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
