import { BookOpen, ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Citation } from '../../../../schemas/portal';
import s from './chat.module.css';

/** One passage: where it is from, how relevant, and its text (clamped, expandable). */
function CitationItem({ citation }: { citation: Citation }) {
  const { t } = useTranslation('portal');
  const [open, setOpen] = useState(false);
  const long = citation.content.length > 220;
  return (
    <li className={s.citation} data-testid="citation">
      <div className={s.citationHead}>
        <span className={s.citationSource} title={citation.document_name}>
          {t('chat.citationFrom', { dataset: citation.dataset_name, document: citation.document_name })}
        </span>
        <span className={s.citationScore}>{t('chat.citationScore', { score: citation.score.toFixed(2) })}</span>
      </div>
      <p className={s.citationText} data-open={open || !long || undefined}>
        {citation.content}
      </p>
      {long && (
        <button type="button" className={s.linkButton} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? t('chat.showLess') : t('chat.showMore')}
        </button>
      )}
    </li>
  );
}

/** The knowledge passages an answer used, folded under it until the user opens them. */
export function Citations({ citations }: { citations: readonly Citation[] }) {
  const { t } = useTranslation('portal');
  const [open, setOpen] = useState(false);
  const id = useId();
  if (citations.length === 0) return null;
  return (
    <div className={s.citations} data-testid="citations">
      <button type="button" className={s.citationsToggle} aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        <BookOpen aria-hidden="true" />
        {t('chat.citations', { count: citations.length })}
        <ChevronDown aria-hidden="true" className={s.chevron} data-open={open || undefined} />
      </button>
      {open && (
        <ol id={id} className={s.citationList}>
          {citations.map((c, i) => (
            <CitationItem key={`${c.segment_id}-${i}`} citation={c} />
          ))}
        </ol>
      )}
    </div>
  );
}
