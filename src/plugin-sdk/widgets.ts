/**
 * The names of the widgets the canvas supplies to every kind, for schema metadata
 * (`.meta({ widget: NODE_WIDGETS.variable })`): written once here, so a manifest and the canvas's
 * widget map cannot drift apart. The kit's built-in widgets (schemas/ui.ts `WIDGETS`) need nothing;
 * these the canvas inspector supplies to SchemaForm, because they need the flow: upstream outputs,
 * the model list, the workspace's knowledge bases and tools. A widget only one kind uses lives in
 * that kind's folder: its manifest names it by a constant of its own, its view renders it.
 */
export const NODE_WIDGETS = {
  /** A selector field: the variable picker over upstream outputs and sys/env/conversation variables. */
  variable: 'variable',
  /**
   * A container's input list (an iteration's `iterator`): the variable picker offering only arrays,
   * and only from outside the container (never its inner nodes' outputs).
   */
  arrayVariable: 'array-variable',
  /** A text field with `{{#nodeId.path#}}` autocompletion. */
  template: 'template',
  /** Provider + model + completion parameters (the workspace's LLM list). */
  model: 'model',
  /** Knowledge base ids of the workspace. */
  knowledgeBases: 'knowledge-bases',
  /** `[{ name, selector }]` rows. */
  inputVariables: 'input-variables',
  /** `[{ name, type }]` rows. */
  outputVariables: 'output-variables',
  /** Condition rows `{ selector, operator, value }` with and/or. */
  conditions: 'conditions',
  /** Tool / MCP arguments: name → variable or text. */
  toolParams: 'tool-params',
  /** Default values per output (error strategy "default value"). */
  defaultValues: 'default-values',
} as const;

/** A widget name the canvas supplies. */
export type NodeWidgetName = (typeof NODE_WIDGETS)[keyof typeof NODE_WIDGETS];
