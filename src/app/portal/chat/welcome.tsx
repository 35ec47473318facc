import { MessageCircleQuestion } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppFeatures } from '../../../../schemas/flow';
import { MarkdownView } from './markdown-view';
import { pickSuggested } from './suggested';
import s from './chat.module.css';

export interface WelcomeProps {
  features: Pick<AppFeatures, 'opening_statement' | 'suggested_questions' | 'suggested_questions_random_count'>;
  /** Picking anew for each conversation. */
  conversationKey: string;
  /** Suggested questions shown (a new conversation); the opening statement shows either way. */
  showSuggestions: boolean;
  disabled?: boolean;
  onAsk: (question: string) => void;
}

/**
 * The app's opening statement and, for a new conversation, its suggested questions: never more than
 * its random-display count, picked at random for each conversation (0 = all of them).
 */
export function Welcome({ features, conversationKey, showSuggestions, disabled, onAsk }: WelcomeProps) {
  const { t } = useTranslation('portal');
  const { suggested_questions: questions, suggested_questions_random_count: count } = features;
  // A new conversation draws its random questions again: conversationKey is a deliberate extra dependency.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const shown = useMemo(() => pickSuggested(questions, count), [questions, count, conversationKey]);
  if (!features.opening_statement && (!showSuggestions || shown.length === 0)) return null;
  return (
    <div className={s.welcome} data-testid="chat-welcome">
      {features.opening_statement && <MarkdownView className={s.opening} text={features.opening_statement} data-testid="chat-opening" />}
      {showSuggestions && shown.length > 0 && (
        <div className={s.suggestions} data-testid="chat-suggested">
          <span className={s.suggestionsTitle}>
            <MessageCircleQuestion aria-hidden="true" />
            {t('chat.suggested')}
          </span>
          {shown.map((q) => (
            <button key={q} type="button" className={s.suggestion} disabled={disabled} onClick={() => onAsk(q)}>
              {q}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
