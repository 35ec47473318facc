import type { FlowDocument, Position } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';
import type { ClipboardAdapter } from '../clipboard';
import type { FlowStore } from '../store/create-flow-store';
import type { FlowState } from '../store/state';

/**
 * Editor commands, declared as data (the Excalidraw way): shortcuts, the context menu and the
 * command palette all run the same objects through one manager. Labels are i18n keys in the
 * `canvas` namespace, never strings.
 */

/** What a key test reads from a keyboard event (a DOM `KeyboardEvent` fits). */
export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  target?: EventTarget | null;
  /** The event's path (a DOM event's): its first element is where the key was typed. */
  composedPath?(): EventTarget[];
  preventDefault?(): void;
}

/**
 * Lays out a flow (elk in a worker, another module): the new positions (as stored: relative to
 * each node's container) and container sizes. Injected so the core stays free of the layout engine.
 */
export type LayoutFunction = (
  doc: FlowDocument,
  opts: { nodeIds?: readonly string[] },
) => Promise<{ positions: Readonly<Record<string, Position>>; sizes?: Readonly<Record<string, { width: number; height: number }>> }>;

/** A message for the builder (a toast): an i18n key in `canvas` with params. */
export interface CommandNotice {
  key: string;
  params?: Record<string, string | number>;
  severity: 'info' | 'warning' | 'error';
}

/** What commands get besides the store: the editor's services. */
export interface CommandContext {
  /** The store's registry (filled in by the manager). */
  registry: NodeRegistry;
  clipboard: ClipboardAdapter;
  layout?: LayoutFunction;
  /** The pointer in canvas coordinates, for paste at the pointer. */
  pointer?: () => Position | undefined;
  /** Shows a notice (skipped nodes on paste, a refused move). */
  notify?: (notice: CommandNotice) => void;
}

export type CommandCategory = 'node' | 'edit' | 'clipboard' | 'history' | 'selection' | 'arrange';

/**
 * One editor command.
 * @example
 * const selectAll: CanvasCommand = {
 *   id: 'selectAll',
 *   labelKey: 'commands.selectAll',
 *   category: 'selection',
 *   shortcut: 'Mod+A',
 *   predicate: (state) => state.document.nodes.length > 0,
 *   perform: (store) => store.selectAll(),
 * };
 */
export interface CanvasCommand<A = undefined> {
  /** Unique among the manager's commands. */
  id: string;
  /** An i18n key in the `canvas` namespace. */
  labelKey: string;
  category: CommandCategory;
  /**
   * Shortcuts like `'Mod+Shift+Z'` (`Mod` is Ctrl, or Cmd on a Mac), several allowed. Shown in
   * menus, and the default key test.
   */
  shortcut?: string | readonly string[];
  /** A custom key test (instead of matching `shortcut`). */
  keyTest?(event: KeyLike, isMac: boolean): boolean;
  /** The command edits the document (refused in a read-only editor). */
  edits?: boolean;
  /** Offered in the command palette (default true). Commands needing arguments set false. */
  palette?: boolean;
  /** Whether it can run now (greys out menu entries; a shortcut falls through when false). */
  predicate?(state: FlowState, args: A, ctx: CommandContext): boolean;
  /** Runs it: true (or a promise of true) when something happened. */
  perform(store: FlowStore, args: A, ctx: CommandContext): boolean | Promise<boolean>;
}

/** Any command, whatever its arguments (what lists hold; methods compare bivariantly). */
export type AnyCanvasCommand = CanvasCommand<unknown>;
