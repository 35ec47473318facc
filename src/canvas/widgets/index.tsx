/**
 * The flow-aware widgets of the node inspector: what the built-in plugins name in their schema
 * metadata (`plugins/shared/widgets.ts`), rendered inside SchemaForm. Each needs the
 * `NodeWidgetContext` the inspector provides; models and workspace resources come from
 * `ModelListContext` and `WorkspaceResourcesContext`, which the editor route fills.
 */
import { createElement, type ComponentType } from 'react';
import { ariaOf } from '../../kit/widgets/types';
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
 * Widget name → renderer, for SchemaForm's `widgets`. Keys are the names of `NODE_WIDGETS`
 * (plugins/shared/widgets.ts), written out here because core code does not import plugins.
 * @example <SchemaForm schema={plugin.configSchema} widgets={nodeWidgets} … />
 */
export const nodeWidgets: Readonly<Record<string, WidgetRenderer>> = {
  variable: as(VariableWidget),
  template: as(TemplateWidget),
  'prompt-messages': as(PromptMessagesWidget),
  model: as(ModelWidget),
  'knowledge-bases': as(KnowledgeBasesWidget),
  tool: as(ToolWidget),
  'mcp-tool': as(McpToolWidget),
  'tool-list': as(ToolListWidget),
  'agent-nodes': as(AgentNodesWidget),
  'input-variables': as(InputVariablesWidget),
  'output-variables': as(OutputVariablesWidget),
  'form-fields': as(FormFieldsWidget),
  conditions: as(ConditionsWidget),
  'key-values': as(KeyValuesWidget),
  'tool-params': as(ToolParamsWidget),
  'class-list': as(ClassListWidget),
  'loop-variables': as(LoopVariablesWidget),
  assignments: as(AssignmentsWidget),
  'variable-groups': as(VariableGroupsWidget),
  'variable-list': as(VariableListWidget),
  'default-values': as(DefaultValuesWidget),
  'sandbox-timeout': as(SandboxTimeoutWidget),
};
