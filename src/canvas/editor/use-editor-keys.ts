import { useEffect, type RefObject } from 'react';
import { CLIPBOARD_TYPE } from '../clipboard';
import { isTypingTarget, matchShortcut, type CommandManager } from '../commands';

/** The editor the builder last pressed in: keys typed with nothing focused go to it. */
let lastActive: object | null = null;

/**
 * The editor's one keyboard handler: shortcuts run through the command manager, which ignores keys
 * typed in inputs, text areas, selects and content-editable areas. Keys count when they come from
 * inside the editor, or from the page itself (nothing focused) while this editor was the last one
 * used. Paste goes through the DOM `paste` event, whose clipboard text needs no permission.
 */
export function useEditorKeys(root: RefObject<HTMLElement | null>, manager: CommandManager) {
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
    const onPointerDown = (e: PointerEvent) => {
      if (root.current && e.target instanceof Node && root.current.contains(e.target)) lastActive = token;
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !mine(e.target)) return;
      // Let the browser fire `paste` with the clipboard's text; if it does not (no editing context),
      // paste from the clipboard adapter a moment later.
      if (matchShortcut('Mod+V', e, manager.isMac)) {
        if (isTypingTarget(e.target)) return;
        clearTimeout(pendingPaste);
        pendingPaste = setTimeout(() => void manager.execute('paste'), 100);
        return;
      }
      manager.handleKeyDown(e);
    };
    const onPaste = (e: ClipboardEvent) => {
      if (!mine(e.target) || isTypingTarget(e.target)) return;
      clearTimeout(pendingPaste);
      const text = e.clipboardData?.getData('text/plain');
      e.preventDefault();
      void manager.execute('paste', text?.includes(CLIPBOARD_TYPE) ? { text } : undefined);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('paste', onPaste);
    return () => {
      clearTimeout(pendingPaste);
      if (lastActive === token) lastActive = null;
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('paste', onPaste);
    };
  }, [root, manager]);
}
