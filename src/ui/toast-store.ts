/**
 * The toasts' store and the imperative `toast` API, without their Radix rendering (toast.tsx): any
 * module can notify without carrying the Toaster, which the app loads on the first toast (app-hosts.tsx).
 */
import type { ReactNode } from 'react';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export interface ToastOptions {
  description?: ReactNode;
  /** ms before auto-dismiss; default 3000 (spec: error toast 3 s). `Infinity` keeps it. */
  duration?: number;
}
export interface ToastItem extends ToastOptions {
  id: number;
  kind: ToastKind;
  message: ReactNode;
  open: boolean;
}

const MAX_VISIBLE = 5;
let items: ToastItem[] = [];
let seq = 0;
const listeners = new Set<() => void>();
export const setToasts = (next: ToastItem[]) => {
  items = next;
  listeners.forEach((l) => l());
};
export const subscribeToasts = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

function show(kind: ToastKind, message: ReactNode, opts: ToastOptions = {}): number {
  const id = ++seq;
  setToasts([...items.filter((t) => t.open).slice(-(MAX_VISIBLE - 1)), { id, kind, message, open: true, ...opts }]);
  return id;
}

/**
 * Imperative notifications rendered by <Toaster /> (toast.tsx). Each call returns an id for `toast.dismiss(id)`.
 * @example toast.success(t('common.saved')); toast.error(err.msg, { description: err.code });
 */
export const toast = {
  success: (message: ReactNode, opts?: ToastOptions) => show('success', message, opts),
  error: (message: ReactNode, opts?: ToastOptions) => show('error', message, opts),
  warning: (message: ReactNode, opts?: ToastOptions) => show('warning', message, opts),
  info: (message: ReactNode, opts?: ToastOptions) => show('info', message, opts),
  /** Closes one toast, or all without an id. */
  dismiss: (id?: number) => setToasts(items.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t))),
};

/** The toasts now in the store (open or closing). */
export const getToasts = (): readonly ToastItem[] => items;
