import { Toast as Radix } from 'radix-ui';
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { cn } from './cn';
import s from './toast.module.css';
import { useUiLabels } from './ui-labels';
import { getToasts, setToasts, subscribeToasts } from './toast-store';

export { toast, type ToastKind, type ToastOptions } from './toast-store';

const icons = { success: CircleCheck, error: CircleAlert, warning: TriangleAlert, info: Info } as const;

export interface ToasterProps {
  /** Default 'bottom-right'. */
  position?: 'bottom-right' | 'top-center';
  /** Default duration in ms (3000). */
  duration?: number;
  /** Accessible label of each close button. */
  closeLabel?: string;
  /** Accessible label of the region; the F8 hotkey hint is added after it. */
  label?: string;
}

/** Mount once near the app root. */
export function Toaster({ position = 'bottom-right', duration = 3000, closeLabel: givenClose, label: givenLabel }: ToasterProps) {
  const words = useUiLabels();
  const closeLabel = givenClose ?? words.close;
  const label = givenLabel ?? words.notifications;
  const list = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
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
            onOpenChange={(open) => !open && setToasts(getToasts().map((x) => (x.id === t.id ? { ...x, open } : x)))}
            onAnimationEnd={() => !t.open && setToasts(getToasts().filter((x) => x.id !== t.id))}
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
      {/* The region's own label: Radix's default is the English "Notifications ({hotkey})". */}
      <Radix.Viewport label={`${label} ({hotkey})`} className={cn(s.viewport, position === 'top-center' ? s.topCenter : s.bottomRight)} />
    </Radix.Provider>
  );
}
