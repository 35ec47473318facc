/**
 * The node plugin SDK (manifest side, no React): define a node kind, list kinds in a registry, walk
 * references, check the plugin contract. The editor-only view types are in `./view`.
 *
 * A node kind is a folder under `plugins/`: `manifest.ts` (`defineNodePlugin({...})`), `executor.ts`
 * (`defineNodeExecutor`), an optional `view.tsx` (`defineNodeView`), and a test running
 * `runPluginContract`. `plugins/builtins.ts` lists the built-in folders; the server loads their
 * manifests with executors, the editor with views (`withView`). Core code reaches kinds only through
 * a registry (`createNodeRegistry`).
 */
export { defineNodePlugin, PluginDefinitionError } from './define';
export { createNodeRegistry, NodeMigrationError, type MigrateFlowResult, type NodeInit, type NodeRegistry, type RegistryMessages } from './registry';
export { createFlowGraph } from './graph';
export { runPluginContract, assertPluginContract, type ContractOptions, type ContractProblem } from './contract';
export { SDK_NAMESPACE, pluginNamespace, sdkMessages } from './messages';
export {
  collectReferences,
  mapReferences,
  remapNodeIds,
  type ConfigReference,
  type ReferenceMapper,
  type ReferenceOptions,
} from './references';
export * from './executor';
export { readNodeSettings, retryDelay, NO_NODE_SETTINGS, type NodeSettings } from './node-settings';
export * from './value-types';
export * from './types';
export { NODE_WIDGETS, type NodeWidgetName } from './widgets';
// The Dify hook's types; its readers (str, sel, text …) are in `./dify`.
export type { DifyImportContext, DifyImportHook } from './dify';
// The document's building blocks plugin authors use in config schemas and validation.
export {
  createEdge,
  DEFAULT_SOURCE_HANDLE,
  DEFAULT_TARGET_HANDLE,
  FAIL_BRANCH_HANDLE,
  FLOW_MODES,
  formatTextReference,
  isChatMode,
  isSelector,
  MaybeSelector,
  parseTextReferences,
  replaceReferences,
  mapTextReferences,
  Selector,
  selectorNamespace,
  systemVariables,
  Template,
  VariableName,
  type IdMap,
  type TextReference,
} from '../../schemas/flow';
