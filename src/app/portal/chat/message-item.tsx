import { Check, CircleAlert, Copy, FileText, RotateCcw, Square, ThumbsDown, ThumbsUp } from 'lucide-react';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppFeatures } from '../../../../schemas/flow';
import type { AppIcon as AppIconValue } from '../../../../schemas/app';
import type { FeedbackRating } from '../../../../schemas/portal';
import { notify } from '../../../api/reactions';
import { codeText } from '../../../i18n';
import { AppIcon } from '../../../kit/widgets/app-icon';
import { Button } from '../../../ui/button';
import { Spinner } from '../../../ui/spinner';
import type { ChatMessage } from './chat-state';
import { Citations } from './citations';
import { MarkdownView } from './markdown-view';
import s from './chat.module.css';

export interface MessageItemProps {
  message: ChatMessage;
  features: Pick<AppFeatures, 'citations' | 'feedback'>;
  /** `portraitUrl`: a digital human's character portrait, shown beside its answers instead of the icon. */
  app: { name: string; icon: AppIconValue; portraitUrl?: string };
  /** The conversation's last message (regenerate, follow-ups). */
  last: boolean;
  /** An answer is streaming: no regenerating meanwhile. */
  busy: boolean;
  /** The user lost access: reading only. */
  readOnly: boolean;
  onRegenerate?: (messageId: string) => void;
  onFeedback?: (messageId: string, rating: FeedbackRating | null) => void;
  onAsk?: (question: string) => void;
}

/** Copies a text to the clipboard (the old way where the Clipboard API is missing or refused). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand?.('copy') ?? false;
    area.remove();
    return ok;
  }
}

/** One exchange: the user's question (with its files), then the answer with its citations and actions. */
export const MessageItem = memo(function MessageItem({ message: m, features, app, last, busy, readOnly, onRegenerate, onFeedback, onAsk }: MessageItemProps) {
  const { t } = useTranslation('portal');
  const [copied, setCopied] = useState(false);
  const streaming = m.status === 'streaming';
  const stored = !m.local && !streaming;
  const copy = async () => {
    if (await copyText(m.answer)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } else notify({ level: 'error', text: t('chat.copyFailed') });
  };
  const rate = (rating: FeedbackRating) => onFeedback?.(m.id, m.feedback === rating ? null : rating);
  const errorText = m.error ? (codeText(m.error.code) ?? m.error.message) : '';
  return (
    <article className={s.exchange} data-testid="chat-message" data-status={m.status} data-message-id={m.id}>
      <div className={s.userRow}>
        <div className={s.userBubble} data-testid="chat-query">
          {m.query}
          {m.files.length > 0 && (
            <ul className={s.fileChips}>
              {m.files.map((f) => (
                <li key={f.file_id} className={s.fileChip}>
                  <FileText aria-hidden="true" />
                  {f.name ?? f.file_id}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <div className={s.answerRow}>
        {app.portraitUrl ? (
          <img src={app.portraitUrl} alt="" width={28} height={28} className={`${s.answerAvatar} ${s.answerPortrait}`} data-testid="chat-answer-portrait" />
        ) : (
          <AppIcon value={app.icon} size={28} className={s.answerAvatar} />
        )}
        <div className={s.answer}>
          {m.answer ? (
            <MarkdownView text={m.answer} data-testid="chat-answer" />
          ) : streaming ? (
            <p className={s.thinking} data-testid="chat-thinking">
              <Spinner size={14} /> {t('chat.thinking')}
            </p>
          ) : null}
          {streaming && m.reconnecting && (
            <p className={s.thinking} role="status" data-testid="chat-reconnecting">
              <Spinner size={14} /> {t('chat.reconnecting')}
            </p>
          )}
          {m.status === 'stopped' && (
            <p className={s.answerNote} data-testid="chat-stopped">
              <Square aria-hidden="true" /> {t('chat.stopped')}
            </p>
          )}
          {m.status === 'failed' && (
            <p className={s.answerError} role="alert" data-testid="chat-error">
              <CircleAlert aria-hidden="true" /> {t('chat.failed', { message: errorText })}
            </p>
          )}
          {features.citations && m.citations.length > 0 && <Citations citations={m.citations} />}
          {!streaming && (
            <div className={s.actions} data-testid="chat-actions">
              {m.answer && (
                <Button size="sm" variant="ghost" iconOnly aria-label={copied ? t('chat.copied') : t('chat.copy')} title={t('chat.copy')} onClick={() => void copy()}>
                  {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
                </Button>
              )}
              {last && !busy && !readOnly && onRegenerate && stored && (
                <Button size="sm" variant="ghost" iconOnly aria-label={t('chat.regenerate')} title={t('chat.regenerate')} onClick={() => onRegenerate(m.id)} data-testid="chat-regenerate">
                  <RotateCcw aria-hidden="true" />
                </Button>
              )}
              {features.feedback && stored && m.status === 'succeeded' && !readOnly && (
                <>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('chat.like')} title={t('chat.like')} aria-pressed={m.feedback === 'like'} data-testid="chat-like" onClick={() => rate('like')}>
                    <ThumbsUp aria-hidden="true" />
                  </Button>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('chat.dislike')} title={t('chat.dislike')} aria-pressed={m.feedback === 'dislike'} data-testid="chat-dislike" onClick={() => rate('dislike')}>
                    <ThumbsDown aria-hidden="true" />
                  </Button>
                </>
              )}
            </div>
          )}
          {last && !readOnly && m.followUps && m.followUps.length > 0 && (
            <div className={s.followUps} data-testid="chat-follow-ups">
              <span className={s.followUpsTitle}>{t('chat.followUps')}</span>
              {m.followUps.map((q) => (
                <button key={q} type="button" className={s.suggestion} disabled={busy} onClick={() => onAsk?.(q)}>
                  {q}
                </button>
              ))}
            </div>
          )}
        </div>
      </div>
    </article>
  );
});
