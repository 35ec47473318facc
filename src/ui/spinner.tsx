import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './spinner.module.css';
import { useUiLabels } from './ui-labels';

export interface SpinnerProps extends Omit<ComponentProps<'span'>, 'children'> {
  /** Diameter in px. Default 16. */
  size?: number;
  /** Accessible label announced to screen readers. Default: the app's word for loading (ui-labels.ts). Pass '' inside a labelled control. */
  label?: string;
}

/** Indeterminate circular progress. Inherits `currentColor`. */
export function Spinner({ size = 16, label: given, className, style, ...props }: SpinnerProps) {
  const words = useUiLabels();
  const label = given ?? words.loading;
  return (
    <span
      data-slot="spinner"
      role={label ? 'status' : undefined}
      aria-label={label || undefined}
      aria-hidden={label ? undefined : true}
      className={cn(s.spinner, className)}
      style={{ width: size, height: size, ...style }}
      {...props}
    />
  );
}
