import type { FlowDocument } from '../../../schemas/flow';

/**
 * The editor store's state: the flow document (saved, undoable) and view slices (never saved,
 * never in history). Components read it through `useFlowStore(selector)`.
 */

/** A node's state in the current debug run (view only; the run events set it). */
export type NodeRunStatus = 'waiting' | 'running' | 'succeeded' | 'failed' | 'skipped';

export interface Selection {
  nodes: readonly string[];
  edges: readonly string[];
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface ViewState {
  selection: Selection;
  /** The node under the pointer. */
  hoveredNodeId: string | null;
  runStatus: Readonly<Record<string, NodeRunStatus>>;
  viewport: Viewport;
  /**
   * A request to centre the canvas on a node, from outside the canvas (the debug pane's blocked-run
   * list): the editor centres on it and clears the request. `seq` tells two requests for one node apart.
   */
  focus: { nodeId: string; seq: number } | null;
}

export interface HistoryFlags {
  canUndo: boolean;
  canRedo: boolean;
}

export interface FlowState {
  /** What `toDocument()` returns and autosave stores: JSON only, no view state. */
  document: FlowDocument;
  view: ViewState;
  history: HistoryFlags;
  /** A read-only editor (a published version): edits are refused, the view still works. */
  readOnly: boolean;
}

export const EMPTY_SELECTION: Selection = Object.freeze({ nodes: Object.freeze([]) as readonly string[], edges: Object.freeze([]) as readonly string[] });

export const initialView = (): ViewState => ({
  selection: EMPTY_SELECTION,
  hoveredNodeId: null,
  runStatus: {},
  viewport: { x: 0, y: 0, zoom: 1 },
  focus: null,
});
