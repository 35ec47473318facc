import { createContext, useContext } from 'react';
import type { FlowGraph, FlowNode, NodeIssue, NodeRegistry, ValueType } from '../../plugin-sdk';
import type { VariableGroup } from './variables';

/**
 * What the flow-aware widgets need besides their value: the node being edited, the flow around it
 * and the variables it may use. The inspector provides it; a story or test can provide its own.
 */
export interface NodeWidgetEnv {
  registry: NodeRegistry;
  graph: FlowGraph;
  node: FlowNode;
  /** The plugin's i18n namespace (field labels, operator names). */
  ns: string;
  /** `listVariables(registry, graph, node.id)`, computed once per document. */
  variables: readonly VariableGroup[];
  /** This node's checklist entries. */
  issues: readonly NodeIssue[];
  readOnly: boolean;
  /** The type a selector points at, seen from this node. */
  typeOf(selector: readonly string[]): ValueType | undefined;
}

export const NodeWidgetContext = createContext<NodeWidgetEnv | null>(null);

/** The node widget environment; throws outside the inspector (a widget used in the wrong place). */
export function useNodeWidgetEnv(): NodeWidgetEnv {
  const env = useContext(NodeWidgetContext);
  if (!env) throw new Error('Node widgets must be rendered inside <NodeWidgetContext.Provider> (the node inspector)');
  return env;
}

// ------------------------------------------------------------------ models

/** One model the workspace offers (the app guard's model list). */
export interface ModelOption {
  provider: string;
  model: string;
  /** Shown instead of the model id when given. */
  label?: string;
}

/**
 * The models the model picker offers. The editor route fills it from the app guard's model list
 * (`useAppGuardData().models`); empty means no model is configured yet.
 * @example <ModelListContext.Provider value={{ models }}>…</ModelListContext.Provider>
 */
export interface ModelList {
  models: readonly ModelOption[];
  loading?: boolean;
  /**
   * The list is the workspace's whole list of chat models (the editor route's): the checklist then
   * warns about nodes whose model is not in it. Unset (stories, tests, the default): no such check.
   */
  complete?: boolean;
}

export const ModelListContext = createContext<ModelList>({ models: [] });

// ------------------------------------------------------------------ workspace resources

/** A knowledge base, tool, tool function, MCP server or MCP tool as a picker row. */
export interface ResourceOption {
  id: string;
  name: string;
  description?: string;
}

/** One parameter a tool function takes (what the node's params list is filled with). */
export interface ToolParameterOption {
  name: string;
  /** A value type name (`string`, `number`, `integer`, `boolean`, `object`, `array[string]` …). */
  type?: string;
  required?: boolean;
  description?: string;
}

/** A function of a tool (or a tool of an MCP server); `parameters` when known. */
export interface ToolFunctionOption extends ResourceOption {
  parameters?: readonly ToolParameterOption[];
}

/** A tool of the workspace with its functions (an OpenAPI tool's operations). */
export interface ToolOption extends ResourceOption {
  functions: readonly ToolFunctionOption[];
}

/** An MCP server of the workspace with the tools it exposes. */
export interface McpServerOption extends ResourceOption {
  tools: readonly ToolFunctionOption[];
}

/**
 * Where the pickers of knowledge bases, tools and MCP servers get their rows. The editor route
 * implements it over the API; each `list` is called when a picker opens (with an abort signal).
 * A source that is absent or answers nothing shows the picker's empty state.
 */
export interface WorkspaceResources {
  knowledgeBases?: ResourceSource<ResourceOption>;
  tools?: ResourceSource<ToolOption>;
  mcpServers?: ResourceSource<McpServerOption>;
  /** The workspace's credentials (by identifier), for plugin panels that call a service. */
  credentials?: ResourceSource<ResourceOption>;
  /** The workspace's database connections, for plugin panels that query one. */
  databases?: ResourceSource<ResourceOption>;
  /** The workspace's prompt library, for plugin panels that start from a saved prompt. */
  prompts?: ResourceSource<ResourceOption>;
}

/** One list of a workspace's resources, loaded when a picker opens. */
export interface ResourceSource<T> {
  list(opts: { signal: AbortSignal }): Promise<readonly T[]>;
}

export const WorkspaceResourcesContext = createContext<WorkspaceResources>({});
