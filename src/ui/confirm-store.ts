/**
 * The store behind the imperative confirm(), without its Radix dialog (confirm-dialog.tsx): the app
 * loads the dialog on the first request (app-hosts.tsx).
 */
import type { ReactNode } from 'react';

export interface ConfirmOptions {
  title: ReactNode;
  description?: ReactNode;
  /** Destructive action: the confirm button is red. */
  danger?: boolean;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
}

// Imperative confirm(): one pending request at a time, rendered by <ConfirmHost />.
type Pending = { options: ConfirmOptions; open: boolean; resolve: (ok: boolean) => void };
let pending: Pending | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
export const subscribeConfirm = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function settle(ok: boolean) {
  if (!pending?.open) return;
  pending.resolve(ok);
  pending = { ...pending, open: false };
  emit();
}

/**
 * Asks for confirmation; resolves `true` on confirm, `false` on cancel/Esc. Needs one <ConfirmHost /> mounted (or its stand-in, app-hosts.tsx, which loads it on the first request).
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

/** The request being shown (or closing), if any. */
export const getPending = (): Pending | null => pending;
