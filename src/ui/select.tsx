import { Select as RadixSelect } from 'radix-ui';
import { Check, ChevronDown } from 'lucide-react';
import type { ComponentProps, ReactNode, Ref } from 'react';
import { cn } from './cn';
import popup from './popup.module.css';
import s from './select.module.css';

export const SelectRoot = RadixSelect.Root;
export const SelectValue = RadixSelect.Value;
export const SelectGroup = RadixSelect.Group;

export interface SelectTriggerProps extends ComponentProps<typeof RadixSelect.Trigger> {
  size?: 'sm' | 'md';
  invalid?: boolean;
}

export function SelectTrigger({ size = 'md', invalid, className, children, ...props }: SelectTriggerProps) {
  return (
    <RadixSelect.Trigger
      data-slot="select-trigger"
      data-size={size}
      aria-invalid={invalid || props['aria-invalid'] || undefined}
      className={cn(s.trigger, className)}
      {...props}
    >
      <span className={s.value}>{children}</span>
      <RadixSelect.Icon className={s.icon}>
        <ChevronDown aria-hidden="true" />
      </RadixSelect.Icon>
    </RadixSelect.Trigger>
  );
}

export function SelectContent({ className, children, position = 'popper', ...props }: ComponentProps<typeof RadixSelect.Content>) {
  return (
    <RadixSelect.Portal>
      <RadixSelect.Content
        data-slot="select-content"
        position={position}
        sideOffset={4}
        className={cn(popup.popup, s.content, className)}
        {...props}
      >
        <RadixSelect.Viewport className={s.viewport}>{children}</RadixSelect.Viewport>
      </RadixSelect.Content>
    </RadixSelect.Portal>
  );
}

export function SelectItem({ className, children, ...props }: ComponentProps<typeof RadixSelect.Item>) {
  return (
    <RadixSelect.Item data-slot="select-item" className={cn(popup.item, s.item, className)} {...props}>
      <RadixSelect.ItemText>{children}</RadixSelect.ItemText>
      <RadixSelect.ItemIndicator className={s.check}>
        <Check aria-hidden="true" />
      </RadixSelect.ItemIndicator>
    </RadixSelect.Item>
  );
}

export function SelectLabel({ className, ...props }: ComponentProps<typeof RadixSelect.Label>) {
  return <RadixSelect.Label data-slot="select-label" className={cn(popup.groupLabel, className)} {...props} />;
}

export function SelectSeparator({ className, ...props }: ComponentProps<typeof RadixSelect.Separator>) {
  return <RadixSelect.Separator data-slot="select-separator" className={cn(popup.separator, className)} {...props} />;
}

export interface SelectOption {
  /** Non-empty string (Radix reserves '' for "no value"). */
  value: string;
  label: ReactNode;
  disabled?: boolean;
}

export interface SelectProps extends Omit<ComponentProps<typeof RadixSelect.Root>, 'children'> {
  options: SelectOption[];
  placeholder?: ReactNode;
  size?: 'sm' | 'md';
  invalid?: boolean;
  /** Goes on the trigger. */
  className?: string;
  id?: string;
  ref?: Ref<HTMLButtonElement>;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/**
 * Options-based select. For groups or custom items compose SelectRoot/SelectTrigger/SelectContent/SelectItem.
 * @example <Select value={role} onValueChange={setRole} options={[{ value: 'admin', label: 'Admin' }]} />
 */
export function Select({ options, placeholder, size, invalid, className, id, ref, ...rest }: SelectProps) {
  const { 'aria-label': ariaLabel, 'aria-describedby': describedBy, 'aria-invalid': ariaInvalid, ...root } = rest;
  return (
    <RadixSelect.Root {...root}>
      <SelectTrigger
        ref={ref}
        id={id}
        size={size}
        invalid={invalid || ariaInvalid}
        aria-label={ariaLabel}
        aria-describedby={describedBy}
        className={className}
      >
        <RadixSelect.Value placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </RadixSelect.Root>
  );
}
