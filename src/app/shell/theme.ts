/**
 * Light or dark theme: `<html data-theme>` (tokens.css reads it), chosen in the user menu and kept in
 * localStorage `weft.theme`. Without a saved choice the system preference decides.
 */
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'weft.theme';

function readSaved(): Theme | null {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const listeners = new Set<() => void>();

/** The theme in effect (saved choice, else the system's). */
export function currentTheme(): Theme {
  if (typeof document !== 'undefined') {
    const v = document.documentElement.dataset.theme;
    if (v === 'light' || v === 'dark') return v;
  }
  return readSaved() ?? systemTheme();
}

/** Puts the saved (or system) theme on `<html>`; call once at start-up. */
export function applyInitialTheme(): Theme {
  const theme = readSaved() ?? systemTheme();
  document.documentElement.dataset.theme = theme;
  return theme;
}

/** Switches the theme and saves the choice. */
export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage unavailable: the switch still applies to this page.
  }
  document.documentElement.dataset.theme = theme;
  listeners.forEach((l) => l());
}

/** The current theme, re-rendering when it changes. */
export function useTheme(): Theme {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    currentTheme,
    () => 'light' as Theme,
  );
}
