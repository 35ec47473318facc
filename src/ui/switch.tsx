import { Switch as RadixSwitch } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './switch.module.css';

export interface SwitchProps extends ComponentProps<typeof RadixSwitch.Root> {
  /** Default 'md' (32×18); 'sm' is 26×14. */
  size?: 'sm' | 'md';
}

/** On/off toggle (Radix Switch, role="switch"). Use `checked` + `onCheckedChange`. */
export function Switch({ size = 'md', className, ...props }: SwitchProps) {
  return (
    <RadixSwitch.Root data-slot="switch" data-size={size} className={cn(s.root, className)} {...props}>
      <RadixSwitch.Thumb data-slot="switch-thumb" className={s.thumb} />
    </RadixSwitch.Root>
  );
}
