import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import s from './input.module.css';

const sizes = { sm: s.sm, md: s.md } as const;
export type InputSize = keyof typeof sizes;

export interface InputProps extends Omit<ComponentProps<'input'>, 'prefix' | 'size'> {
  /** Content inside the box before the text (icon, unit, "https://"). */
  prefix?: ReactNode;
  /** Content inside the box after the text (icon, counter, clear button). */
  suffix?: ReactNode;
  /** Red border and aria-invalid. Also set by <Field error>. */
  invalid?: boolean;
  /** Default 'md' (32 px). */
  size?: InputSize;
  /** Class of the inner <input>; `className` goes on the outer box. */
  inputClassName?: string;
}

/**
 * A text input in a bordered box with optional prefix/suffix slots.
 * `ref` and every other prop go to the inner <input>.
 * @example <Input prefix={<Search />} placeholder="Search" value={q} onChange={(e) => setQ(e.target.value)} />
 */
export function Input({
  prefix,
  suffix,
  invalid,
  size = 'md',
  className,
  inputClassName,
  disabled,
  ...props
}: InputProps) {
  const isInvalid = invalid || props['aria-invalid'] === true || props['aria-invalid'] === 'true';
  return (
    <span
      data-slot="input-box"
      data-invalid={isInvalid || undefined}
      data-disabled={disabled || undefined}
      className={cn(s.box, sizes[size], className)}
    >
      {prefix != null && <span data-slot="input-prefix" className={s.affix}>{prefix}</span>}
      <input
        data-slot="input"
        disabled={disabled}
        aria-invalid={isInvalid || undefined}
        className={cn(s.input, inputClassName)}
        {...props}
      />
      {suffix != null && <span data-slot="input-suffix" className={s.affix}>{suffix}</span>}
    </span>
  );
}
