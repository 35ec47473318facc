/**
 * A menu whose code (Radix's menu, popper and focus handling: about 20 KB gzip) loads when the user
 * first reaches for it: pointer over its button or focus start loading it; a press (pointer down, as
 * Radix opens on), a click, Enter, Space or ArrowDown loads it and opens it. Until then a stand-in
 * button with the same look shows. Used by the top bar, so that
 * a page's first load (the portal's discover) carries none of it.
 *
 * @example
 * const loadUserMenu = lazyWithReload(async () => (await import('./user-menu')).UserMenu);
 * <DeferredMenu load={loadUserMenu} props={{ user, … }} trigger={<UserMenuButton user={user} />} />
 */
import { cloneElement, useLayoutEffect, useRef, useState, type ComponentType, type KeyboardEvent, type PointerEvent, type ReactElement } from 'react';

type Loader<P> = () => Promise<ComponentType<P & { defaultOpen?: boolean }>>;

/** Menus loaded so far (a later top bar shows them at once). */
const loaded = new Map<Loader<never>, ComponentType<never>>();

interface TriggerProps {
  onPointerEnter?: () => void;
  onPointerDown?: (e: PointerEvent) => void;
  onFocus?: () => void;
  onClick?: () => void;
  onKeyDown?: (e: KeyboardEvent) => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
}

export interface DeferredMenuProps<P> {
  /** Loads the menu component (a stable function: keep it at module level). */
  load: Loader<P>;
  props: P;
  /** The stand-in: the menu's own button, without the menu. */
  trigger: ReactElement<TriggerProps>;
}

export function DeferredMenu<P extends object>({ load, props, trigger }: DeferredMenuProps<P>) {
  const [Menu, setMenu] = useState(() => loaded.get(load as Loader<never>) as ComponentType<P & { defaultOpen?: boolean }> | undefined);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  // The menu's trigger replaces the stand-in: a keyboard user who was on the stand-in stays on the button.
  const refocus = useRef(false);
  useLayoutEffect(() => {
    if (Menu && refocus.current && !open) box.current?.querySelector<HTMLElement>('button')?.focus();
    refocus.current = false;
  }, [Menu, open]);
  if (Menu)
    return (
      <span ref={box} style={{ display: 'contents' }}>
        <Menu {...props} defaultOpen={open} />
      </span>
    );
  const start = () => {
    load().then(
      (C) => {
        loaded.set(load as Loader<never>, C as ComponentType<never>);
        refocus.current = !!box.current && box.current.contains(document.activeElement);
        setMenu(() => C);
      },
      () => setOpen(false),
    );
  };
  const ask = () => {
    setOpen(true);
    start();
  };
  return (
    <span ref={box} style={{ display: 'contents' }}>
      {cloneElement(trigger, {
        onPointerEnter: start,
        onFocus: start,
        onPointerDown: (e: PointerEvent) => {
          // Radix opens on the press of the main button; the click that follows would land on the menu's own trigger.
          if (e.button === 0 && e.pointerType === 'mouse') ask();
        },
        onClick: ask,
        onKeyDown: (e: KeyboardEvent) => {
          if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
            e.preventDefault();
            ask();
          }
        },
        'aria-haspopup': 'menu',
        'aria-expanded': false,
      })}
    </span>
  );
}
