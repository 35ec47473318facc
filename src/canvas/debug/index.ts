/**
 * The editor's debug run: the pane (chat or run form) with each run's trace, the run store that the
 * canvas nodes read their status from, and the trace model and view the app log reuses.
 */
export { DebugPane, type DebugPaneProps } from './debug-pane';
export { DebugDock, type DebugDockProps } from './debug-dock';
export { DebugApiContext, apiDebugApi, type DebugApi } from './debug-api';
export { createRunStore, runStoreOf, useNodeRunElapsed, useNodeRunStatus, useRunTrace, type NodeRunInfo, type RunState, type RunStore } from './run-store';
export { NodeRunBadge } from './node-run-badge';
export { applyTraceEvent, buildTrace, emptyTrace, traceFromStored, traceTokens, type RunTrace, type StoredRun, type TraceItem, type TraceRound } from './trace';
export { formatElapsed, JsonBlock, RunStatusBadge, StatusIcon, STATUS_TONES, TraceTitleContext, TraceView, type TraceViewProps } from './trace-view';
export { isFileField, missingFields, runFieldsOf, toRunInputs, type RunField, type RunFormFile, type RunFormValues } from './start-fields';
export { saveBeforeRun, useDebugRun, type DebugRun, type DebugRunError } from './use-debug-run';
