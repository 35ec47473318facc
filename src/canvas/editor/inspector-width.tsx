import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import s from './editor.module.css';

/** The inspector's width (px): 400 by default; from 320 up to 960, leaving the canvas 360 px. */
export const INSPECTOR_WIDTH = { initial: 400, min: 320, max: 960, canvasRoom: 360 } as const;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The widest the inspector may be in this window (never below the minimum). */
function maxWidth(): number {
  const room = typeof window === 'undefined' ? Infinity : window.innerWidth - INSPECTOR_WIDTH.canvasRoom;
  return Math.max(INSPECTOR_WIDTH.min, Math.min(INSPECTOR_WIDTH.max, room));
}

function readWidth(key: string): number {
  try {
    const saved = Number(localStorage.getItem(key));
    return saved ? clamp(saved, INSPECTOR_WIDTH.min, maxWidth()) : INSPECTOR_WIDTH.initial;
  } catch {
    return INSPECTOR_WIDTH.initial; // no storage (private mode, jsdom without it): the default
  }
}

/**
 * The inspector's width, remembered in localStorage under `storageKey` (the page makes it per user),
 * and the props of the handle on its left edge that changes it: drag, or the arrow keys as the code
 * editor's height handle (Shift for bigger steps, Home and End for the limits).
 */
export function useInspectorWidth(storageKey: string) {
  const { t } = useTranslation('editor');
  const [width, setWidthState] = useState(() => readWidth(storageKey));
  const latest = useRef(width);
  latest.current = width;

  const save = useCallback(() => {
    try {
      localStorage.setItem(storageKey, String(latest.current));
    } catch {
      // Not remembered; the width still applies on this page.
    }
  }, [storageKey]);
  const setWidth = (w: number) => {
    const next = clamp(Math.round(w), INSPECTOR_WIDTH.min, maxWidth());
    latest.current = next;
    setWidthState(next);
  };

  const drag = useRef<{ x: number; w: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, w: width };
  };
  // The handle is on the panel's left edge: moving it left widens the panel.
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setWidth(drag.current.w - (e.clientX - drag.current.x));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    save();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 80 : 16;
    if (e.key === 'ArrowLeft') setWidth(width + step);
    else if (e.key === 'ArrowRight') setWidth(width - step);
    else if (e.key === 'Home') setWidth(INSPECTOR_WIDTH.min);
    else if (e.key === 'End') setWidth(maxWidth());
    else return;
    e.preventDefault();
    // Arrow keys on the handle are its own, never the canvas's (nudging the selected node).
    e.stopPropagation();
    save();
  };

  const handle = (
    <div
      className={s.inspectorHandle}
      role="separator"
      aria-orientation="vertical"
      aria-label={t('inspector.resize')}
      aria-valuemin={INSPECTOR_WIDTH.min}
      aria-valuemax={maxWidth()}
      aria-valuenow={width}
      tabIndex={0}
      data-testid="inspector-resize"
      data-own-keys=""
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
  return { width, handle };
}
