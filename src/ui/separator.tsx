import { Separator as Radix } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './separator.module.css';

/** A 1 px rule. `decorative` (default true) hides it from screen readers. */
export function Separator({ orientation = 'horizontal', decorative = true, className, ...props }: ComponentProps<typeof Radix.Root>) {
  return (
    <Radix.Root
      data-slot="separator"
      orientation={orientation}
      decorative={decorative}
      className={cn(s.separator, className)}
      {...props}
    />
  );
}
