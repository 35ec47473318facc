import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS, Template, type FlowGraph, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkMemoryAndVision, checkModel, memoryShape, modelField, modelTexts, usagePort, visionShape } from '../shared/model';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkNames, ParamDef, validPorts } from '../shared/variables';
import { dify } from './dify';
import { modelSummary } from '../shared/summary';

const configSchema = z.object({
  model: modelField(0),
  query: MaybeSelector.default([]).meta({ label: 'fields.query', widget: NODE_WIDGETS.variable, order: 1 }),
  parameters: z.array(ParamDef).max(100).default([]).meta({ label: 'fields.parameters', widget: NODE_WIDGETS.outputVariables, order: 2 }),
  instruction: Template.default('').meta({ label: 'fields.instruction', placeholder: 'fields.instructionPlaceholder', widget: NODE_WIDGETS.template, order: 3 }),
  /** Function calling where the model supports it, otherwise a prompt asking for JSON. */
  reasoningMode: z
    .enum(['function_call', 'prompt'])
    .default('function_call')
    .meta({ label: 'fields.reasoningMode', help: 'fields.reasoningModeHelp', optionLabels: 'reasoningModes', order: 4 }),
  ...memoryShape(50),
  ...visionShape(60),
});
export type ParameterExtractorConfig = z.infer<typeof configSchema>;

/** One output per parameter, then whether extraction succeeded and why not. */
function outputs(config: ParameterExtractorConfig): Port[] {
  const params = validPorts(
    config.parameters.filter((p) => !p.name.startsWith('__')),
    (p) => ({ type: p.type, required: p.required }),
  );
  return [
    ...params,
    { name: '__is_success', type: 'number', labelKey: 'outputs.isSuccess' },
    { name: '__reason', type: 'string', labelKey: 'outputs.reason' },
    { ...usagePort(), name: '__usage' },
  ];
}

function validate(node: FlowNode<ParameterExtractorConfig>, graph: FlowGraph): PluginIssue[] {
  const c = node.config;
  const out = [...checkModel(c.model)];
  if (!isSelector(c.query)) out.push({ key: 'issues.querySelectorEmpty', path: ['query'] });
  if (!c.parameters.length) out.push({ key: 'issues.parametersEmpty', path: ['parameters'] });
  out.push(...checkNames(c.parameters, 'parameters'));
  c.parameters.forEach((p, i) => {
    // The `__` names are the node's own outputs.
    if (p.name.startsWith('__')) out.push({ key: 'issues.nameReserved', params: { name: p.name }, path: ['parameters', i, 'name'] });
    if (!p.description.trim()) out.push({ key: 'issues.descriptionEmpty', params: { name: p.name || `#${i + 1}` }, path: ['parameters', i, 'description'], severity: 'warning' });
  });
  out.push(...checkMemoryAndVision(c, graph));
  return out;
}

/** Lets a model pull typed parameters out of text (for tools, http requests …). */
export const parameterExtractorPlugin = defineNodePlugin({
  kind: 'parameter-extractor',
  dify,
  version: 1,
  category: 'model',
  icon: { lucide: 'list-tree' },
  color: '#7c3aed',
  i18n: mergeTexts(commonTexts, modelTexts, {
    zh: {
      title: '参数提取器',
      description: '由模型从文本中提取结构化参数',
      fields: {
        query: '输入变量',
        parameters: '提取参数',
        instruction: '指令',
        instructionPlaceholder: '补充提取规则，帮助模型理解参数',
        reasoningMode: '推理模式',
        reasoningModeHelp: '模型支持时用函数调用，否则用提示词让模型输出 JSON',
      },
      reasoningModes: { function_call: '函数调用', prompt: '提示词' },
      outputs: { isSuccess: '是否成功', reason: '失败原因' },
      issues: {
        parametersEmpty: '请添加要提取的参数',
        nameReserved: '参数名 {{name}} 以 __ 开头，为保留名',
        descriptionEmpty: '参数 {{name}} 缺少描述，模型可能提取不准',
      },
    },
    en: {
      title: 'Parameter extractor',
      description: 'Lets a model pull structured parameters out of text',
      fields: {
        query: 'Input variable',
        parameters: 'Parameters to extract',
        instruction: 'Instructions',
        instructionPlaceholder: 'Extra rules that help the model understand the parameters',
        reasoningMode: 'Reasoning mode',
        reasoningModeHelp: 'Function calling when the model supports it, otherwise a prompt asking for JSON',
      },
      reasoningModes: { function_call: 'Function calling', prompt: 'Prompt' },
      outputs: { isSuccess: 'Succeeded', reason: 'Failure reason' },
      issues: {
        parametersEmpty: 'Add the parameters to extract',
        nameReserved: 'The parameter name {{name}} starts with __, which is reserved',
        descriptionEmpty: 'The parameter {{name}} has no description, so the model may get it wrong',
      },
    },
  }),
  configSchema,
  outputs,
  summary: (config) => modelSummary(config.model),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default parameterExtractorPlugin;
