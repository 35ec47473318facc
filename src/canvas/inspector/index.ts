/**
 * The node inspector: the side panel of the flow editor that edits the selected node (title,
 * settings, run settings) through the editor's store.
 */
export { ConfigForm, type ConfigFormProps } from './config-form';
export { NodeInspector, sameStructure, type NodeInspectorProps } from './node-inspector';
export { NodeIconTile } from './node-icon';
export { changedKeys, issueText, issuesByField, RUN_SETTINGS_GROUP, splitRunSettings } from './logic';
export { SingleRunSection, type SingleRunSectionProps } from './single-run-section';
export { apiSingleRunApi, SingleRunApiContext, type SingleRunApi } from './single-run-api';
export { createSingleRunMemory, inputKind, parseInputs, runsAlone, singleRunInputs, singleRunMemory, type SingleRunInput, type SingleRunResult, type SingleRunState } from './single-run';
