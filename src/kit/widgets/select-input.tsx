import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Select, type SelectOption } from '../../ui/select';
import { isInvalid, type WidgetValueProps } from './types';
import s from './widgets.module.css';

export interface SelectInputProps extends WidgetValueProps<string | undefined | null> {
  /** Labels already translated. */
  options: SelectOption[];
  placeholder?: string;
  /** Shows a clear button while a value is chosen (optional fields). */
  clearable?: boolean;
  size?: 'sm' | 'md';
}

/**
 * A single choice (the Select primitive) with an optional clear button.
 * @example <SelectInput options={[{ value: 'mysql', label: 'MySQL' }]} value={type} onChange={setType} clearable />
 */
export function SelectInput({ value, onChange, onBlur, options, placeholder, clearable, size, disabled, readOnly, className, ...rest }: SelectInputProps) {
  const { t } = useTranslation('kit');
  const has = value !== undefined && value !== null && value !== '';
  return (
    <div className={s.selectWrap} data-slot="select-input">
      <Select
        id={rest.id}
        aria-label={rest['aria-label']}
        aria-describedby={rest['aria-describedby']}
        className={className}
        size={size}
        options={options}
        value={has ? String(value) : ''}
        placeholder={placeholder ?? t('select.placeholder')}
        invalid={isInvalid(rest)}
        disabled={disabled || readOnly}
        onValueChange={(v) => onChange(v)}
        onOpenChange={(open) => !open && onBlur?.()}
      />
      {clearable && has && !disabled && !readOnly && (
        <button type="button" className={s.clear} aria-label={t('select.clear')} onClick={() => onChange(undefined)}>
          <X aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
