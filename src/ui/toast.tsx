import { Toast as Radix } from 'radix-ui';
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { useSyncExternalStore, type ReactNode } from 'react';
import { cn } from './cn';
import s from './toast.module.css';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export interface ToastOptions {
  description?: ReactNode;
  /** ms before auto-dismiss; default 3000 (spec: error toast 3 s). `Infinity` keeps it. */
  duration?: number;
}
interface ToastItem extends ToastOptions {
  id: number;
  kind: ToastKind;
  message: ReactNode;
  open: boolean;
}

const MAX_VISIBLE = 5;
let items: ToastItem[] = [];
let seq = 0;
const listeners = new Set<() => void>();
const set = (next: ToastItem[]) => {
  items = next;
  listeners.forEach((l) => l());
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

function show(kind: ToastKind, message: ReactNode, opts: ToastOptions = {}): number {
  const id = ++seq;
  set([...items.filter((t) => t.open).slice(-(MAX_VISIBLE - 1)), { id, kind, message, open: true, ...opts }]);
  return id;
}

/**
 * Imperative notifications rendered by <Toaster />. Each call returns an id for `toast.dismiss(id)`.
 * @example toast.success(t('common.saved')); toast.error(err.msg, { description: err.code });
 */
export const toast = {
  success: (message: ReactNode, opts?: ToastOptions) => show('success', message, opts),
  error: (message: ReactNode, opts?: ToastOptions) => show('error', message, opts),
  warning: (message: ReactNode, opts?: ToastOptions) => show('warning', message, opts),
  info: (message: ReactNode, opts?: ToastOptions) => show('info', message, opts),
  /** Closes one toast, or all without an id. */
  dismiss: (id?: number) => set(items.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t))),
};

const icons = { success: CircleCheck, error: CircleAlert, warning: TriangleAlert, info: Info } as const;

export interface ToasterProps {
  /** Default 'bottom-right'. */
  position?: 'bottom-right' | 'top-center';
  /** Default duration in ms (3000). */
  duration?: number;
  /** Accessible label of each close button. */
  closeLabel?: string;
  /** Accessible label of the region (Radix appends the F8 hotkey hint). */
  label?: string;
}

/** Mount once near the app root. */
export function Toaster({ position = 'bottom-right', duration = 3000, closeLabel = 'Close', label = 'Notifications' }: ToasterProps) {
  const list = useSyncExternalStore(subscribe, () => items, () => items);
  return (
    <Radix.Provider duration={duration} label={label} swipeDirection={position === 'top-center' ? 'up' : 'right'}>
      {list.map((t) => {
        const Icon = icons[t.kind];
        return (
          <Radix.Root
            key={t.id}
            data-slot="toast"
            data-kind={t.kind}
            type={t.kind === 'error' ? 'foreground' : 'background'}
            open={t.open}
            duration={t.duration}
            onOpenChange={(open) => !open && set(items.map((x) => (x.id === t.id ? { ...x, open } : x)))}
            onAnimationEnd={() => !t.open && set(items.filter((x) => x.id !== t.id))}
            className={s.toast}
          >
            <Icon className={s.icon} aria-hidden="true" />
            <div className={s.text}>
              <Radix.Title className={s.title}>{t.message}</Radix.Title>
              {t.description != null && <Radix.Description className={s.description}>{t.description}</Radix.Description>}
            </div>
            <Radix.Close className={s.close} aria-label={closeLabel}>
              <X aria-hidden="true" />
            </Radix.Close>
          </Radix.Root>
        );
      })}
      <Radix.Viewport className={cn(s.viewport, position === 'top-center' ? s.topCenter : s.bottomRight)} />
    </Radix.Provider>
  );
}
