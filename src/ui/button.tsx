import { Slot } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';
import s from './button.module.css';

const variants = {
  primary: s.primary,
  secondary: s.secondary,
  ghost: s.ghost,
  danger: s.danger,
  link: s.link,
} as const;
const sizes = { sm: s.sm, md: s.md } as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

export interface ButtonProps extends ComponentProps<'button'> {
  /** Default 'secondary'. */
  variant?: ButtonVariant;
  /** Default 'md' (32 px); 'sm' is 28 px. */
  size?: ButtonSize;
  /** Shows a spinner in place of the icon, disables the button, sets aria-busy. */
  loading?: boolean;
  /** Square button holding only an icon; give it an aria-label. */
  iconOnly?: boolean;
  /** Icon rendered before the label. */
  icon?: ReactNode;
  /** Render the single child (e.g. a router <Link>) with the button's look. */
  asChild?: boolean;
}

/** Class names of a button, for elements that cannot use <Button asChild>. */
export function buttonClass(opts: { variant?: ButtonVariant; size?: ButtonSize; iconOnly?: boolean } = {}) {
  const { variant = 'secondary', size = 'md', iconOnly = false } = opts;
  return cn(s.button, variants[variant], sizes[size], iconOnly && s.iconOnly);
}

/**
 * @example <Button variant="primary" icon={<Plus />} onClick={create}>Create</Button>
 * @example <Button iconOnly aria-label="More" variant="ghost"><Ellipsis /></Button>
 */
export function Button({
  variant = 'secondary',
  size = 'md',
  loading = false,
  iconOnly = false,
  icon,
  asChild = false,
  disabled,
  type = 'button',
  className,
  children,
  ...props
}: ButtonProps) {
  const classes = cn(buttonClass({ variant, size, iconOnly }), className);
  if (asChild) {
    return (
      <Slot.Root data-slot="button" data-variant={variant} className={classes} {...props}>
        {children}
      </Slot.Root>
    );
  }
  const lead = loading ? <Spinner size={size === 'sm' ? 12 : 14} label="" /> : icon;
  return (
    <button
      data-slot="button"
      data-variant={variant}
      data-loading={loading || undefined}
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={classes}
      {...props}
    >
      {iconOnly && loading ? lead : iconOnly ? children : (
        <>
          {lead}
          {children}
        </>
      )}
    </button>
  );
}
