import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './textarea.module.css';

export interface TextareaProps extends ComponentProps<'textarea'> {
  /** Red border and aria-invalid. Also set by <Field error>. */
  invalid?: boolean;
  /** 'vertical' (default), 'none' or 'both'. */
  resize?: 'none' | 'vertical' | 'both';
}

/** Multi-line text input. `rows` defaults to 3. */
export function Textarea({ invalid, resize = 'vertical', rows = 3, className, style, ...props }: TextareaProps) {
  const isInvalid = invalid || props['aria-invalid'] === true || props['aria-invalid'] === 'true';
  return (
    <textarea
      data-slot="textarea"
      rows={rows}
      aria-invalid={isInvalid || undefined}
      className={cn(s.textarea, className)}
      style={{ resize, ...style }}
      {...props}
    />
  );
}
