import { Label as RadixLabel } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './label.module.css';

export interface LabelProps extends ComponentProps<typeof RadixLabel.Root> {
  /** Shows a red asterisk (decorative; mark the control itself `required`). */
  required?: boolean;
}

/** A form label (Radix Label: clicking it focuses the control named by `htmlFor`). */
export function Label({ required, className, children, ...props }: LabelProps) {
  return (
    <RadixLabel.Root data-slot="label" className={cn(s.label, className)} {...props}>
      {children}
      {required && (
        <span aria-hidden="true" className={s.required}>
          *
        </span>
      )}
    </RadixLabel.Root>
  );
}
