import type { KeyLike } from './types';

/**
 * Shortcut strings (`'Mod+Shift+Z'`, `'Delete'`) matched against keyboard events. `Mod` is Cmd on
 * a Mac and Ctrl elsewhere; modifiers must match exactly, so `Mod+Z` does not fire on
 * `Mod+Shift+Z`.
 */

export const isMacPlatform = (): boolean => {
  const nav = globalThis.navigator as (Navigator & { userAgentData?: { platform?: string } }) | undefined;
  const platform = nav?.userAgentData?.platform ?? nav?.platform ?? '';
  return /mac|iphone|ipad/i.test(platform);
};

interface ParsedShortcut {
  key: string;
  mod: boolean;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
}

function parse(shortcut: string): ParsedShortcut {
  const parts = shortcut.split('+');
  const key = parts.pop()!;
  const has = (m: string) => parts.some((p) => p.toLowerCase() === m);
  return { key: key.toLowerCase(), mod: has('mod'), shift: has('shift'), alt: has('alt'), ctrl: has('ctrl') };
}

/** Whether `event` is `shortcut` (letters also match by physical key, for non-Latin layouts). */
export function matchShortcut(shortcut: string, event: KeyLike, isMac: boolean): boolean {
  const s = parse(shortcut);
  const wantMeta = isMac && s.mod;
  const wantCtrl = (!isMac && s.mod) || s.ctrl;
  if (event.metaKey !== wantMeta || event.ctrlKey !== wantCtrl || event.shiftKey !== s.shift || event.altKey !== s.alt) return false;
  if (event.key.toLowerCase() === s.key) return true;
  return s.key.length === 1 && /[a-z]/.test(s.key) && event.code === `Key${s.key.toUpperCase()}`;
}

/** `'Mod+Shift+Z'` → `'⌘⇧Z'` on a Mac, `'Ctrl+Shift+Z'` elsewhere (for menus and the palette). */
export function formatShortcut(shortcut: string, isMac: boolean): string {
  const parts = shortcut.split('+');
  const mac: Record<string, string> = { mod: '⌘', shift: '⇧', alt: '⌥', ctrl: '⌃', delete: '⌦', backspace: '⌫' };
  if (isMac) return parts.map((p) => mac[p.toLowerCase()] ?? p.toUpperCase()).join('');
  return parts.map((p) => (p.toLowerCase() === 'mod' ? 'Ctrl' : p.length === 1 ? p.toUpperCase() : p)).join('+');
}

/**
 * Whether a key event comes from somewhere the builder types (inputs, text areas, selects,
 * content-editable areas, the code editor): shortcuts must then leave the keys alone.
 */
export function isTypingTarget(target: EventTarget | null | undefined): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
  }
  return Boolean(el.isContentEditable || el.closest('[contenteditable=""], [contenteditable="true"], [role="textbox"], .monaco-editor'));
}
