import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './badge.module.css';

const variants = {
  neutral: s.neutral,
  primary: s.primary,
  success: s.success,
  warning: s.warning,
  danger: s.danger,
  info: s.info,
} as const;
export type BadgeVariant = keyof typeof variants;

export interface BadgeProps extends ComponentProps<'span'> {
  /** Default 'neutral'. */
  variant?: BadgeVariant;
  /** A leading status dot. */
  dot?: boolean;
  /** 'outline' draws a border instead of the tinted fill. */
  appearance?: 'soft' | 'outline';
}

/**
 * Small status or count label.
 * @example <Badge variant="success" dot>Published</Badge>
 */
export function Badge({ variant = 'neutral', dot, appearance = 'soft', className, children, ...props }: BadgeProps) {
  return (
    <span
      data-slot="badge"
      data-variant={variant}
      className={cn(s.badge, variants[variant], appearance === 'outline' && s.outline, className)}
      {...props}
    >
      {dot && <span className={s.dot} aria-hidden="true" />}
      {children}
    </span>
  );
}
