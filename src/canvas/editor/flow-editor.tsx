import type { FlowDocument } from '../../../schemas/flow';
import { Background, getViewportForBounds, Panel, ReactFlow, ReactFlowProvider, useReactFlow, useStoreApi, type Node, type NodeTypes, type EdgeTypes, type Viewport } from '@xyflow/react';
import { FlowMinimap } from './flow-minimap';
import '@xyflow/react/dist/style.css';
import { X } from 'lucide-react';
import { startTransition, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../ui';
import { createClipboard, type ClipboardAdapter } from '../clipboard';
import { builtinCommands, createCommandManager, type CommandNotice, type LayoutFunction } from '../commands';
import type { FlowFileAppInput } from '../dsl';
import { FlowStoreProvider } from '../react/flow-store-context';
import { useFlowStore } from '../react/use-flow-store';
import type { FlowStore } from '../store/create-flow-store';
import { animatedLayout } from './animated-layout';
import { ChecklistPanel, useFocusRequests } from './checklist-panel';
import { DeleteConfirmDialog, guardedDeleteCommand } from './delete-guard';
import { createChecklistStore, createUiStore, EditorServicesContext, useEditorServices, useEditorUi, type EditorServices } from './editor-context';
import { FlowElementCache, parentsFirst, viewTypeOf, CONTAINER_SIZE, NOTE_SIZE } from './flow-elements';
import { FeaturesDialog } from './features-dialog';
import { downloadFlowYaml, ImportDialog, type FlowImportApi } from './flow-files';
import { ContainerNode, NodeTextsProvider, OVERVIEW_ZOOM, OverviewProvider, ShellNode } from './flow-node';
import { SummaryNamesProvider } from './node-summary';
import { InsertableEdge } from './insertable-edge';
import { useKeepInView } from './use-keep-in-view';
import { useScrollAsPan } from './use-scroll-as-pan';
import { useInspectorWidth } from './inspector-width';
import { AddFromPopover, ContextMenu } from './menus';
import { preloadNodeIcons } from './node-icon';
import { NoteNode } from './note-node';
import { Palette } from './palette';
import { registerPluginTexts } from './plugin-texts';
import { FIT_VIEW_OPTIONS, Toolbar, ZoomControls } from './toolbar';
import { freePlacementAt, measuredSizes, useChangeHandlers, useConnectionHandlers, useDragHandlers } from './use-canvas-handlers';
import { useChecklistSync } from './use-checklist-sync';
import { useKnowledgeBaseList } from './use-knowledge-base-list';
import { useEditorKeys } from './use-editor-keys';
import { VariablesDialog } from './variables-dialog';
import { defaultMeasure } from '../layout/measure';
import { ModelListContext } from '../widgets/context';
import s from './editor.module.css';

const nodeTypes: NodeTypes = { shell: ShellNode, container: ContainerNode, note: NoteNode };
// Every edge has the hover "+" that inserts a node into it.
const edgeTypes: EdgeTypes = { default: InsertableEdge };

const MIN_ZOOM = 0.1;
const PRO_OPTIONS = { hideAttribution: true };

/**
 * Where `fitView` will put the flow, estimated from the document before anything is measured (node
 * sizes by kind). React Flow starts at zoom 1 and fits once every node is measured; starting at the
 * estimate instead lets a big flow mount its nodes at the zoom they are shown at (their overview,
 * see flow-node.tsx) rather than in full detail, to redraw them all a moment later. Zoom 1 when the
 * canvas has no size yet (jsdom) or the flow is empty.
 */
function estimatedViewport(store: FlowStore, area: HTMLElement | null): Viewport {
  const { width, height } = area?.getBoundingClientRect() ?? { width: 0, height: 0 };
  const top = store.getState().document.nodes.filter((n) => !n.parentId);
  if (!width || !height || !top.length) return { x: 0, y: 0, zoom: 1 };
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of top) {
    const type = viewTypeOf(store.registry, n.kind);
    const size = type === 'container' ? { width: n.width ?? CONTAINER_SIZE.width, height: n.height ?? CONTAINER_SIZE.height } : type === 'note' ? { width: n.width ?? NOTE_SIZE.width, height: n.height ?? NOTE_SIZE.height } : defaultMeasure(n);
    x0 = Math.min(x0, n.position.x);
    y0 = Math.min(y0, n.position.y);
    x1 = Math.max(x1, n.position.x + size.width);
    y1 = Math.max(y1, n.position.y + size.height);
  }
  return getViewportForBounds({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, width, height, MIN_ZOOM, FIT_VIEW_OPTIONS.maxZoom, FIT_VIEW_OPTIONS.padding);
}

export interface FlowEditorProps {
  /** The editor's store (one per app: `createFlowStore({ registry, mode, document })`). */
  store: FlowStore;
  /** The right-hand panel for the one selected node (the node inspector); nothing when absent. */
  renderInspector?: (nodeId: string) => ReactNode;
  /**
   * Auto-layout; the toolbar's "tidy up" button and the `Mod+Shift+L` shortcut appear with it. With
   * a `preload` (`createLayout`'s), the editor loads the engine once the canvas is idle.
   */
  layout?: LayoutFunction & { preload?(doc?: FlowDocument): void };
  /** Export (e.g. as YAML); the toolbar shows the button only when given. */
  onExport?: () => void;
  /** Import a file; the toolbar shows the button only when given. */
  onImport?: () => void;
  /** The app the flow belongs to: turns on the built-in export (our YAML, downloaded as `<name>.yml`) unless `onExport` replaces it. */
  flowFile?: FlowFileAppInput;
  /**
   * Turns on the built-in import dialog (our YAML or a Dify DSL file, read by the server, which
   * replaces the draft; the editor then reloads it) unless `onImport` replaces it.
   */
  importer?: FlowImportApi;
  /** Shows the environment (and, in chat modes, conversation) variables dialogs (default true). */
  variables?: boolean;
  /** Shows the app's features dialog in chat modes (opening statement, suggested questions…; default true). */
  features?: boolean;
  /** Nodes glide to their laid-out places (default true; off in tests that check positions at once). */
  animateLayout?: boolean;
  /** Where copies go (default: the system clipboard with an in-memory fallback). */
  clipboard?: ClipboardAdapter;
  /** Delay of the checklist after an edit (ms). */
  checklistDelayMs?: number;
  /** localStorage key of the inspector's width, which the builder drags (default `weft.inspector-width`; the page makes it per user). */
  inspectorWidthKey?: string;
  className?: string;
}

/**
 * The flow editor: React Flow bound to a flow store. Nodes read their own state from the store by
 * id, so dragging one re-renders no other node; every edit goes through the store (undoable) and
 * every command (keys, menus, toolbar) through one command manager.
 * @example
 * const [store] = useState(() => createFlowStore({ registry, mode: 'workflow', document }));
 * <FlowEditor store={store} renderInspector={(id) => <NodeInspector nodeId={id} />} layout={elkLayout} />
 */
export function FlowEditor(props: FlowEditorProps) {
  const { store, layout: givenLayout, clipboard: givenClipboard, animateLayout = true } = props;
  const { i18n } = useTranslation();
  useState(() => {
    registerPluginTexts(i18n, store.registry);
    void preloadNodeIcons(store.registry.plugins.map((p) => p.icon));
    return null;
  });
  const [clipboard] = useState(() => givenClipboard ?? createClipboard());
  // The first "tidy up" would otherwise wait for ELK to load and compile in its worker (~0.5 s).
  useEffect(() => {
    if (!givenLayout?.preload || typeof requestIdleCallback !== 'function') return;
    // With the document: a big flow is laid out ahead (createLayout's preload), so tidying it up
    // unchanged is instant and any later layout runs warm.
    const idle = requestIdleCallback(() => givenLayout.preload?.(store.getState().document), { timeout: 3000 });
    return () => cancelIdleCallback(idle);
  }, [givenLayout, store]);
  const pointer = useRef<{ x: number; y: number } | undefined>(undefined);
  const services = useMemo<EditorServices>(() => {
    const notify = (n: CommandNotice) => {
      const key = n.key.includes(':') ? n.key : `canvas:${n.key}`;
      const text = (i18n.t as (k: string, o?: object) => string)(key, n.params);
      toast[n.severity === 'info' ? 'info' : n.severity](text);
    };
    const ui = createUiStore();
    // Deleting what other nodes reference asks first (the delete dialog lists the references).
    const afterLayout: EditorServices['afterLayout'] = {};
    const commands = builtinCommands.map((c) => {
      if (c.id === 'deleteSelection') return guardedDeleteCommand(ui);
      // A tidied flow may have grown out of view: the canvas fits it once it is in place.
      if (c.id === 'layout') return { ...c, perform: async (...a: Parameters<typeof c.perform>) => (await c.perform(...a)) && (afterLayout.current?.(), true) };
      return c;
    });
    const layout = givenLayout && animateLayout ? animatedLayout(store, givenLayout) : givenLayout;
    const manager = createCommandManager({ store, commands, context: { clipboard, layout, notify, pointer: () => pointer.current } });
    return { manager, notify, checklist: createChecklistStore(), ui, afterLayout };
  }, [store, clipboard, givenLayout, animateLayout, i18n]);
  return (
    <FlowStoreProvider store={store}>
      <EditorServicesContext.Provider value={services}>
        <ReactFlowProvider>
          <NodeTextsProvider>
            <OverviewProvider>
              <SummaryNamesProvider>
                <EditorCanvas {...props} pointer={pointer} />
              </SummaryNamesProvider>
            </OverviewProvider>
          </NodeTextsProvider>
        </ReactFlowProvider>
      </EditorServicesContext.Provider>
    </FlowStoreProvider>
  );
}

/** Whether a pointer is pressed anywhere in the page (tracked from the first editor on). */
let pointerDown = false;
let trackingPointer = false;
function trackPointer() {
  if (trackingPointer || typeof window === 'undefined') return;
  trackingPointer = true;
  const down = () => void (pointerDown = true);
  const up = () => void (pointerDown = false);
  window.addEventListener('pointerdown', down, true);
  window.addEventListener('pointerup', up, true);
  window.addEventListener('pointercancel', up, true);
}

/**
 * The node the inspector shows: the selected one, except that a selection made with the pointer
 * still down (a node pressed to drag it) is shown when the pointer is released. A drag then does
 * not mount a panel (and maybe its code editor) under the moving node, nor narrow the canvas
 * mid-drag; a click opens the panel on release, as a click does.
 */
function useSettledSelection(selected: string | null): string | null {
  trackPointer();
  const [shown, setShown] = useState(selected);
  const latest = useRef(selected);
  latest.current = selected;
  useEffect(() => {
    if (shown === selected) return;
    if (!pointerDown) return setShown(selected);
    const release = () => startTransition(() => setShown(latest.current));
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
    return () => {
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
    };
  }, [selected, shown]);
  return shown;
}

function EditorCanvas({ store, renderInspector, layout, onExport, onImport, flowFile, importer, variables = true, features = true, checklistDelayMs, inspectorWidthKey = 'weft.inspector-width', className, pointer }: FlowEditorProps & { pointer: { current: { x: number; y: number } | undefined } }) {
  const { t } = useTranslation(['editor', 'canvas', 'flowtools']);
  const [dialog, setDialog] = useState<'import' | 'env' | 'conversation' | 'features' | null>(null);
  const exportFile = onExport ?? (flowFile ? () => toast.success(t('flowtools:exportDone', { file: downloadFlowYaml(store, flowFile) })) : undefined);
  const importFile = onImport ?? (importer ? () => setDialog('import') : undefined);
  const services = useEditorServices();
  const { manager, ui } = services;
  const flow = useReactFlow();
  useEffect(() => {
    const { afterLayout } = services;
    afterLayout.current = () => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 300 });
    return () => void (afterLayout.current = undefined);
  }, [services, flow]);
  const root = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLDivElement>(null);
  // React Flow mounts once the canvas has its size (in the same frame): see estimatedViewport.
  const [initialViewport, setInitialViewport] = useState<Viewport>();
  const [cache] = useState(() => new FlowElementCache(store.registry));
  useLayoutEffect(() => setInitialViewport(estimatedViewport(store, area.current)), [store]);
  const opensInOverview = initialViewport !== undefined && initialViewport.zoom < OVERVIEW_ZOOM;
  const [measuredVersion, remeasured] = useReducer((n: number) => n + 1, 0);

  const docNodes = useFlowStore((st) => st.document.nodes);
  const docEdges = useFlowStore((st) => st.document.edges);
  const mode = useFlowStore((st) => st.document.mode);
  const selNodes = useFlowStore((st) => st.view.selection.nodes);
  const selEdges = useFlowStore((st) => st.view.selection.edges);
  const readOnly = useFlowStore((st) => st.readOnly);
  const inspected = useSettledSelection(useFlowStore((st) => (st.view.selection.nodes.length === 1 ? st.view.selection.nodes[0] : null)));
  const centred = useFocusRequests();
  const inspectorWidth = useInspectorWidth(inspectorWidthKey);
  useKeepInView(renderInspector && inspected !== centred.current ? inspected : null, area, inspectorWidth.width);
  useScrollAsPan(area);
  const nodes = useMemo(() => {
    const sel = new Set(selNodes);
    cache.prune(docNodes);
    return parentsFirst(docNodes).map((n) => cache.node(n, sel.has(n.id), opensInOverview));
    // measuredVersion: sizes React Flow measured changed (kept in the cache).
  }, [docNodes, selNodes, cache, measuredVersion, opensInOverview]); // eslint-disable-line react-hooks/exhaustive-deps
  const edges = useMemo(() => {
    const sel = new Set(selEdges);
    return docEdges.map((e) => cache.edge(e, sel.has(e.id)));
  }, [docEdges, selEdges, cache]);

  const { onNodesChange, onEdgesChange } = useChangeHandlers(store, cache, remeasured);
  const connection = useConnectionHandlers(store, services);
  const drag = useDragHandlers(store, cache, services);
  const modelList = useContext(ModelListContext);
  const checklistModels = modelList.complete ? modelList.models : undefined;
  useChecklistSync(store, services.checklist, checklistDelayMs, checklistModels, useKnowledgeBaseList());
  // React Flow's key listeners are all off (its key props are null below): they took Space from
  // whatever was not an input by tag (Monaco's EditContext div, so spaces never reached the code),
  // and the canvas's keys come from one handler with one test of what is a field's. Its held keys
  // turn on what React Flow's did: Space pans with the wheel, Shift draws a selection box, Shift,
  // Ctrl or Cmd add a clicked node to the selection.
  const held = useEditorKeys(root, manager);
  const rfStore = useStoreApi();
  const multiSelect = held.shift || held.mod;
  useEffect(() => rfStore.setState({ multiSelectionActive: multiSelect }), [rfStore, multiSelect]);

  const paletteOpen = useEditorUi((u) => u.paletteOpen);
  const onMouseMove = useCallback(
    (e: ReactMouseEvent) => {
      pointer.current = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
    },
    [flow, pointer],
  );
  // Every prop given to React Flow keeps its identity across renders: React Flow stores each prop
  // that changed, one store update (and a run of every node's and edge's selectors) per prop, and
  // this component renders on every edit and selection change.
  const rf = useMemo(() => {
    const openMenu = (e: ReactMouseEvent | MouseEvent, kind: 'pane' | 'node', nodeId?: string) => {
      e.preventDefault();
      if (nodeId && !store.getState().view.selection.nodes.includes(nodeId)) store.setSelection({ nodes: [nodeId], edges: [] });
      ui.setState({ menu: { kind, x: e.clientX, y: e.clientY, at: flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }), nodeId }, addFrom: null });
    };
    return {
      onSelectionDragStop: (e: ReactMouseEvent, ns: Node[]) => drag.onNodeDragStop(e, ns[0], ns),
      onPaneContextMenu: (e: ReactMouseEvent | MouseEvent) => openMenu(e, 'pane'),
      onNodeContextMenu: (e: ReactMouseEvent, n: Node) => openMenu(e, 'node', n.id),
      onSelectionContextMenu: (e: ReactMouseEvent) => openMenu(e, 'node'),
      onPaneClick: () => ui.setState({ menu: null, addFrom: null }),
      onMoveEnd: (_e: unknown, viewport: Viewport) => store.setViewport(viewport),
    };
  }, [store, ui, flow, drag]);
  const ariaLabelConfig = useMemo(
    () => ({
      'controls.ariaLabel': t('toolbar.label'),
      'controls.zoomIn.ariaLabel': t('toolbar.zoomIn'),
      'controls.zoomOut.ariaLabel': t('toolbar.zoomOut'),
      'controls.fitView.ariaLabel': t('toolbar.fitView'),
      'minimap.ariaLabel': t('toolbar.minimap'),
    }),
    [t],
  );
  /** Adds a node at the canvas point the palette was opened for, else at the centre of the view. */
  const addFromPalette = (kind: string) => {
    let at = ui.getState().paletteAt;
    if (!at) {
      const r = root.current?.querySelector('.react-flow')?.getBoundingClientRect();
      const c = r ? flow.screenToFlowPosition({ x: r.left + r.width / 2, y: r.top + r.height / 2 }) : { x: 0, y: 0 };
      at = { x: c.x - 120, y: c.y - 30 };
    }
    ui.setState({ paletteAt: null });
    // In free space near that point: never on top of another node.
    void manager.execute('addNode', { kind, ...freePlacementAt(store, kind, at, measuredSizes(flow.getNodes())) });
  };

  return (
    <div ref={root} className={`${s.editor} ${className ?? ''}`} data-testid="flow-editor" data-mode={mode}>
      {/* Out of the layout when the page is left (src/app/leave-page.ts): thousands of elements. */}
      <div ref={area} className={s.canvasArea} onMouseMove={onMouseMove} data-hide-on-leave="">
        {initialViewport && (
          <ReactFlow
            nodes={nodes as never}
            edges={edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            {...connection}
            onNodeDragStart={drag.onNodeDragStart}
            onNodeDragStop={drag.onNodeDragStop}
            onSelectionDragStart={drag.onNodeDragStart}
            onSelectionDragStop={rf.onSelectionDragStop}
            onDragOver={drag.onDragOver}
            onDrop={drag.onDrop}
            onPaneContextMenu={rf.onPaneContextMenu}
            onNodeContextMenu={rf.onNodeContextMenu}
            onSelectionContextMenu={rf.onSelectionContextMenu}
            onPaneClick={rf.onPaneClick}
            onMoveEnd={rf.onMoveEnd}
            nodesDraggable={!readOnly}
            nodesConnectable={!readOnly}
            connectOnClick={false}
            deleteKeyCode={null}
            selectionKeyCode={null}
            multiSelectionKeyCode={null}
            panActivationKeyCode={null}
            zoomActivationKeyCode={null}
            selectionOnDrag={held.shift}
            panOnDrag={!held.shift}
            panOnScroll={held.space && !held.mod}
            // Large flows: only what is in view is in the DOM (a 1,000-node flow opens and drags
            // at frame rate; see bench/canvas-editor.ts).
            onlyRenderVisibleElements
            minZoom={MIN_ZOOM}
            maxZoom={2}
            defaultViewport={initialViewport}
            fitView
            fitViewOptions={FIT_VIEW_OPTIONS}
            proOptions={PRO_OPTIONS}
            ariaLabelConfig={ariaLabelConfig}
            aria-label={t('canvas')}
          >
            <Background gap={16} size={1} />
            <FlowMinimap className={s.minimap} />
            <Panel position="top-left">
              <Toolbar
                canLayout={Boolean(layout)}
                onExport={exportFile}
                onImport={importFile}
                onVariables={variables ? setDialog : undefined}
                onFeatures={features ? () => setDialog('features') : undefined}
              />
            </Panel>
            <Panel position="bottom-left">
              <ZoomControls />
            </Panel>
          </ReactFlow>
        )}
        {paletteOpen && !readOnly && (
          <aside className={s.palettePanel} aria-label={t('palette.title')} data-testid="palette-panel">
            <div className={s.panelHeader}>
              <h2>{t('palette.title')}</h2>
              <button type="button" className={s.iconButton} aria-label={t('palette.close')} onClick={() => ui.setState({ paletteOpen: false, paletteAt: null })}>
                <X aria-hidden="true" />
              </button>
            </div>
            <p className={s.panelHint}>{t('palette.dragHint')}</p>
            <Palette registry={store.registry} mode={mode} onPick={addFromPalette} draggable autoFocus />
          </aside>
        )}
        <ChecklistPanel />
        <AddFromPopover />
        <ContextMenu canLayout={Boolean(layout)} />
        <DeleteConfirmDialog />
        {importer && !onImport && (
          <ImportDialog open={dialog === 'import'} onOpenChange={(o) => setDialog(o ? 'import' : null)} importer={importer} onImported={() => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 200 })} />
        )}
        {features && <FeaturesDialog open={dialog === 'features'} onOpenChange={(o) => setDialog(o ? 'features' : null)} />}
        {variables && (
          <>
            <VariablesDialog list="env" open={dialog === 'env'} onOpenChange={(o) => setDialog(o ? 'env' : null)} />
            <VariablesDialog list="conversation" open={dialog === 'conversation'} onOpenChange={(o) => setDialog(o ? 'conversation' : null)} />
          </>
        )}
      </div>
      {/* Keys typed in the inspector are the form's (data-own-keys): Delete on a switch never deletes the node. */}
      {renderInspector && inspected && (
        <>
          {inspectorWidth.handle}
          <aside className={s.inspector} style={{ width: inspectorWidth.width }} aria-label={t('inspector.label')} data-testid="inspector-slot" data-own-keys="">
            {renderInspector(inspected)}
          </aside>
        </>
      )}
    </div>
  );
}
