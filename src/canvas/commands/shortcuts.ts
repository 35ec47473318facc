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

/** ARIA roles of widgets that use keys themselves (typing, choosing, moving within). */
const KEYED_ROLES = [
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'slider',
  'switch',
  'checkbox',
  'radio',
  'radiogroup',
  'tab',
  'tablist',
  'listbox',
  'option',
  'menu',
  'menubar',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tree',
  'treeitem',
  'grid',
  'gridcell',
  'dialog',
  'alertdialog',
];

/**
 * What takes its own keys (Space, Backspace, Delete, the arrows, Ctrl+A…), so the canvas must take
 * none of them: text fields of every kind (Monaco in Chrome types through an `EditContext` on a div,
 * `.native-edit-context`, which is neither an input nor content-editable), widgets whose ARIA role
 * uses keys (selects, switches, tabs, lists, menus, sliders), buttons that open a list, popups and
 * dialogs (Radix renders them in portals, outside the canvas), and areas marked `data-own-keys`
 * (the inspector: every key typed in it is the form's).
 * The canvas itself must never sit inside one of these (its keys would all be the area's).
 */
const OWNS_KEYS = [
  'input',
  'textarea',
  'select',
  '[contenteditable]:not([contenteditable="false"])',
  '.monaco-editor',
  '.native-edit-context',
  '[aria-haspopup]:not([aria-haspopup="false"])',
  '[data-radix-popper-content-wrapper]',
  '[data-own-keys]',
  ...KEYED_ROLES.map((r) => `[role="${r}"]`),
].join(',');

/**
 * Whether keys typed in `target` are its own (see OWNS_KEYS): then no canvas shortcut may act on
 * them, nor React Flow's keys (flow-editor.tsx turns those off and takes them from the same test).
 * The one test of every key path of the canvas.
 * @example if (isTypingTarget(keyTargetOf(event))) return; // the field's key
 */
export function isTypingTarget(target: EventTarget | null | undefined): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  return Boolean(el.isContentEditable || el.closest(OWNS_KEYS));
}

/**
 * The element a key was typed in: inside a shadow root, the inner element (the event's `target`
 * is then the host).
 */
export function keyTargetOf(event: { target?: EventTarget | null; composedPath?(): EventTarget[] }): EventTarget | null {
  return event.composedPath?.()[0] ?? event.target ?? null;
}
