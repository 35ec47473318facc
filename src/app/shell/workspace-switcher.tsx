import { Check, ChevronsUpDown, LayoutGrid, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Workspace } from '../../../schemas/workspace';
import { Button } from '../../ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../../ui/dropdown-menu';
import { Input } from '../../ui/input';
import { Spinner } from '../../ui/spinner';
import { WorkspaceIcon } from './workspace-icon';
import s from './top-bar.module.css';
import { seededName } from '../../i18n/seeded';

export type SwitcherWorkspace = Pick<Workspace, 'id' | 'name' | 'icon'>;

/** A search box shows above this many project spaces. */
const SEARCH_FROM = 8;

export interface WorkspaceSwitcherProps {
  workspaces: SwitcherWorkspace[];
  /** The workspace of the route, if any. */
  currentId?: string | null;
  /** Name and icon to show while the list is not loaded yet (from the route's loader). */
  currentName?: string;
  currentIcon?: string;
  loading?: boolean;
  onSelect(id: string): void;
  /** "All project spaces" (the operation home). */
  onShowAll(): void;
  /** Called when the menu opens (the container loads the list then). */
  onOpen?(): void;
}

/** The top bar's project-space switcher. */
export function WorkspaceSwitcher({ workspaces, currentId, currentName, currentIcon, loading, onSelect, onShowAll, onOpen }: WorkspaceSwitcherProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const [query, setQuery] = useState('');
  const current = workspaces.find((w) => w.id === currentId);
  const label = seededName(current?.name ?? currentName ?? '') || t('workspace.choose');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? workspaces.filter((w) => seededName(w.name).toLowerCase().includes(q)) : workspaces;
  }, [workspaces, query]);

  return (
    <DropdownMenu
      onOpenChange={(open) => {
        if (open) onOpen?.();
        else setQuery('');
      }}
    >
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" className={s.switcher} aria-label={`${t('workspace.label')}: ${label}`} data-testid="workspace-switcher">
          {current || currentName ? <WorkspaceIcon icon={current?.icon ?? currentIcon ?? ''} name={label} size="xs" /> : <LayoutGrid aria-hidden="true" />}
          <span className={s.switcherText}>{label}</span>
          <ChevronsUpDown aria-hidden="true" className={s.chevron} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className={s.wsMenu}>
        <DropdownMenuLabel>{t('workspace.label')}</DropdownMenuLabel>
        {workspaces.length > SEARCH_FROM && (
          <div className={s.menuSearch}>
            <Input
              size="sm"
              prefix={<Search aria-hidden="true" />}
              placeholder={t('workspace.search')}
              aria-label={t('workspace.search')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              // Typing must not move the menu's focus to an item starting with that letter.
              onKeyDown={(e) => e.stopPropagation()}
            />
          </div>
        )}
        <div className={s.wsList}>
          {loading && workspaces.length === 0 ? (
            <div className={s.menuNote}>
              <Spinner size={14} label={t('common:states.loading')} />
            </div>
          ) : shown.length === 0 ? (
            <div className={s.menuNote}>{workspaces.length === 0 ? t('workspace.none') : t('common:states.noResults')}</div>
          ) : (
            shown.map((w) => (
              <DropdownMenuItem
                key={w.id}
                icon={<WorkspaceIcon icon={w.icon} name={w.name} size="xs" />}
                shortcut={w.id === currentId ? <Check aria-hidden="true" className={s.check} /> : undefined}
                onSelect={() => onSelect(w.id)}
                data-testid="workspace-switcher-item"
              >
                {seededName(w.name)}
              </DropdownMenuItem>
            ))
          )}
        </div>
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={<LayoutGrid aria-hidden="true" />} onSelect={onShowAll}>
          {t('workspace.all')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
