import { ScrollArea as Radix } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './scroll-area.module.css';

export interface ScrollAreaProps extends ComponentProps<typeof Radix.Root> {
  /** Which scrollbars to draw. Default 'vertical'. */
  scrollbars?: 'vertical' | 'horizontal' | 'both';
  /** Class of the scrolling viewport. */
  viewportClassName?: string;
}

/**
 * Overlay scrollbars that look the same on every OS. Give the root a height (or max-height).
 * @example <ScrollArea style={{ height: 320 }}>{items}</ScrollArea>
 */
export function ScrollArea({ scrollbars = 'vertical', viewportClassName, className, children, ...props }: ScrollAreaProps) {
  return (
    <Radix.Root data-slot="scroll-area" className={cn(s.root, className)} {...props}>
      <Radix.Viewport data-slot="scroll-area-viewport" className={cn(s.viewport, viewportClassName)}>
        {children}
      </Radix.Viewport>
      {scrollbars !== 'horizontal' && (
        <Radix.Scrollbar orientation="vertical" className={s.scrollbar}>
          <Radix.Thumb className={s.thumb} />
        </Radix.Scrollbar>
      )}
      {scrollbars !== 'vertical' && (
        <Radix.Scrollbar orientation="horizontal" className={s.scrollbar}>
          <Radix.Thumb className={s.thumb} />
        </Radix.Scrollbar>
      )}
      <Radix.Corner />
    </Radix.Root>
  );
}
