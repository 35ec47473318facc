import { enablePatches, Immer, type Draft, type Patch } from 'immer';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createEdge, DEFAULT_SOURCE_HANDLE, DEFAULT_TARGET_HANDLE, withDefaultModel, type DefaultModelChoice, type FlowDocument, type FlowMode, type Position } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';
import { canConnect, type Connection, type ConnectResult } from '../connection';
import { canReparent, reparent as reparentDraft, type MoveResult } from '../containers';
import { FlowHistory, type HistoryOptions } from './history';
import { findNode, insert, moveNodes, nodeIds, removeEdges, removeNodes, setConfigValue, uniqueNodeId } from './operations';
import { initialView, type FlowState, type NodeRunStatus, type Selection, type ViewState, type Viewport } from './state';

enablePatches();

export interface FlowStoreOptions {
  registry: NodeRegistry;
  /** The app's mode; a new flow of this mode is made when no document is given. */
  mode: FlowMode;
  /** The saved draft; its nodes are migrated to the registry's versions on load. */
  document?: FlowDocument;
  readOnly?: boolean;
  /** Undo depth (default 200), typing merge window (default 1 s), clock. */
  history?: HistoryOptions;
  /**
   * Deep-freeze each new document so an accidental mutation throws (default: in development and
   * tests only). Freezing walks every node of a changed list: with 1,000 nodes it made an edit
   * about 20 times slower, too slow for drags and typing in production.
   */
  freeze?: boolean;
  /**
   * The model a new node that calls one starts with (the tenant's default LLM; read at each add, so
   * it may arrive after the store is made). None: the node's model stays to be chosen.
   */
  defaultModel?: () => DefaultModelChoice | null | undefined;
}

export interface EditOptions {
  /** Edits with the same key in a row merge into one undo step (typing: `${nodeId}:${field path}`). */
  mergeKey?: string;
}

export interface AddNodeInit {
  position?: Position;
  /** A container to put the node in (position is then relative to it). */
  parentId?: string;
  title?: string;
  /** Connect from this node's handle (the "+" on a handle): the new node goes to its right. */
  from?: { nodeId: string; handleId?: string };
  /** Insert it into this edge (dropped on it, or its hover "+"): source → new node → target. */
  intoEdge?: string;
}

/** The editor's store: state for the views, actions for everything that edits it. One per editor. */
export interface FlowStore {
  readonly registry: NodeRegistry;
  /** The zustand store (what `useFlowStore` binds to). */
  readonly api: StoreApi<FlowState>;
  getState(): FlowState;
  subscribe: StoreApi<FlowState>['subscribe'];
  /** Calls `listener` after each change of the document (edits, undo, redo, reload). */
  subscribeDocument(listener: (doc: FlowDocument, prev: FlowDocument) => void): () => void;
  /** The document to save: JSON only, no view state. */
  toDocument(): FlowDocument;

  /** Runs `recipe` on a draft of the document as one undoable edit; false when nothing changed. */
  edit(recipe: (draft: Draft<FlowDocument>) => void, opts?: EditOptions): boolean;
  /** Every edit inside `fn` becomes one undo step (a multi-node delete, a paste). */
  batch<T>(fn: () => T): T;
  /** A drag starts: edits until `endGesture` are one undo step. */
  beginGesture(): void;
  endGesture(): void;
  /** The drag is abandoned: the document goes back to where the gesture began. */
  cancelGesture(): void;
  /** Stops merging typing into the last step (a field lost focus). */
  sealHistory(): void;
  undo(): boolean;
  redo(): boolean;
  /** A new document (reload after a conflict): history is cleared, the view kept where it fits. */
  replaceDocument(doc: FlowDocument): void;

  addNode(kind: string, init?: AddNodeInit): string | undefined;
  connect(connection: Connection): ConnectResult;
  deleteNodes(ids: Iterable<string>): string[];
  deleteEdges(ids: Iterable<string>): void;
  /**
   * Puts a node into an edge: the edge's source → the node → its target, one undo step (inside a
   * gesture or batch, part of it). False, changing nothing, when the node cannot take both ends.
   */
  splitEdge(nodeId: string, edgeId: string): boolean;
  /** Positions as stored (relative to each node's container). */
  moveNodes(moves: Readonly<Record<string, Position>>): void;
  /** One config field; consecutive calls for the same node and path merge while typing. */
  updateConfig(nodeId: string, path: readonly (string | number)[], value: unknown, opts?: { merge?: boolean }): void;
  setTitle(nodeId: string, title: string): void;
  reparent(ids: readonly string[], parentId: string | null): MoveResult;

  setSelection(selection: Partial<Selection>): void;
  selectAll(): void;
  setHoveredNode(id: string | null): void;
  /** Selects a node and asks the canvas to centre on it (callers outside the canvas: the debug pane). */
  focusNode(id: string): void;
  /** The canvas centred on the requested node. */
  clearFocus(): void;
  setRunStatus(status: Readonly<Record<string, NodeRunStatus>>): void;
  setViewport(viewport: Viewport): void;
  /** Switches editing off (viewing a published version) or back on. */
  setReadOnly(readOnly: boolean): void;
}

/** Whether patches add or remove nodes or edges (only then can the selection hold stale ids). */
const touchesLists = (patches: readonly Patch[]) =>
  patches.some((p) => p.path.length <= 2 && (p.path[0] === 'nodes' || p.path[0] === 'edges'));

function pruneView(view: ViewState, doc: FlowDocument): ViewState {
  const { nodes, edges } = view.selection;
  if (!nodes.length && !edges.length && !view.hoveredNodeId) return view;
  const ids = nodeIds(doc);
  const edgeIds = new Set(doc.edges.map((e) => e.id));
  const keepNodes = nodes.filter((id) => ids.has(id));
  const keepEdges = edges.filter((id) => edgeIds.has(id));
  const hovered = view.hoveredNodeId && ids.has(view.hoveredNodeId) ? view.hoveredNodeId : null;
  if (keepNodes.length === nodes.length && keepEdges.length === edges.length && hovered === view.hoveredNodeId) return view;
  return { ...view, selection: { nodes: keepNodes, edges: keepEdges }, hoveredNodeId: hovered };
}

/**
 * Creates the store of one editor instance (never a module singleton: two editors, or a story
 * beside the app, each have their own).
 * @example
 * const store = createFlowStore({ registry, mode: 'workflow', document: draft.document });
 * const id = store.addNode('llm', { from: { nodeId: 'start' } });
 * store.updateConfig(id!, ['prompt'], 'Hello');
 * store.undo();
 * save(store.toDocument());
 */
export function createFlowStore(opts: FlowStoreOptions): FlowStore {
  const { registry, mode } = opts;
  const loaded = opts.document ?? registry.createFlow(mode);
  if (loaded.mode !== mode) throw new Error(`The flow document is a ${loaded.mode}, the editor was opened as a ${mode}`);
  const history = new FlowHistory(opts.history);
  // A private immer, so the freeze choice does not leak into other code using immer.
  const immer = new Immer({ autoFreeze: opts.freeze ?? Boolean(import.meta.env?.DEV) });
  const api = createStore<FlowState>()(() => ({
    document: registry.migrateFlow(loaded).document,
    view: initialView(),
    history: { canUndo: false, canRedo: false },
    readOnly: Boolean(opts.readOnly),
  }));

  const flags = () => ({ canUndo: history.canUndo, canRedo: history.canRedo });

  function commit(next: FlowDocument, patches: readonly Patch[]) {
    const st = api.getState();
    api.setState({ document: next, history: flags(), view: touchesLists(patches) ? pruneView(st.view, next) : st.view });
  }

  function applyStep(patches: Patch[]) {
    const next = immer.applyPatches(api.getState().document, patches);
    commit(next, patches);
  }

  function edit(recipe: (draft: Draft<FlowDocument>) => void, eo: EditOptions = {}): boolean {
    if (api.getState().readOnly) return false;
    const [next, patches, inverse] = immer.produceWithPatches(api.getState().document, recipe);
    if (!patches.length) return false;
    history.record(patches, inverse, eo.mergeKey);
    commit(next, patches);
    return true;
  }

  function batch<T>(fn: () => T): T {
    history.begin();
    try {
      return fn();
    } finally {
      history.end();
      api.setState({ history: flags() });
    }
  }

  const doc = () => api.getState().document;

  function connect(c: Connection): ConnectResult {
    if (api.getState().readOnly) return { ok: false, reason: 'readOnly' };
    const result = canConnect(doc(), registry, c);
    if (!result.ok) return result;
    edit((d) => {
      d.edges.push(createEdge(c.source, c.target, c.sourceHandle ?? undefined, c.targetHandle ?? undefined));
    });
    return result;
  }

  function splitEdge(nodeId: string, edgeId: string): boolean {
    if (api.getState().readOnly) return false;
    const d = doc();
    const e = d.edges.find((x) => x.id === edgeId);
    const n = findNode(d, nodeId);
    if (!e || !n || e.source === nodeId || e.target === nodeId) return false;
    const handles = registry.sourceHandlesOf(n);
    const out = handles.find((h) => h.id === DEFAULT_SOURCE_HANDLE) ?? handles[0];
    if (!out) return false;
    const into: Connection = { source: e.source, sourceHandle: e.sourceHandle, target: nodeId, targetHandle: DEFAULT_TARGET_HANDLE };
    const onward: Connection = { source: nodeId, sourceHandle: out.id, target: e.target, targetHandle: e.targetHandle };
    // Both ends checked on the document as it will be, before anything changes.
    const without = { ...d, edges: d.edges.filter((x) => x.id !== edgeId) };
    if (!canConnect(without, registry, into).ok) return false;
    const withInto = { ...without, edges: [...without.edges, createEdge(into.source, into.target, into.sourceHandle ?? undefined, into.targetHandle ?? undefined)] };
    if (!canConnect(withInto, registry, onward).ok) return false;
    batch(() => {
      edit((dr) => void removeEdges(dr, [edgeId]));
      connect(into);
      connect(onward);
    });
    return true;
  }

  function addNode(kind: string, init: AddNodeInit = {}): string | undefined {
    if (api.getState().readOnly || !registry.has(kind)) return undefined;
    const current = doc();
    const source = init.from ? findNode(current, init.from.nodeId) : undefined;
    const parentId = init.parentId ?? source?.parentId;
    const position = init.position ?? (source ? { x: source.position.x + (source.width ?? 240) + 80, y: source.position.y } : { x: 0, y: 0 });
    const taken = nodeIds(current);
    const id = uniqueNodeId(kind, taken);
    taken.add(id);
    const { node, children } = registry.createNode(kind, {
      id,
      childId: uniqueNodeId(`${id}-start`, taken),
      position,
      parentId,
      title: init.title,
    });
    node.config = withDefaultModel(node.config, opts.defaultModel?.());
    return batch(() => {
      edit((d) => insert(d, [node, ...children]));
      if (source) connect({ source: source.id, target: id, sourceHandle: init.from?.handleId ?? DEFAULT_SOURCE_HANDLE });
      if (init.intoEdge) splitEdge(id, init.intoEdge);
      setSelection({ nodes: [id], edges: [] });
      return id;
    });
  }

  function setSelection(sel: Partial<Selection>) {
    const view = api.getState().view;
    api.setState({ view: { ...view, selection: { nodes: sel.nodes ?? view.selection.nodes, edges: sel.edges ?? view.selection.edges } } });
  }

  const setView = (patch: Partial<ViewState>) => api.setState({ view: { ...api.getState().view, ...patch } });

  const store: FlowStore = {
    registry,
    api,
    getState: api.getState,
    subscribe: api.subscribe,
    subscribeDocument: (listener) =>
      api.subscribe((s, prev) => {
        if (s.document !== prev.document) listener(s.document, prev.document);
      }),
    toDocument: doc,
    edit,
    batch,
    beginGesture: () => history.begin(),
    endGesture: () => {
      history.end();
      api.setState({ history: flags() });
    },
    cancelGesture: () => {
      const back = history.cancel();
      if (back.length) applyStep(back);
      else api.setState({ history: flags() });
    },
    sealHistory: () => history.seal(),
    undo() {
      if (api.getState().readOnly) return false;
      // An open drag ends first, so undo takes back the whole gesture.
      while (history.inGroup) history.end();
      const step = history.undo();
      if (!step) return false;
      applyStep(step.inverse);
      return true;
    },
    redo() {
      if (api.getState().readOnly) return false;
      const step = history.redo();
      if (!step) return false;
      applyStep(step.patches);
      return true;
    },
    replaceDocument(next) {
      history.clear();
      const migrated = registry.migrateFlow(next).document;
      api.setState({ document: migrated, history: flags(), view: pruneView(api.getState().view, migrated) });
    },

    addNode,
    connect,
    deleteNodes(ids) {
      let removed: string[] = [];
      edit((d) => {
        removed = removeNodes(d, registry, ids);
      });
      return removed;
    },
    deleteEdges: (ids) => void edit((d) => removeEdges(d, ids)),
    splitEdge,
    moveNodes: (moves) => void edit((d) => moveNodes(d, moves)),
    updateConfig(nodeId, path, value, uo = {}) {
      edit((d) => void setConfigValue(d, nodeId, path, value), uo.merge === false ? {} : { mergeKey: `${nodeId}:${path.join('.')}` });
    },
    setTitle: (nodeId, title) =>
      void edit(
        (d) => {
          const n = findNode(d, nodeId);
          if (n) n.title = title;
        },
        { mergeKey: `${nodeId}:#title` },
      ),
    reparent(ids, parentId) {
      const check = canReparent(doc(), registry, ids, parentId);
      if (check.ok) edit((d) => void reparentDraft(d, ids, parentId));
      return check;
    },

    setSelection,
    selectAll: () => setSelection({ nodes: doc().nodes.map((n) => n.id), edges: doc().edges.map((e) => e.id) }),
    setHoveredNode: (id) => setView({ hoveredNodeId: id }),
    focusNode(id) {
      setSelection({ nodes: [id], edges: [] });
      setView({ focus: { nodeId: id, seq: (api.getState().view.focus?.seq ?? 0) + 1 } });
    },
    clearFocus: () => setView({ focus: null }),
    setRunStatus: (runStatus) => setView({ runStatus }),
    setViewport: (viewport) => setView({ viewport }),
    setReadOnly: (readOnly) => api.setState({ readOnly }),
  };
  return store;
}
