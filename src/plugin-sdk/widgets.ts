/**
 * The names of the widgets the canvas supplies to plugins, for their schema metadata
 * (`.meta({ widget: NODE_WIDGETS.variable })`): written once here, so a manifest and the canvas's
 * widget map cannot drift apart. The kit's built-in widgets (schemas/ui.ts `WIDGETS`) need nothing;
 * these the canvas inspector supplies to SchemaForm (`widgets` / `renderWidget`), because they need
 * the flow: upstream outputs, the model list, the workspace's knowledge bases and tools.
 */
export const NODE_WIDGETS = {
  /** A selector field: the variable picker over upstream outputs and sys/env/conversation variables. */
  variable: 'variable',
  /** A text field with `{{#nodeId.path#}}` autocompletion. */
  template: 'template',
  /** A list of chat messages `[{ role, text }]` with a template editor each. */
  promptMessages: 'prompt-messages',
  /** Provider + model + completion parameters (the workspace's LLM list). */
  model: 'model',
  /** Knowledge base ids of the workspace. */
  knowledgeBases: 'knowledge-bases',
  /** A tool of the workspace: tool id + function id. */
  tool: 'tool',
  /** An MCP server of the workspace and one of its tools. */
  mcpTool: 'mcp-tool',
  /** Several tools of either kind (agent). */
  toolList: 'tool-list',
  /** Other agent nodes of the flow (hand-offs). */
  agentNodes: 'agent-nodes',
  /** `[{ name, selector }]` rows. */
  inputVariables: 'input-variables',
  /** `[{ name, type }]` rows. */
  outputVariables: 'output-variables',
  /** Rows of a start node's form fields. */
  formFields: 'form-fields',
  /** Condition rows `{ selector, operator, value }` with and/or. */
  conditions: 'conditions',
  /** `[{ key, value }]` rows whose values may hold references. */
  keyValues: 'key-values',
  /** Tool / MCP arguments: name → variable or text. */
  toolParams: 'tool-params',
  /** Classifier classes `[{ id, name }]` (ids generated). */
  classList: 'class-list',
  /** Loop variables `[{ name, type, source, value | selector }]`. */
  loopVariables: 'loop-variables',
  /** Variable-assigner rows. */
  assignments: 'assignments',
  /** Variable-aggregator groups. */
  variableGroups: 'variable-groups',
  /** A list of selectors. */
  variableList: 'variable-list',
  /** Default values per output (error strategy "default value"). */
  defaultValues: 'default-values',
  /** A sandboxed node's timeout in seconds, with the server's cap shown under it. */
  sandboxTimeout: 'sandbox-timeout',
} as const;

/** A widget name the canvas supplies. */
export type NodeWidgetName = (typeof NODE_WIDGETS)[keyof typeof NODE_WIDGETS];
