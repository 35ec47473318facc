import { Dialog as Radix } from 'radix-ui';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './dialog.module.css';
import { useUiLabels } from './ui-labels';

export const Dialog = Radix.Root;
export const DialogTrigger = Radix.Trigger;
export const DialogClose = Radix.Close;

const sizes = { sm: s.sm, md: s.md, lg: s.lg, xl: s.xl } as const;
export type DialogSize = keyof typeof sizes;

export interface DialogContentProps extends ComponentProps<typeof Radix.Content> {
  /** Width: sm 400, md 520 (default), lg 720, xl 960 px. */
  size?: DialogSize;
  /** Hide the top-right close button. */
  hideClose?: boolean;
  /** Accessible label of the close button. Default: the app's word for close (ui-labels.ts). */
  closeLabel?: string;
}

/**
 * The modal panel (overlay + portal included). Always render a <DialogTitle>; add a <DialogDescription>
 * or pass `aria-describedby={undefined}` when there is none.
 * @example
 * <Dialog open={open} onOpenChange={setOpen}>
 *   <DialogContent>
 *     <DialogHeader><DialogTitle>Rename</DialogTitle><DialogDescription>…</DialogDescription></DialogHeader>
 *     <DialogBody>…</DialogBody>
 *     <DialogFooter><DialogClose asChild><Button>Cancel</Button></DialogClose><Button variant="primary">Save</Button></DialogFooter>
 *   </DialogContent>
 * </Dialog>
 */
export function DialogContent({ size = 'md', hideClose, closeLabel, className, children, ...props }: DialogContentProps) {
  const labels = useUiLabels();
  return (
    <Radix.Portal>
      <Radix.Overlay data-slot="dialog-overlay" className={s.overlay} />
      <Radix.Content data-slot="dialog-content" className={cn(s.content, sizes[size], className)} {...props}>
        {children}
        {!hideClose && (
          <Radix.Close className={s.close} aria-label={closeLabel ?? labels.close}>
            <X aria-hidden="true" />
          </Radix.Close>
        )}
      </Radix.Content>
    </Radix.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="dialog-header" className={cn(s.header, className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof Radix.Title>) {
  return <Radix.Title data-slot="dialog-title" className={cn(s.title, className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof Radix.Description>) {
  return <Radix.Description data-slot="dialog-description" className={cn(s.description, className)} {...props} />;
}

/** Scrolling middle part. */
export function DialogBody({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="dialog-body" className={cn(s.body, className)} {...props} />;
}

/** Right-aligned actions row. */
export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="dialog-footer" className={cn(s.footer, className)} {...props} />;
}
