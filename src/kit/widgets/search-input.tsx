import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '../../ui/input';
import type { ControlAria } from './types';
import { ariaOf } from './types';
import s from './widgets.module.css';

/** Spec 9: search boxes wait 500 ms after the last key. */
export const SEARCH_DEBOUNCE_MS = 500;

export interface SearchInputProps extends ControlAria {
  value: string | undefined;
  /** Called `debounceMs` after typing stops, at once on Enter or clear. */
  onChange: (value: string) => void;
  debounceMs?: number;
  placeholder?: string;
  disabled?: boolean;
  size?: 'sm' | 'md';
  className?: string;
}

/**
 * A search box with a debounced `onChange` and a clear button.
 * @example <SearchInput value={q.name} onChange={(name) => setQ({ ...q, name, page: 1 })} />
 */
export function SearchInput({ value, onChange, debounceMs = SEARCH_DEBOUNCE_MS, placeholder, disabled, size = 'md', className, ...rest }: SearchInputProps) {
  const { t } = useTranslation('kit');
  const [text, setText] = useState(value ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => setText(value ?? ''), [value]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const fire = (v: string, now = false) => {
    if (timer.current) clearTimeout(timer.current);
    if (now) latest.current(v);
    else timer.current = setTimeout(() => latest.current(v), debounceMs);
  };
  return (
    <Input
      {...ariaOf(rest)}
      type="search"
      size={size}
      className={className}
      value={text}
      disabled={disabled}
      placeholder={placeholder ?? t('search.placeholder')}
      aria-label={rest['aria-label'] ?? placeholder ?? t('search.placeholder')}
      prefix={<Search aria-hidden="true" width={14} height={14} />}
      suffix={
        text ? (
          <button
            type="button"
            className={s.iconButton}
            aria-label={t('search.clear')}
            onClick={() => {
              setText('');
              fire('', true);
            }}
          >
            <X aria-hidden="true" />
          </button>
        ) : undefined
      }
      onChange={(e) => {
        setText(e.target.value);
        fire(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') fire(text, true);
      }}
    />
  );
}
