import { X } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn';
import { addTag, canAddMore, removeLastTag, removesLastTag, removeTagAt, TAG_DEFAULTS, type TagRejection } from './tag-rules';
import { ariaOf, isInvalid, type WidgetValueProps } from './types';
import s from './tag-input.module.css';

export interface TagInputProps extends WidgetValueProps<string[]> {
  /** Spec 5 default 5. */
  maxTags?: number;
  /** Spec 5 default 20. */
  maxTagLength?: number;
  placeholder?: string;
}

/**
 * Tag input (spec 5): Enter adds the typed text when it is not blank and fewer than `maxTags` tags
 * exist (each up to `maxTagLength` characters); Backspace or Delete with the caret at the start
 * removes the last tag. IME composition (Chinese input) is respected.
 * @example <TagInput value={tags} onChange={setTags} />
 */
export function TagInput({ value, onChange, onBlur, maxTags = TAG_DEFAULTS.maxTags, maxTagLength = TAG_DEFAULTS.maxTagLength, placeholder, disabled, readOnly, className, ...rest }: TagInputProps) {
  const { t } = useTranslation('kit');
  const [text, setText] = useState('');
  const [notice, setNotice] = useState<TagRejection | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const tags = value ?? [];
  const limits = { maxTags, maxTagLength };
  const locked = disabled || readOnly;

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      const r = addTag(tags, text, limits);
      if (r.added) {
        onChange(r.tags);
        setText('');
        setNotice(null);
      } else setNotice(r.reason === 'blank' ? null : r.reason);
      return;
    }
    const el = e.currentTarget;
    if (tags.length > 0 && removesLastTag(e.key, el.selectionStart, el.selectionEnd)) {
      e.preventDefault();
      onChange(removeLastTag(tags));
      setNotice(null);
    }
  };

  const noticeText =
    notice === 'max' ? t('tags.maxReached', { max: maxTags }) : notice === 'tooLong' ? t('tags.tooLong', { max: maxTagLength }) : notice === 'duplicate' ? t('tags.duplicate') : null;

  return (
    <div className={cn(s.root, className)} data-slot="tag-input">
      <div
        className={s.box}
        data-invalid={isInvalid(rest) || undefined}
        data-disabled={disabled || undefined}
        onClick={() => input.current?.focus()}
      >
        {tags.map((tag, i) => (
          <span key={`${tag}-${i}`} className={s.tag} data-slot="tag">
            <span className={s.tagText}>{tag}</span>
            {!locked && (
              <button
                type="button"
                className={s.remove}
                aria-label={t('tags.remove', { tag })}
                onClick={(e) => {
                  e.stopPropagation();
                  onChange(removeTagAt(tags, i));
                }}
              >
                <X aria-hidden="true" />
              </button>
            )}
          </span>
        ))}
        <input
          ref={input}
          {...ariaOf(rest)}
          className={s.input}
          value={text}
          disabled={disabled}
          readOnly={readOnly}
          maxLength={maxTagLength}
          placeholder={tags.length === 0 ? (placeholder ?? t('tags.placeholder')) : canAddMore(tags, limits) ? '' : undefined}
          onChange={(e) => {
            setText(e.target.value);
            if (notice) setNotice(null);
          }}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
        />
        <span className={s.count} aria-hidden="true">
          {t('tags.count', { count: tags.length, max: maxTags })}
        </span>
      </div>
      {noticeText && (
        <p className={s.notice} role="status">
          {noticeText}
        </p>
      )}
    </div>
  );
}
