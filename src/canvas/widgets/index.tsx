/**
 * The flow-aware widgets of the node inspector that any kind may name (the SDK's `NODE_WIDGETS`),
 * rendered inside SchemaForm; a kind's own widgets come with its view (`NodeView.widgets`, built
 * from ./kit.ts). Each needs the `NodeWidgetContext` the inspector provides; models and workspace
 * resources come from `ModelListContext` and `WorkspaceResourcesContext`, which the editor route fills.
 */
import { useMemo } from 'react';
import { VALUE_TYPES } from '../../../schemas/flow';
import { ariaOf } from '../../kit/widgets/types';
import { NODE_WIDGETS } from '../../plugin-sdk';
import type { WidgetRenderer } from '../../kit/schema-form';
import { CodeWidget } from './code-widget';
import { ConditionsWidget } from './conditions';
import { DefaultValuesWidget } from './flow-widgets';
import { asWidget as as } from './kit';
import { InputVariablesWidget, OutputVariablesWidget, ToolParamsWidget, type NodeWidgetProps } from './list-widgets';
import { ModelWidget } from './model-widgets';
import { KnowledgeBasesWidget } from './resource-widgets';
import { TemplateEditor } from './template-editor';
import { VariablePicker } from './variable-picker';
import { useNodeWidgetEnv } from './context';
import { listVariables } from './variables';

export * from './context';
export { ConstantInput, parseConstant } from './constant-input';
export { type NodeWidgetProps } from './list-widgets';
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

const ARRAY_TYPES = VALUE_TYPES.filter((t) => t.startsWith('array'));

/** An iteration's input: arrays only, from outside it (its inner nodes run once per element of it). */
function ArrayVariableWidget(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const groups = useMemo(() => listVariables(env.registry, env.graph, env.node.id, { includeChildren: false }), [env.registry, env.graph, env.node.id]);
  return (
    <VariablePicker
      {...ariaOf(p)}
      value={Array.isArray(p.value) ? (p.value as string[]) : []}
      groups={groups}
      types={ARRAY_TYPES}
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
  const rows = p.field.meta.rows ?? 2;
  return (
    <TemplateEditor
      // A text of several lines (a prompt, an answer, a body) also opens large; a one-line box does not.
      large={rows > 1 ? (p.field.label ? p.tk(p.field.label) : p.field.name) : undefined}
      {...ariaOf(p)}
      value={typeof p.value === 'string' ? p.value : ''}
      onChange={p.onChange}
      onBlur={p.onBlur}
      disabled={p.disabled}
      readOnly={p.readOnly}
      invalid={p.invalid}
      placeholder={p.placeholder}
      rows={rows}
    />
  );
}

/**
 * Widget name → renderer, for SchemaForm's `widgets`: the names are the SDK's `NODE_WIDGETS`.
 * @example <SchemaForm schema={plugin.configSchema} widgets={nodeWidgets} … />
 */
export const nodeWidgets: Readonly<Record<string, WidgetRenderer>> = {
  [NODE_WIDGETS.variable]: as(VariableWidget),
  [NODE_WIDGETS.arrayVariable]: as(ArrayVariableWidget),
  [NODE_WIDGETS.template]: as(TemplateWidget),
  [NODE_WIDGETS.model]: as(ModelWidget),
  [NODE_WIDGETS.knowledgeBases]: as(KnowledgeBasesWidget),
  [NODE_WIDGETS.inputVariables]: as(InputVariablesWidget),
  [NODE_WIDGETS.outputVariables]: as(OutputVariablesWidget),
  [NODE_WIDGETS.conditions]: as(ConditionsWidget),
  [NODE_WIDGETS.toolParams]: as(ToolParamsWidget),
  [NODE_WIDGETS.defaultValues]: as(DefaultValuesWidget),
  // Replaces SchemaForm's built-in code editor in node inspectors: the same editor with "Open large".
  code: as(CodeWidget),
};
