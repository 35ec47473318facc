import { Tooltip as Radix } from 'radix-ui';
import type { ComponentProps, ReactElement, ReactNode } from 'react';
import { cn } from './cn';
import s from './tooltip.module.css';

/** Spec 9: tooltip debounce 50 ms. */
export const TOOLTIP_DELAY_MS = 50;

export interface TooltipProps extends Omit<ComponentProps<typeof Radix.Content>, 'content'> {
  /** The tip. When empty the trigger renders alone. */
  content: ReactNode;
  /** One focusable element (it becomes the trigger via asChild). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  delayDuration?: number;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * Hover/focus hint (Radix Tooltip with its own provider, 50 ms delay).
 * @example <Tooltip content="Copy"><Button iconOnly aria-label="Copy"><Copy /></Button></Tooltip>
 */
export function Tooltip({
  content,
  children,
  side = 'top',
  delayDuration = TOOLTIP_DELAY_MS,
  open,
  defaultOpen,
  onOpenChange,
  sideOffset = 6,
  className,
  ...props
}: TooltipProps) {
  if (content == null || content === false || content === '') return children;
  return (
    <Radix.Provider delayDuration={delayDuration} skipDelayDuration={300}>
      <Radix.Root open={open} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
        <Radix.Trigger asChild>{children}</Radix.Trigger>
        <Radix.Portal>
          <Radix.Content
            data-slot="tooltip-content"
            side={side}
            sideOffset={sideOffset}
            collisionPadding={8}
            className={cn(s.content, className)}
            {...props}
          >
            {content}
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </Radix.Provider>
  );
}
