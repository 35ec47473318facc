/**
 * The node inspector: the side panel of the flow editor that edits the selected node (title,
 * settings, run settings) through the editor's store.
 */
export { ConfigForm, type ConfigFormProps } from './config-form';
export { NodeInspector, sameStructure, type NodeInspectorProps } from './node-inspector';
export { NodeIconTile } from './node-icon';
export { changedKeys, issueText, issuesByField, RUN_SETTINGS_GROUP, splitRunSettings } from './logic';
