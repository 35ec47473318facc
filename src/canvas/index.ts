/**
 * The flow editor core: a store per editor (document + view slices, undo/redo), connection rules,
 * containers, clipboard, commands, checklist and autosave. Plain TypeScript except `react/`, which
 * only binds the store to components. Core never imports a node plugin: kinds come from the registry.
 */
export { createFlowStore, type AddNodeInit, type EditOptions, type FlowStore, type FlowStoreOptions } from './store/create-flow-store';
export { DEFAULT_HISTORY_LIMIT, DEFAULT_MERGE_WINDOW_MS, type HistoryOptions } from './store/history';
export * from './store/state';
export * from './store/selectors';
export { absolutePosition, deletionSet, uniqueNodeId } from './store/operations';
export { canConnect, CONNECT_REASONS, reaches, type Connection, type ConnectReason, type ConnectResult } from './connection';
export { canReparent, containerAt, MOVE_REASONS, reparent, type MoveReason, type MoveResult } from './containers';
export * from './clipboard';
export * from './checklist';
export { referencesTo, type IncomingReference } from './references';
export * from './autosave';
export * from './commands';
export { FlowStoreProvider, FlowStoreContext } from './react/flow-store-context';
export { useFlowStore } from './react/use-flow-store';
export { useFlowStoreApi } from './react/use-flow-store-api';
