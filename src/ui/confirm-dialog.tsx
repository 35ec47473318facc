import { AlertDialog } from 'radix-ui';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Button } from './button';
import s from './dialog.module.css';
import { getPending, settle, subscribeConfirm, type ConfirmOptions } from './confirm-store';
import { useUiLabels } from './ui-labels';

export { confirm, type ConfirmOptions } from './confirm-store';

export interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** May return a promise: the button spins and the dialog stays open until it settles; a rejection keeps it open. */
  onConfirm: () => void | Promise<unknown>;
}

/**
 * Controlled confirmation (Radix AlertDialog: focus starts on Cancel, Esc cancels).
 * @example <ConfirmDialog open={open} onOpenChange={setOpen} danger title="Delete app?" onConfirm={() => remove(id)} />
 */
export function ConfirmDialog({ open, onOpenChange, onConfirm, title, description, danger, confirmLabel, cancelLabel }: ConfirmDialogProps) {
  const words = useUiLabels();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // the caller reports the failure (toast); keep the dialog open to retry or cancel
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay data-slot="dialog-overlay" className={s.overlay} />
        <AlertDialog.Content
          data-slot="confirm-dialog"
          className={`${s.content} ${s.sm}`}
          {...(description == null ? { 'aria-describedby': undefined } : {})}
        >
          <div className={s.header}>
            <AlertDialog.Title className={s.title}>{title}</AlertDialog.Title>
            {description != null && <AlertDialog.Description className={s.description}>{description}</AlertDialog.Description>}
          </div>
          <div className={s.footer}>
            <AlertDialog.Cancel asChild>
              <Button disabled={busy}>{cancelLabel ?? words.cancel}</Button>
            </AlertDialog.Cancel>
            <Button variant={danger ? 'danger' : 'primary'} loading={busy} onClick={run} data-slot="confirm-dialog-action">
              {confirmLabel ?? words.confirm}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export interface ConfirmHostProps {
  /** Default labels for every confirm() (pass translated strings here). */
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
}

/** Renders confirm() requests. Mount once near the app root, beside <Toaster />. */
export function ConfirmHost({ confirmLabel, cancelLabel }: ConfirmHostProps) {
  const current = useSyncExternalStore(subscribeConfirm, getPending, () => null);
  if (!current) return null;
  return (
    <ConfirmDialog
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      {...current.options}
      open={current.open}
      onOpenChange={(o) => !o && settle(false)}
      onConfirm={() => settle(true)}
    />
  );
}
