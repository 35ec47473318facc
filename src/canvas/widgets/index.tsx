/**
 * The flow-aware widgets of the node inspector: what the built-in plugins name in their schema
 * metadata (the SDK's `NODE_WIDGETS`), rendered inside SchemaForm. Each needs the
 * `NodeWidgetContext` the inspector provides; models and workspace resources come from
 * `ModelListContext` and `WorkspaceResourcesContext`, which the editor route fills.
 */
import { createElement, type ComponentType } from 'react';
import { ariaOf } from '../../kit/widgets/types';
import { NODE_WIDGETS } from '../../plugin-sdk';
import type { WidgetRenderer } from '../../kit/schema-form';
import { ConditionsWidget } from './conditions';
import { AgentNodesWidget, AssignmentsWidget, DefaultValuesWidget, LoopVariablesWidget, VariableGroupsWidget } from './flow-widgets';
import {
  ClassListWidget,
  FormFieldsWidget,
  InputVariablesWidget,
  KeyValuesWidget,
  OutputVariablesWidget,
  ToolParamsWidget,
  VariableListWidget,
  type NodeWidgetProps,
} from './list-widgets';
import { ModelWidget, PromptMessagesWidget } from './model-widgets';
import { KnowledgeBasesWidget, McpToolWidget, ToolListWidget, ToolWidget } from './resource-widgets';
import { SandboxTimeoutWidget } from './sandbox-timeout';
import { TemplateEditor } from './template-editor';
import { VariablePicker } from './variable-picker';

export * from './context';
export { ConstantInput, parseConstant } from './constant-input';
export { nextClassId, type NodeWidgetProps } from './list-widgets';
export { uniqueId } from './conditions';
export { keepOrFirst, operatorsFor, takesValue, VALUELESS_OPERATORS } from './operators';
export { findTrigger, insertReference, tokenize, type TemplateSegment, type TemplateTrigger } from './template';
export { TemplateEditor, type TemplateEditorProps } from './template-editor';
export { VariableList, VariablePicker, type VariablePickerProps } from './variable-picker';
export * from './variables';

function VariableWidget(p: NodeWidgetProps) {
  return (
    <VariablePicker
      {...ariaOf(p)}
      value={Array.isArray(p.value) ? (p.value as string[]) : []}
      onChange={p.onChange}
      onBlur={p.onBlur}
      disabled={p.disabled}
      readOnly={p.readOnly}
      invalid={p.invalid}
      placeholder={p.placeholder}
    />
  );
}

function TemplateWidget(p: NodeWidgetProps) {
  return (
    <TemplateEditor
      {...ariaOf(p)}
      value={typeof p.value === 'string' ? p.value : ''}
      onChange={p.onChange}
      onBlur={p.onBlur}
      disabled={p.disabled}
      readOnly={p.readOnly}
      invalid={p.invalid}
      placeholder={p.placeholder}
      rows={p.field.meta.rows ?? 2}
    />
  );
}

const as = (c: ComponentType<NodeWidgetProps>): WidgetRenderer => (p) => createElement(c, p);

/**
 * Widget name → renderer, for SchemaForm's `widgets`: the names are the SDK's `NODE_WIDGETS`.
 * @example <SchemaForm schema={plugin.configSchema} widgets={nodeWidgets} … />
 */
export const nodeWidgets: Readonly<Record<string, WidgetRenderer>> = {
  [NODE_WIDGETS.variable]: as(VariableWidget),
  [NODE_WIDGETS.template]: as(TemplateWidget),
  [NODE_WIDGETS.promptMessages]: as(PromptMessagesWidget),
  [NODE_WIDGETS.model]: as(ModelWidget),
  [NODE_WIDGETS.knowledgeBases]: as(KnowledgeBasesWidget),
  [NODE_WIDGETS.tool]: as(ToolWidget),
  [NODE_WIDGETS.mcpTool]: as(McpToolWidget),
  [NODE_WIDGETS.toolList]: as(ToolListWidget),
  [NODE_WIDGETS.agentNodes]: as(AgentNodesWidget),
  [NODE_WIDGETS.inputVariables]: as(InputVariablesWidget),
  [NODE_WIDGETS.outputVariables]: as(OutputVariablesWidget),
  [NODE_WIDGETS.formFields]: as(FormFieldsWidget),
  [NODE_WIDGETS.conditions]: as(ConditionsWidget),
  [NODE_WIDGETS.keyValues]: as(KeyValuesWidget),
  [NODE_WIDGETS.toolParams]: as(ToolParamsWidget),
  [NODE_WIDGETS.classList]: as(ClassListWidget),
  [NODE_WIDGETS.loopVariables]: as(LoopVariablesWidget),
  [NODE_WIDGETS.assignments]: as(AssignmentsWidget),
  [NODE_WIDGETS.variableGroups]: as(VariableGroupsWidget),
  [NODE_WIDGETS.variableList]: as(VariableListWidget),
  [NODE_WIDGETS.defaultValues]: as(DefaultValuesWidget),
  [NODE_WIDGETS.sandboxTimeout]: as(SandboxTimeoutWidget),
};
