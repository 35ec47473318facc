import { Lock, MessageSquarePlus, Pin } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { WebConversation } from '../../../../schemas/portal';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { Button } from '../../../ui/button';
import { Skeleton } from '../../../ui/skeleton';
import s from './chat.module.css';

export interface ConversationListProps {
  /** null while loading. */
  conversations: readonly WebConversation[] | null;
  activeId: string | null;
  onSelect: (id: string) => void;
  /** Omitted: no "new conversation" button (the app can no longer be used). */
  onNew?: () => void;
}

/** The user's conversations of this app, newest first (pinned ones on top), and "new conversation". */
export function ConversationList({ conversations, activeId, onSelect, onNew }: ConversationListProps) {
  const { t } = useTranslation('portal');
  return (
    <div className={s.sideInner} data-testid="chat-conversations">
      <div className={s.sideHead}>
        <span className={s.sideTitle}>{t('chat.conversations')}</span>
        {onNew && (
          <Button size="sm" variant="secondary" icon={<MessageSquarePlus aria-hidden="true" />} onClick={onNew} data-testid="chat-new">
            {t('chat.newConversation')}
          </Button>
        )}
      </div>
      {conversations === null ? (
        <div className={s.sideList} aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={36} />
          ))}
        </div>
      ) : conversations.length === 0 ? (
        <p className={s.sideEmpty}>{t('chat.noConversations')}</p>
      ) : (
        <ul className={s.sideList}>
          {conversations.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className={s.sideItem}
                aria-current={c.id === activeId ? 'true' : undefined}
                onClick={() => onSelect(c.id)}
                data-testid="chat-conversation"
                data-conversation-id={c.id}
              >
                <span className={s.sideItemName}>
                  {c.pinned && <Pin aria-label={t('sessions.pinned')} className={s.sideIcon} />}
                  {!c.accessible && <Lock aria-label={t('access.unavailable')} className={s.sideIcon} />}
                  <span className={s.ellipsis}>{c.name || t('chat.untitled')}</span>
                </span>
                <span className={s.sideItemTime}>{formatDateTime(c.last_message_at ?? c.updated_at, { withSeconds: false })}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
