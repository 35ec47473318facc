/**
 * The app-wide hosts of toasts and confirmations, loaded on first use: their Radix code (toast, alert
 * dialog, focus trap, scroll lock) is not in the first load of a page (issue 21: the portal's discover).
 * Each stand-in subscribes to its store at once, so a toast or confirm() asked for during start-up is
 * shown as soon as the host has loaded (confirm() also needs a subscriber to know a host is mounted).
 */
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { getPending, subscribeConfirm } from '../ui/confirm-store';
import { getToasts, subscribeToasts } from '../ui/toast-store';
import { lazyWithReload } from './guards';

const Toaster = lazy(lazyWithReload(async () => ({ default: (await import('../ui/toast')).Toaster })));
const ConfirmHost = lazy(lazyWithReload(async () => ({ default: (await import('../ui/confirm-dialog')).ConfirmHost })));

/** True from the first time `asked` is true (the host then stays, for its closing animations). */
function useLatch(asked: boolean): boolean {
  const [on, setOn] = useState(asked);
  if (asked && !on) setOn(true);
  return on || asked;
}

/** True once the browser is idle after the first paint (a timer where requestIdleCallback is missing). */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setIdle(true), { timeout: 3000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 500);
    return () => clearTimeout(id);
  }, []);
  return idle;
}

export function LazyToaster({ closeLabel, label }: { closeLabel: string; label: string }) {
  const any = useSyncExternalStore(subscribeToasts, () => getToasts().length > 0, () => false);
  // Also mounted once the page is idle: a toast's Radix layer mounted later than an open dialog's would
  // sit above it and take the dialog's Escape (the first toast, shown while its module loads).
  const idle = useIdle();
  if (!useLatch(any || idle)) return null;
  return (
    <Suspense fallback={null}>
      <Toaster closeLabel={closeLabel} label={label} />
    </Suspense>
  );
}

export function LazyConfirmHost({ confirmLabel, cancelLabel }: { confirmLabel: string; cancelLabel: string }) {
  const asked = useSyncExternalStore(subscribeConfirm, () => getPending() !== null, () => false);
  if (!useLatch(asked)) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmHost confirmLabel={confirmLabel} cancelLabel={cancelLabel} />
    </Suspense>
  );
}
