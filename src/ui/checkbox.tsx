import { Checkbox as RadixCheckbox } from 'radix-ui';
import { Check, Minus } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './checkbox.module.css';

export type CheckboxProps = ComponentProps<typeof RadixCheckbox.Root>;

/**
 * Radix checkbox. `checked` is `true | false | 'indeterminate'` (controlled) or use `defaultChecked`.
 * Pair with <Label htmlFor> or wrap in <Field>.
 * @example <Checkbox checked={all ? true : some ? 'indeterminate' : false} onCheckedChange={toggleAll} aria-label="Select all" />
 */
export function Checkbox({ className, ...props }: CheckboxProps) {
  return (
    <RadixCheckbox.Root data-slot="checkbox" className={cn(s.root, className)} {...props}>
      <RadixCheckbox.Indicator data-slot="checkbox-indicator" className={s.indicator}>
        <Check className={s.check} strokeWidth={3} aria-hidden="true" />
        <Minus className={s.minus} strokeWidth={3} aria-hidden="true" />
      </RadixCheckbox.Indicator>
    </RadixCheckbox.Root>
  );
}
