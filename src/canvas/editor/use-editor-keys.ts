import { useEffect, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import { CLIPBOARD_TYPE } from '../clipboard';
import { isTypingTarget, keyTargetOf, matchShortcut, type CommandManager } from '../commands';

/** The editor the builder last pressed in: keys typed with nothing focused go to it. */
let lastActive: object | null = null;

/**
 * Keys held down on the canvas, for React Flow: Space (the wheel pans), Shift (a drag over the
 * pane draws a selection box; a click adds to the selection) and Ctrl or Cmd (a click adds to the
 * selection). React Flow's own key listeners are off (flow-editor.tsx): they judged fields by their
 * tag alone, so Space typed in Monaco's EditContext div was cancelled.
 */
export interface HeldKeys {
  space: boolean;
  shift: boolean;
  mod: boolean;
}

const NONE: HeldKeys = { space: false, shift: false, mod: false };

const heldKeyOf = (key: string): keyof HeldKeys | null => (key === ' ' ? 'space' : key === 'Shift' ? 'shift' : key === 'Control' || key === 'Meta' ? 'mod' : null);

/** Space presses these itself (React Flow left it to them too). */
const SPACE_ACTIVATES = 'button, a, summary, [role="button"], [role="link"]';

/**
 * The editor's one keyboard handler: shortcuts run through the command manager, and the held
 * keys React Flow needs are tracked here. A key typed in anything that takes its own keys
 * (`isTypingTarget`: fields, Monaco, selects, switches, tabs, popups, dialogs, the inspector)
 * is left to it whole. Keys count when they come from inside the editor, or from the page itself
 * (nothing focused) while this editor was the last one used. Paste goes through the DOM `paste`
 * event, whose clipboard text needs no permission.
 */
export function useEditorKeys(root: RefObject<HTMLElement | null>, manager: CommandManager): HeldKeys {
  const [held, setHeld] = useState(NONE);
  useEffect(() => {
    const token = {};
    let pendingPaste: ReturnType<typeof setTimeout> | undefined;
    const mine = (target: EventTarget | null) => {
      const el = root.current;
      if (!el) return false;
      if (target instanceof Node && el.contains(target)) return true;
      const onPage = target === document.body || target === document.documentElement || target === document;
      return onPage && (lastActive === null || lastActive === token);
    };
    const hold = (name: keyof HeldKeys, down: boolean) => setHeld((h) => (h[name] === down ? h : { ...h, [name]: down }));
    const onPointerDown = (e: PointerEvent) => {
      if (root.current && e.target instanceof Node && root.current.contains(e.target)) lastActive = token;
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !mine(e.target)) return;
      const target = keyTargetOf(e);
      if (isTypingTarget(target)) return;
      const heldKey = heldKeyOf(e.key);
      if (heldKey) {
        hold(heldKey, true);
        // Space would scroll the page or press what has the focus.
        if (heldKey === 'space' && !(target instanceof Element && target.closest(SPACE_ACTIVATES))) e.preventDefault();
        return;
      }
      // Let the browser fire `paste` with the clipboard's text; if it does not (no editing context),
      // paste from the clipboard adapter a moment later.
      if (matchShortcut('Mod+V', e, manager.isMac)) {
        clearTimeout(pendingPaste);
        pendingPaste = setTimeout(() => void manager.execute('paste'), 100);
        return;
      }
      manager.handleKeyDown(e);
    };
    // Released wherever the focus went meanwhile.
    const onKeyUp = (e: KeyboardEvent) => {
      const heldKey = heldKeyOf(e.key);
      if (heldKey) hold(heldKey, false);
    };
    const releaseAll = () => setHeld(NONE);
    const onPaste = (e: ClipboardEvent) => {
      if (!mine(e.target) || isTypingTarget(keyTargetOf(e))) return;
      clearTimeout(pendingPaste);
      const text = e.clipboardData?.getData('text/plain');
      e.preventDefault();
      void manager.execute('paste', text?.includes(CLIPBOARD_TYPE) ? { text } : undefined);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('keyup', onKeyUp);
    document.addEventListener('paste', onPaste);
    window.addEventListener('blur', releaseAll);
    return () => {
      clearTimeout(pendingPaste);
      if (lastActive === token) lastActive = null;
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('keyup', onKeyUp);
      document.removeEventListener('paste', onPaste);
      window.removeEventListener('blur', releaseAll);
    };
  }, [root, manager]);
  return held;
}

/**
 * For the content of a node: React Flow's node wrapper selects the node on Enter, Space or Escape
 * and moves the selected nodes on the arrows, for every key that bubbles up to it through React —
 * those typed in a field of the node, or in a popup a node's body opened (a portal), too. A key
 * that is a field's (`isTypingTarget`) goes no further.
 * @example <div onKeyDown={keepFieldKeys}>{body}</div>
 */
export function keepFieldKeys(e: ReactKeyboardEvent) {
  if (isTypingTarget(keyTargetOf(e.nativeEvent))) e.stopPropagation();
}
