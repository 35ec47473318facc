import { AlertDialog } from 'radix-ui';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Button } from './button';
import s from './dialog.module.css';

export interface ConfirmOptions {
  title: ReactNode;
  description?: ReactNode;
  /** Destructive action: the confirm button is red. */
  danger?: boolean;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
}

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
export function ConfirmDialog({ open, onOpenChange, onConfirm, title, description, danger, confirmLabel = 'Confirm', cancelLabel = 'Cancel' }: ConfirmDialogProps) {
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
              <Button disabled={busy}>{cancelLabel}</Button>
            </AlertDialog.Cancel>
            <Button variant={danger ? 'danger' : 'primary'} loading={busy} onClick={run} data-slot="confirm-dialog-action">
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

// Imperative confirm(): one pending request at a time, rendered by <ConfirmHost />.
type Pending = { options: ConfirmOptions; open: boolean; resolve: (ok: boolean) => void };
let pending: Pending | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

function settle(ok: boolean) {
  if (!pending?.open) return;
  pending.resolve(ok);
  pending = { ...pending, open: false };
  emit();
}

/**
 * Asks for confirmation; resolves `true` on confirm, `false` on cancel/Esc. Needs one <ConfirmHost /> mounted.
 * @example if (await confirm({ title: t('app.deleteTitle'), description: name, danger: true })) await deleteApp(id);
 */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  if (listeners.size === 0) {
    console.warn('confirm(): no <ConfirmHost /> is mounted');
    return Promise.resolve(false);
  }
  if (pending?.open) pending.resolve(false);
  return new Promise((resolve) => {
    pending = { options, open: true, resolve };
    emit();
  });
}

export interface ConfirmHostProps {
  /** Default labels for every confirm() (pass translated strings here). */
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
}

/** Renders confirm() requests. Mount once near the app root, beside <Toaster />. */
export function ConfirmHost({ confirmLabel, cancelLabel }: ConfirmHostProps) {
  const current = useSyncExternalStore(subscribe, () => pending, () => null);
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
