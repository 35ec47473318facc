import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS, type FlowNode, type FlowGraph, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkMemoryAndVision, checkModel, memoryShape, modelField, modelTexts, PromptMessage, usagePort, visionShape } from '../shared/model';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkNames, ParamDef, validPorts } from '../shared/variables';
import { dify } from './dify';
import { modelSummary } from '../shared/summary';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const LLM_WIDGETS = {
  /** A list of chat messages `[{ role, text }]` with a template editor each. */
  promptMessages: 'prompt-messages',
} as const;

/** Where the context goes in a prompt (Dify's placeholder; not a node reference). */
export const CONTEXT_PLACEHOLDER = '{{#context#}}';

const configSchema = z.object({
  model: modelField(0),
  prompts: z
    .array(PromptMessage)
    .max(50)
    .default([
      { role: 'system', text: '' },
      { role: 'user', text: '' },
    ])
    .meta({ label: 'fields.prompts', help: 'fields.promptsHelp', widget: LLM_WIDGETS.promptMessages, order: 10 }),
  contextEnabled: z.boolean().default(false).meta({ label: 'fields.contextEnabled', help: 'fields.contextHelp', order: 20 }),
  context: MaybeSelector.default([]).meta({
    label: 'fields.context',
    widget: NODE_WIDGETS.variable,
    order: 21,
    visibleWhen: { field: 'contextEnabled', equals: true },
  }),
  // On by default: a chatflow is a multi-turn conversation with memory.
  ...memoryShape(50, true),
  ...visionShape(60),
  structuredOutputEnabled: z.boolean().default(false).meta({ label: 'fields.structuredOutputEnabled', help: 'fields.structuredOutputHelp', order: 70 }),
  structuredOutput: z
    .array(ParamDef)
    .max(100)
    .default([])
    .meta({ label: 'fields.structuredOutput', widget: NODE_WIDGETS.outputVariables, order: 71, visibleWhen: { field: 'structuredOutputEnabled', equals: true } }),
  ...runSettingsShape({ timeout: 120 }),
});
export type LlmConfig = z.infer<typeof configSchema>;

function outputs(config: LlmConfig): Port[] {
  const out: Port[] = [
    { name: 'text', type: 'string', labelKey: 'outputs.text' },
    { name: 'reasoning_content', type: 'string', labelKey: 'outputs.reasoning' },
    usagePort(),
  ];
  if (config.structuredOutputEnabled) {
    out.push({
      name: 'structured_output',
      type: 'object',
      labelKey: 'outputs.structuredOutput',
      children: validPorts(config.structuredOutput, (p) => ({ type: p.type, required: p.required })),
    });
  }
  return out;
}

function validate(node: FlowNode<LlmConfig>, graph: FlowGraph): PluginIssue[] {
  const c = node.config;
  const out = [...checkModel(c.model)];
  if (!c.prompts.some((p) => p.text.trim())) out.push({ key: 'issues.promptEmpty', path: ['prompts'] });
  if (c.contextEnabled) {
    if (!isSelector(c.context)) out.push({ key: 'issues.contextMissing', path: ['context'] });
    if (!c.prompts.some((p) => p.text.includes(CONTEXT_PLACEHOLDER))) out.push({ key: 'issues.contextUnused', params: { placeholder: CONTEXT_PLACEHOLDER }, path: ['prompts'], severity: 'warning' });
  }
  out.push(...checkMemoryAndVision(c, graph, true));
  if (c.structuredOutputEnabled) {
    if (!c.structuredOutput.length) out.push({ key: 'issues.structuredOutputEmpty', path: ['structuredOutput'] });
    out.push(...checkNames(c.structuredOutput, 'structuredOutput'));
  }
  out.push(...checkRunSettings(node, outputs(c)));
  return out;
}

/** Calls a language model with prompt templates, optional context, memory, vision and structured output. */
export const llmPlugin = defineNodePlugin({
  kind: 'llm',
  dify,
  version: 1,
  category: 'model',
  icon: { lucide: 'brain-circuit' },
  color: '#6366f1',
  i18n: mergeTexts(commonTexts, modelTexts, runSettingsTexts, {
    zh: {
      title: '大模型',
      description: '调用大语言模型，根据提示词生成回复',
      fields: {
        prompts: '提示词',
        promptsHelp: '系统提示词与用户消息，输入 { 插入前面节点的变量',
        contextEnabled: '上下文',
        contextHelp: '把知识检索等结果作为上下文，并在提示词中插入“上下文”',
        context: '上下文变量',
        structuredOutputEnabled: '结构化输出',
        structuredOutputHelp: '要求模型按字段输出 JSON',
        structuredOutput: '输出字段',
      },
      outputs: { text: '生成内容', reasoning: '推理过程', structuredOutput: '结构化输出' },
      issues: {
        promptEmpty: '提示词为空',
        contextMissing: '已开启上下文，请选择上下文变量',
        contextUnused: '提示词中没有 {{placeholder}}，上下文不会被使用',
        structuredOutputEmpty: '已开启结构化输出，请添加字段',
      },
    },
    en: {
      title: 'LLM',
      description: 'Calls a large language model with your prompts',
      fields: {
        prompts: 'Prompts',
        promptsHelp: 'System prompt and user message; type { to insert an earlier variable',
        contextEnabled: 'Context',
        contextHelp: 'Pass retrieved knowledge as context, and insert “context” in a prompt',
        context: 'Context variable',
        structuredOutputEnabled: 'Structured output',
        structuredOutputHelp: 'Ask the model to answer with JSON fields',
        structuredOutput: 'Output fields',
      },
      outputs: { text: 'Generated text', reasoning: 'Reasoning', structuredOutput: 'Structured output' },
      issues: {
        promptEmpty: 'The prompt is empty',
        contextMissing: 'Context is on: choose the context variable',
        contextUnused: 'No prompt contains {{placeholder}}, so the context is not used',
        structuredOutputEmpty: 'Structured output is on: add fields',
      },
    },
  }),
  configSchema,
  outputs: (config) => withErrorOutputs(config, outputs(config)),
  sourceHandles: (config) => withFailBranch(config, [{ id: 'source' }]),
  summary: (config) => modelSummary(config.model),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default llmPlugin;
