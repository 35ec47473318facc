import { createContext, useContext } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStoreWithEqualityFn } from 'zustand/traditional';
import type { Position } from '../../../schemas/flow';
import type { ChecklistEntry } from '../checklist';
import type { CommandManager, CommandNotice } from '../commands';
import type { PendingDelete } from './delete-guard';

/**
 * What the editor's view components share besides the flow store: the command manager, the
 * checklist (computed a moment after edits, outside the document store) and the view's own UI
 * state (open palette, "+" popover, context menu). Both are small vanilla stores, so a node reads
 * only its own slice (its issue count) and re-renders only when that changes.
 */

export interface ChecklistState {
  entries: readonly ChecklistEntry[];
  /** Errors and warnings per node id. */
  counts: ReadonlyMap<string, number>;
  /** Nodes with at least one error (their badge is red; warnings alone show it amber). */
  errors: ReadonlySet<string>;
}

/** Where the "+" of a node's source handle opened the palette (screen coordinates). */
export interface AddFromTarget {
  nodeId: string;
  handleId: string;
  x: number;
  y: number;
  /** The "+" of an edge: the chosen node goes into this edge, near `at` (canvas coordinates). */
  edge?: { id: string; at: Position };
}

export interface ContextMenuTarget {
  kind: 'pane' | 'node';
  /** Screen coordinates of the click. */
  x: number;
  y: number;
  /** Canvas coordinates of the click (where "add node here" and paste put things). */
  at: Position;
  nodeId?: string;
}

export interface EditorUiState {
  paletteOpen: boolean;
  /** The palette opened at a point of the canvas (pane menu "add node here"). */
  paletteAt: Position | null;
  addFrom: AddFromTarget | null;
  menu: ContextMenuTarget | null;
  checklistOpen: boolean;
  /** A delete that breaks references, waiting for confirmation (the delete dialog). */
  pendingDelete: PendingDelete | null;
}

export const initialUi = (): EditorUiState => ({ paletteOpen: false, paletteAt: null, addFrom: null, menu: null, checklistOpen: false, pendingDelete: null });

export interface EditorServices {
  manager: CommandManager;
  /** Shows a notice (an i18n key in `canvas`, or `ns:key`) as a toast. */
  notify(notice: CommandNotice): void;
  checklist: StoreApi<ChecklistState>;
  ui: StoreApi<EditorUiState>;
  /** Called after a layout was applied (the canvas fits the view to the tidied flow). */
  afterLayout: { current?: () => void };
}

export const createChecklistStore = () => createStore<ChecklistState>()(() => ({ entries: [], counts: new Map(), errors: new Set() }));
export const createUiStore = () => createStore<EditorUiState>()(() => initialUi());

export const EditorServicesContext = createContext<EditorServices | null>(null);

export function useEditorServices(): EditorServices {
  const s = useContext(EditorServicesContext);
  if (!s) throw new Error('Editor components must be rendered inside <FlowEditor>');
  return s;
}

/** A slice of the editor's UI state. */
export function useEditorUi<T>(selector: (s: EditorUiState) => T, equality?: (a: T, b: T) => boolean): T {
  return useStoreWithEqualityFn(useEditorServices().ui, selector, equality);
}

/** A slice of the checklist. */
export function useChecklist<T>(selector: (s: ChecklistState) => T, equality?: (a: T, b: T) => boolean): T {
  return useStoreWithEqualityFn(useEditorServices().checklist, selector, equality);
}
