import { Ellipsis, FolderInput, Lock, Pin, PinOff, Settings2, Trash2, UserRound, VenetianMask } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WebConversation } from '../../../../schemas/portal';
import { AppIcon } from '../../../kit/widgets/app-icon';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '../../../ui/dropdown-menu';
import { portalPaths } from '../paths';
import s from './sessions.module.css';

/** What the user can do with a conversation from the list (the page opens the popups). */
export type SessionAction = 'settings' | 'character' | 'move' | 'pin' | 'delete';

export interface SessionListItemProps {
  conversation: WebConversation;
  /** The name of its group, when it is in one. */
  groupName?: string;
  onAction: (action: SessionAction, conversation: WebConversation) => void;
}

/**
 * A conversation in the sessions page: its app's icon, its name (opens it in the chat), the app,
 * last activity and message count, pinned / character / group / no-longer-available marks, and a
 * menu with the session settings, character settings, moving to a group, pinning and deleting.
 */
export function SessionListItem({ conversation: c, groupName, onAction }: SessionListItemProps) {
  const { t } = useTranslation('portal');
  const name = c.name || t('chat.untitled');
  const when = formatDateTime(c.last_message_at ?? c.updated_at, { withSeconds: false });
  return (
    <li className={s.item} data-testid="session-item" data-conversation-id={c.id} data-pinned={c.pinned || undefined}>
      <AppIcon value={c.app_icon} size={36} />
      <div className={s.itemText}>
        <div className={s.itemTitle}>
          {c.pinned && <Pin className={s.mark} aria-label={t('sessions.pinned')} />}
          <Link to={portalPaths.chat(c.app_id, c.id)} className={s.itemLink} data-testid="session-open">
            {name}
          </Link>
          {!c.accessible && (
            <Badge variant="warning" data-testid="session-unavailable">
              <Lock aria-hidden="true" className={s.badgeIcon} />
              {t('access.unavailable')}
            </Badge>
          )}
        </div>
        <div className={s.itemMeta}>
          <span className={s.itemApp}>{c.app_name}</span>
          {when && <span>{t('sessions.lastActive', { time: when })}</span>}
          <span>{t('sessions.messages', { count: c.message_count })}</span>
          {groupName && (
            <Badge variant="neutral" appearance="outline" data-testid="session-group">
              {groupName}
            </Badge>
          )}
          {c.persona && (
            <Badge variant="info" appearance="outline" title={c.persona}>
              <UserRound aria-hidden="true" className={s.badgeIcon} />
              {t('sessions.persona')}
            </Badge>
          )}
        </div>
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="sm" iconOnly aria-label={t('sessions.actions', { name })} data-testid="session-actions">
            <Ellipsis aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem icon={<Settings2 aria-hidden="true" />} onSelect={() => onAction('settings', c)}>
            {t('sessions.settings')}
          </DropdownMenuItem>
          <DropdownMenuItem icon={<VenetianMask aria-hidden="true" />} onSelect={() => onAction('character', c)}>
            {t('sessions.character')}
          </DropdownMenuItem>
          <DropdownMenuItem icon={<FolderInput aria-hidden="true" />} onSelect={() => onAction('move', c)}>
            {t('sessions.moveToGroup')}
          </DropdownMenuItem>
          <DropdownMenuItem icon={c.pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />} onSelect={() => onAction('pin', c)}>
            {c.pinned ? t('sessions.unpin') : t('sessions.pin')}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem variant="danger" icon={<Trash2 aria-hidden="true" />} onSelect={() => onAction('delete', c)}>
            {t('sessions.delete')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  );
}
