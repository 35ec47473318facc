import { useEffect, useState, type ReactNode } from 'react';
import { Input } from '../../ui/input';
import { ariaOf, isInvalid, type WidgetValueProps } from './types';

export interface NumberInputProps extends WidgetValueProps<number | undefined | null> {
  min?: number;
  max?: number;
  /** Whole numbers only (the keyboard's decimal point is refused). */
  integer?: boolean;
  placeholder?: string;
  suffix?: ReactNode;
}

const toText = (v: number | undefined | null) => (v === undefined || v === null || Number.isNaN(v) ? '' : String(v));

/**
 * A number box: keeps what is typed while it is not yet a number ('-', '1.'), reports a number or
 * `undefined` (blank). Range checks are the schema's.
 * @example <NumberInput value={port} onChange={setPort} min={1} max={65535} integer />
 */
export function NumberInput({ value, onChange, onBlur, min, max, integer, placeholder, disabled, readOnly, suffix, className, ...rest }: NumberInputProps) {
  const [text, setText] = useState(toText(value));
  useEffect(() => {
    // Follow outside changes (reset, server values) unless the text already means that number.
    setText((cur) => (cur !== '' && Number(cur) === value ? cur : toText(value)));
  }, [value]);
  const pattern = integer ? /^-?\d*$/ : /^-?\d*\.?\d*(e-?\d*)?$/i;
  return (
    <Input
      {...ariaOf(rest)}
      className={className}
      inputMode={integer ? 'numeric' : 'decimal'}
      value={text}
      invalid={isInvalid(rest)}
      placeholder={placeholder}
      disabled={disabled}
      readOnly={readOnly}
      suffix={suffix}
      aria-valuemin={min}
      aria-valuemax={max}
      onChange={(e) => {
        const next = e.target.value.trim();
        if (!pattern.test(next)) return;
        setText(next);
        if (next === '') onChange(undefined);
        else if (next !== '-' && !next.endsWith('.') && !Number.isNaN(Number(next))) onChange(Number(next));
      }}
      onBlur={() => {
        if (text === '-' || text.endsWith('.')) setText(toText(value));
        onBlur?.();
      }}
    />
  );
}
