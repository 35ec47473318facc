import { Popover as Radix } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import popup from './popup.module.css';
import s from './popover.module.css';

export const Popover = Radix.Root;
export const PopoverTrigger = Radix.Trigger;
export const PopoverAnchor = Radix.Anchor;
export const PopoverClose = Radix.Close;

/**
 * Floating panel anchored to its trigger (portal included).
 * @example <Popover><PopoverTrigger asChild><Button>Filter</Button></PopoverTrigger><PopoverContent>…</PopoverContent></Popover>
 */
export function PopoverContent({ className, sideOffset = 6, align = 'start', ...props }: ComponentProps<typeof Radix.Content>) {
  return (
    <Radix.Portal>
      <Radix.Content
        data-slot="popover-content"
        sideOffset={sideOffset}
        align={align}
        className={cn(popup.popup, s.content, className)}
        {...props}
      />
    </Radix.Portal>
  );
}
