import { DropdownMenu as Radix } from 'radix-ui';
import { Check, ChevronRight } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import popup from './popup.module.css';
import s from './dropdown-menu.module.css';

export const DropdownMenu = Radix.Root;
export const DropdownMenuTrigger = Radix.Trigger;
export const DropdownMenuGroup = Radix.Group;
export const DropdownMenuSub = Radix.Sub;
export const DropdownMenuRadioGroup = Radix.RadioGroup;

/**
 * When an item opened a dialog, the menu must not hand focus back to its trigger as it finishes closing:
 * that late focus move (after the exit animation) pulled focus out of the dialog's first field and lost
 * the keys a user had started typing. Focus stays where the dialog put it.
 */
function keepDialogFocus(event: Event) {
  if (document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')) event.preventDefault();
}

export function DropdownMenuContent({ className, sideOffset = 4, align = 'start', onCloseAutoFocus, ...props }: ComponentProps<typeof Radix.Content>) {
  return (
    <Radix.Portal>
      <Radix.Content
        data-slot="dropdown-menu-content"
        sideOffset={sideOffset}
        align={align}
        className={cn(popup.popup, s.content, className)}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (!event.defaultPrevented) keepDialogFocus(event);
        }}
        {...props}
      />
    </Radix.Portal>
  );
}

export interface DropdownMenuItemProps extends ComponentProps<typeof Radix.Item> {
  /** 'danger' paints the item red (delete, remove). */
  variant?: 'default' | 'danger';
  icon?: ReactNode;
  /** Right-aligned hint such as a shortcut. */
  shortcut?: ReactNode;
}

/** A menu item; `onSelect` runs on click or Enter. */
export function DropdownMenuItem({ variant = 'default', icon, shortcut, className, children, ...props }: DropdownMenuItemProps) {
  return (
    <Radix.Item data-slot="dropdown-menu-item" data-variant={variant} className={cn(popup.item, s.item, className)} {...props}>
      {icon}
      <span className={s.text}>{children}</span>
      {shortcut != null && <span className={s.shortcut}>{shortcut}</span>}
    </Radix.Item>
  );
}

export function DropdownMenuCheckboxItem({ className, children, ...props }: ComponentProps<typeof Radix.CheckboxItem>) {
  return (
    <Radix.CheckboxItem data-slot="dropdown-menu-checkbox-item" className={cn(popup.item, s.item, s.inset, className)} {...props}>
      <Radix.ItemIndicator className={s.indicator}>
        <Check aria-hidden="true" />
      </Radix.ItemIndicator>
      <span className={s.text}>{children}</span>
    </Radix.CheckboxItem>
  );
}

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof Radix.RadioItem>) {
  return (
    <Radix.RadioItem data-slot="dropdown-menu-radio-item" className={cn(popup.item, s.item, s.inset, className)} {...props}>
      <Radix.ItemIndicator className={s.indicator}>
        <span className={s.dot} />
      </Radix.ItemIndicator>
      <span className={s.text}>{children}</span>
    </Radix.RadioItem>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Radix.Label>) {
  return <Radix.Label data-slot="dropdown-menu-label" className={cn(popup.groupLabel, className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Radix.Separator>) {
  return <Radix.Separator data-slot="dropdown-menu-separator" className={cn(popup.separator, className)} {...props} />;
}

export function DropdownMenuSubTrigger({ icon, className, children, ...props }: ComponentProps<typeof Radix.SubTrigger> & { icon?: ReactNode }) {
  return (
    <Radix.SubTrigger data-slot="dropdown-menu-sub-trigger" className={cn(popup.item, s.item, className)} {...props}>
      {icon}
      <span className={s.text}>{children}</span>
      <ChevronRight aria-hidden="true" className={s.chevron} />
    </Radix.SubTrigger>
  );
}

export function DropdownMenuSubContent({ className, ...props }: ComponentProps<typeof Radix.SubContent>) {
  return (
    <Radix.Portal>
      <Radix.SubContent data-slot="dropdown-menu-sub-content" className={cn(popup.popup, s.content, className)} {...props} />
    </Radix.Portal>
  );
}
