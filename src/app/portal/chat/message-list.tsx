import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { AppIcon as AppIconValue } from '../../../../schemas/app';
import type { AppFeatures } from '../../../../schemas/flow';
import type { FeedbackRating } from '../../../../schemas/portal';
import { Spinner } from '../../../ui/spinner';
import { keyOf, type ChatMessage, type ChatState } from './chat-state';
import { MessageItem } from './message-item';
import s from './chat.module.css';

interface ListContext {
  loadingOlder: boolean;
  hasMore: boolean;
  header?: ReactNode;
  loadingText: string;
}

// Module-level so react-virtuoso keeps the elements across renders (inline components remount).
function Header({ context }: { context?: ListContext }) {
  if (context?.hasMore)
    return (
      <p className={s.older} aria-live="polite">
        {context.loadingOlder && (
          <>
            <Spinner size={14} /> {context.loadingText}
          </>
        )}
      </p>
    );
  return context?.header ? <div className={s.listHeader}>{context.header}</div> : <div className={s.listGap} />;
}
const Footer = () => <div className={s.listGap} />;
const COMPONENTS = { Header, Footer };

export interface MessageListProps {
  chat: ChatState;
  features: Pick<AppFeatures, 'citations' | 'feedback'>;
  app: { name: string; icon: AppIconValue; portraitUrl?: string };
  busy: boolean;
  readOnly: boolean;
  loadingOlder: boolean;
  /** Shown above the first message once the whole history is loaded (the opening statement). */
  header?: ReactNode;
  onLoadOlder: () => void;
  onRegenerate: (messageId: string) => void;
  onFeedback: (messageId: string, rating: FeedbackRating | null) => void;
  onAsk: (question: string) => void;
}

/**
 * The conversation, oldest at the top, opened at its end; older pages load as the user scrolls up
 * (the list keeps its place: react-virtuoso's first item index goes down by the page's size), and
 * a streaming answer stays in view while the user is at the bottom.
 */
export function MessageList({ chat, features, app, busy, readOnly, loadingOlder, header, onLoadOlder, onRegenerate, onFeedback, onAsk }: MessageListProps) {
  const { t } = useTranslation('portal');
  const list = useRef<VirtuosoHandle>(null);
  const atBottom = useRef(true);
  const last = chat.messages[chat.messages.length - 1];
  const growing = last?.status === 'streaming' ? last.answer.length : -1;
  useEffect(() => {
    if (growing >= 0 && atBottom.current) list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, [growing]);
  return (
    <Virtuoso<ChatMessage, ListContext>
      ref={list}
      className={s.list}
      data={chat.messages}
      firstItemIndex={chat.firstItemIndex}
      initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
      computeItemKey={(_, m) => keyOf(m)}
      startReached={onLoadOlder}
      followOutput={(bottom) => (bottom ? 'auto' : false)}
      atBottomStateChange={(bottom) => (atBottom.current = bottom)}
      atBottomThreshold={80}
      increaseViewportBy={{ top: 600, bottom: 200 }}
      context={{ loadingOlder, hasMore: chat.hasMore, header, loadingText: t('chat.loadingOlder') }}
      components={COMPONENTS}
      itemContent={(_, m) => (
        <div className={s.item}>
          <MessageItem
            message={m}
            features={features}
            app={app}
            last={m === last}
            busy={busy}
            readOnly={readOnly}
            onRegenerate={onRegenerate}
            onFeedback={onFeedback}
            onAsk={onAsk}
          />
        </div>
      )}
      data-testid="chat-messages"
    />
  );
}
