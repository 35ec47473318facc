import { Slot } from 'radix-ui';
import { useId, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import { cn } from './cn';
import { Label } from './label';
import s from './field.module.css';

export interface FieldProps extends Omit<ComponentProps<'div'>, 'children'> {
  label?: ReactNode;
  /** Hint under the control; hidden while there is an error. */
  help?: ReactNode;
  /** Error message; marks the control aria-invalid and links it by aria-describedby. */
  error?: ReactNode;
  /** Shows the asterisk on the label. */
  required?: boolean;
  /** Id given to the control (generated when absent). */
  controlId?: string;
  /** 'vertical' (label above, default) or 'horizontal' (label left, `labelWidth` px wide). */
  layout?: 'vertical' | 'horizontal';
  labelWidth?: number;
  /** Exactly one control element (Input, Textarea, Select, Checkbox …); it receives id and aria props. */
  children: ReactElement;
}

/**
 * Label + control + help or error, wired for screen readers.
 * @example <Field label="Name" required error={errors.name?.message}><Input {...register('name')} /></Field>
 */
export function Field({
  label,
  help,
  error,
  required,
  controlId,
  layout = 'vertical',
  labelWidth = 120,
  className,
  style,
  children,
  ...props
}: FieldProps) {
  const autoId = useId();
  const id = controlId ?? `field-${autoId}`;
  const hasError = error != null && error !== false && error !== '';
  const messageId = hasError ? `${id}-error` : help ? `${id}-help` : undefined;
  return (
    <div
      data-slot="field"
      data-invalid={hasError || undefined}
      className={cn(s.field, layout === 'horizontal' && s.horizontal, className)}
      style={layout === 'horizontal' ? { gridTemplateColumns: `${labelWidth}px minmax(0, 1fr)`, ...style } : style}
      {...props}
    >
      {label != null && (
        <Label htmlFor={id} required={required} className={s.label}>
          {label}
        </Label>
      )}
      <div className={s.control}>
        <Slot.Root id={id} aria-describedby={messageId} aria-invalid={hasError || undefined} aria-required={required || undefined}>
          {children}
        </Slot.Root>
        {hasError ? (
          <p id={messageId} data-slot="field-error" role="alert" className={s.error}>
            {error}
          </p>
        ) : help ? (
          <p id={messageId} data-slot="field-help" className={s.help}>
            {help}
          </p>
        ) : null}
      </div>
    </div>
  );
}
