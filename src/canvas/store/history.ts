import type { Patch } from 'immer';

/**
 * Undo/redo history of the flow document, kept as immer patches (each step holds only what changed,
 * not a copy of the document). Pure bookkeeping: the store applies the patches.
 *
 * Rules:
 * - every recorded edit is one step, unless it merges: an edit with the same `mergeKey` as the step
 *   on top (typing in one field: node id + field path), within `mergeWindowMs` of that step's last
 *   edit, with nothing else in between (any other edit, undo, redo or `seal()` ends the merge);
 * - a gesture (a drag) or a batch collects every edit between its begin and end into one step;
 * - at most `limit` steps are kept (the oldest are dropped); a new edit clears the redo stack.
 */

export interface HistoryStep {
  /** Forward patches, in application order. */
  patches: Patch[];
  /** Inverse patches, in application order (already reversed). */
  inverse: Patch[];
  mergeKey?: string;
  /** Time of the step's last edit (for merging). */
  at: number;
  /** No more merging into this step. */
  sealed: boolean;
}

export interface HistoryOptions {
  /** Steps kept (default 200; never below 1). */
  limit?: number;
  /** How long after the last keystroke another one in the same field still merges (default 1000 ms). */
  mergeWindowMs?: number;
  /** Clock (tests inject one). */
  now?: () => number;
}

export const DEFAULT_HISTORY_LIMIT = 200;
export const DEFAULT_MERGE_WINDOW_MS = 1000;

const pathKey = (p: Patch) => JSON.stringify(p.path);

/**
 * Shrinks a list of patches when every one is a `replace` (a drag, typing): only the last write per
 * path matters, in the order of those last writes. Lists with adds or removes shift array indexes,
 * so they are kept whole.
 */
export function compactPatches(patches: Patch[]): Patch[] {
  if (patches.length < 2 || patches.some((p) => p.op !== 'replace')) return patches;
  const last = new Map<string, number>();
  patches.forEach((p, i) => last.set(pathKey(p), i));
  if (last.size === patches.length) return patches;
  return patches.filter((p, i) => last.get(pathKey(p)) === i);
}

/** Joins two consecutive steps' patches (`a` then `b`) into one step's. */
function join(a: { patches: Patch[]; inverse: Patch[] }, b: { patches: Patch[]; inverse: Patch[] }) {
  return {
    patches: compactPatches([...a.patches, ...b.patches]),
    // Undo runs b's inverse first, then a's.
    inverse: compactPatches([...b.inverse, ...a.inverse]),
  };
}

export class FlowHistory {
  readonly limit: number;
  readonly mergeWindowMs: number;
  private readonly now: () => number;
  private undoStack: HistoryStep[] = [];
  private redoStack: HistoryStep[] = [];
  /** Open gestures and batches collect here; depth counts nesting. */
  private group: { patches: Patch[]; inverse: Patch[] } | undefined;
  private groupDepth = 0;

  constructor(opts: HistoryOptions = {}) {
    this.limit = Math.max(1, opts.limit ?? DEFAULT_HISTORY_LIMIT);
    this.mergeWindowMs = opts.mergeWindowMs ?? DEFAULT_MERGE_WINDOW_MS;
    this.now = opts.now ?? Date.now;
  }

  get canUndo() {
    return this.undoStack.length > 0 || this.groupHasChanges;
  }
  get canRedo() {
    return this.redoStack.length > 0;
  }
  get size() {
    return this.undoStack.length;
  }
  get inGroup() {
    return this.groupDepth > 0;
  }
  private get groupHasChanges() {
    return Boolean(this.group?.patches.length);
  }

  /** Records one edit (patches and their inverse as immer produced them). */
  record(patches: Patch[], inversePatches: Patch[], mergeKey?: string): void {
    if (!patches.length) return;
    // immer lists inverse patches in the order to apply them already.
    const step = { patches, inverse: inversePatches };
    this.redoStack = [];
    if (this.group) {
      this.group = join(this.group, step);
      return;
    }
    const top = this.undoStack[this.undoStack.length - 1];
    const t = this.now();
    if (mergeKey && top && !top.sealed && top.mergeKey === mergeKey && t - top.at <= this.mergeWindowMs) {
      Object.assign(top, join(top, step), { at: t });
      return;
    }
    if (top) top.sealed = true;
    this.push({ ...step, mergeKey, at: t, sealed: !mergeKey });
  }

  /** Starts collecting edits into one step (a drag gesture or a batch); nests. */
  begin(): void {
    if (this.groupDepth++ === 0) this.group = { patches: [], inverse: [] };
  }

  /** Ends the outermost group: its edits become one step (none when nothing changed). */
  end(): void {
    if (this.groupDepth === 0) return;
    if (--this.groupDepth > 0) return;
    const g = this.group!;
    this.group = undefined;
    if (!g.patches.length) return;
    this.seal();
    this.push({ ...g, at: this.now(), sealed: true });
  }

  /**
   * Drops the open group and returns the patches that take the document back to where the group
   * began (a cancelled drag). Nested groups are dropped too.
   */
  cancel(): Patch[] {
    const g = this.group;
    this.group = undefined;
    this.groupDepth = 0;
    return g?.inverse ?? [];
  }

  /** Ends merging into the top step (a field lost focus, the selection moved on). */
  seal(): void {
    const top = this.undoStack[this.undoStack.length - 1];
    if (top) top.sealed = true;
  }

  /** The step to undo (moved to the redo stack), or undefined. The caller applies `inverse`. */
  undo(): HistoryStep | undefined {
    const step = this.undoStack.pop();
    if (!step) return undefined;
    step.sealed = true;
    this.redoStack.push(step);
    return step;
  }

  /** The step to redo (moved back to the undo stack), or undefined. The caller applies `patches`. */
  redo(): HistoryStep | undefined {
    const step = this.redoStack.pop();
    if (!step) return undefined;
    this.undoStack.push(step);
    return step;
  }

  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
    this.group = undefined;
    this.groupDepth = 0;
  }

  private push(step: HistoryStep) {
    this.undoStack.push(step);
    if (this.undoStack.length > this.limit) this.undoStack.splice(0, this.undoStack.length - this.limit);
  }
}
