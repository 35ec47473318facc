import { ChevronDown, Search, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../ui/checkbox';
import { cn } from '../../ui/cn';
import { Popover, PopoverContent, PopoverTrigger } from '../../ui/popover';
import type { SelectOption } from '../../ui/select';
import { ariaOf, isInvalid, type WidgetValueProps } from './types';
import s from './multi-select.module.css';

export interface MultiSelectProps extends WidgetValueProps<string[]> {
  /** Labels already translated (strings, so the list can be searched). */
  options: (SelectOption & { label: string })[];
  placeholder?: string;
  /** Chips shown in the box before '+N'. Default 3. */
  maxChips?: number;
  /** A search box shows above the list when there are more options than this. Default 8. */
  searchAbove?: number;
}

/**
 * Several choices from a list: chips in the box, a checkbox list in a popover.
 * @example <MultiSelect options={scenes} value={picked} onChange={setPicked} />
 */
export function MultiSelect({ value, onChange, onBlur, options, placeholder, maxChips = 3, searchAbove = 8, disabled, readOnly, className, ...rest }: MultiSelectProps) {
  const { t } = useTranslation('kit');
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const picked = value ?? [];
  const labelOf = useMemo(() => new Map(options.map((o) => [o.value, o.label])), [options]);
  const shown = query ? options.filter((o) => o.label.toLowerCase().includes(query.toLowerCase())) : options;
  const toggle = (v: string) => onChange(picked.includes(v) ? picked.filter((x) => x !== v) : [...picked, v]);
  const locked = disabled || readOnly;

  return (
    <Popover
      open={open && !locked}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) {
          setQuery('');
          onBlur?.();
        }
      }}
    >
      <PopoverTrigger asChild>
        <button
          type="button"
          {...ariaOf(rest)}
          data-slot="multi-select"
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-invalid={isInvalid(rest) || undefined}
          data-disabled={locked || undefined}
          disabled={disabled}
          className={cn(s.trigger, className)}
        >
          <span className={s.chips}>
            {picked.length === 0 && <span className={s.placeholder}>{placeholder ?? t('select.placeholder')}</span>}
            {picked.slice(0, maxChips).map((v) => (
              <span key={v} className={s.chip}>
                {labelOf.get(v) ?? v}
              </span>
            ))}
            {picked.length > maxChips && <span className={s.more}>+{picked.length - maxChips}</span>}
          </span>
          {picked.length > 0 && !locked ? (
            <span
              role="button"
              tabIndex={-1}
              aria-label={t('select.clear')}
              className={s.clear}
              onPointerDown={(e) => {
                e.preventDefault();
                e.stopPropagation();
                onChange([]);
              }}
            >
              <X aria-hidden="true" />
            </span>
          ) : (
            <ChevronDown aria-hidden="true" className={s.chevron} />
          )}
        </button>
      </PopoverTrigger>
      <PopoverContent className={s.content} style={{ width: 'var(--radix-popover-trigger-width)' }}>
        {options.length > searchAbove && (
          <label className={s.search}>
            <Search aria-hidden="true" />
            <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('select.search')} aria-label={t('select.search')} />
          </label>
        )}
        <div role="listbox" aria-multiselectable="true" className={s.list}>
          {shown.length === 0 && <p className={s.empty}>{t('select.noOptions')}</p>}
          {shown.map((o) => {
            const on = picked.includes(o.value);
            return (
              <label key={o.value} role="option" aria-selected={on} className={s.option} data-disabled={o.disabled || undefined}>
                <Checkbox checked={on} disabled={o.disabled} onCheckedChange={() => toggle(o.value)} />
                <span>{o.label}</span>
              </label>
            );
          })}
        </div>
        {picked.length > 0 && <p className={s.footer}>{t('select.selectedCount', { count: picked.length })}</p>}
      </PopoverContent>
    </Popover>
  );
}
