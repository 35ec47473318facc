import { z } from 'zod';
import { isChatMode, isSelector, MaybeSelector, NODE_WIDGETS, Template, type FlowGraph, type PluginI18n, type PluginIssue, type Port } from '../../src/plugin-sdk';

/**
 * The model a node calls and its completion parameters, the conversation memory and vision
 * settings: shared by llm, question-classifier, parameter-extractor and agent. Parameter ranges
 * are those of the OpenAI-style APIs the providers speak; an absent parameter is left to the model.
 */

export const CompletionParams = z.object({
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  /** At most four stop sequences (the common provider limit). */
  stop: z.array(z.string().min(1).max(100)).max(4).default([]),
  response_format: z.enum(['text', 'json_object', 'json_schema']).default('text'),
});
export type CompletionParams = z.infer<typeof CompletionParams>;

export const ModelRef = z.object({
  /** Provider id of the workspace's model list (empty: not chosen). */
  provider: z.string().max(100).default(''),
  name: z.string().max(200).default(''),
  mode: z.enum(['chat', 'completion']).default('chat'),
  params: CompletionParams.default({ temperature: 0.7, stop: [], response_format: 'text' }),
});
export type ModelRef = z.infer<typeof ModelRef>;

export const modelField = (order = 0) =>
  ModelRef.default({ provider: '', name: '', mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } }).meta({
    label: 'model.model',
    widget: NODE_WIDGETS.model,
    order,
  });

/**
 * Conversation memory (chat modes): the last `memoryWindow` turns go with the prompt. `on`: memory is
 * on unless the config says otherwise (the LLM and agent nodes: a chat's second turn should know
 * its first); outside a conversation it has no effect either way.
 */
export function memoryShape(order = 50, on = false) {
  const group = 'model.memoryGroup';
  return {
    memoryEnabled: z.boolean().default(on).meta({ label: 'model.memoryEnabled', help: 'model.memoryHelp', group, order }),
    memoryWindowEnabled: z
      .boolean()
      .default(true)
      .meta({ label: 'model.memoryWindowEnabled', group, order: order + 1, visibleWhen: { field: 'memoryEnabled', equals: true } }),
    memoryWindow: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(10)
      .meta({
        label: 'model.memoryWindow',
        group,
        order: order + 2,
        visibleWhen: [
          { field: 'memoryEnabled', equals: true },
          { field: 'memoryWindowEnabled', equals: true },
        ],
      }),
  };
}

/**
 * Vision: images from a file variable (`files`: the default one) go to a multimodal model, at the
 * detail of spec 9's image modes (`low`: fit in 512×512, 65 tokens; `high`: with crops, 129 in all).
 */
export function visionShape(order = 60, files: string[] = []) {
  const group = 'model.visionGroup';
  return {
    visionEnabled: z.boolean().default(false).meta({ label: 'model.visionEnabled', help: 'model.visionHelp', group, order }),
    visionFiles: MaybeSelector.default(files).meta({
      label: 'model.visionFiles',
      widget: NODE_WIDGETS.variable,
      group,
      order: order + 1,
      visibleWhen: { field: 'visionEnabled', equals: true },
    }),
    visionDetail: z
      .enum(['high', 'low'])
      .default('high')
      .meta({ label: 'model.visionDetail', optionLabels: 'model.visionDetails', group, order: order + 2, visibleWhen: { field: 'visionEnabled', equals: true } }),
  };
}

export const PromptMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']).default('user'),
  text: Template.default(''),
});
export type PromptMessage = z.infer<typeof PromptMessage>;

/** Issue when no model is chosen. */
export function checkModel(model: ModelRef, field = 'model'): PluginIssue[] {
  return model.provider && model.name ? [] : [{ key: 'model.issues.modelMissing', path: [field] }];
}

/**
 * Memory only exists in a conversation (a kind whose memory is on by default, `memoryOn`, is not
 * warned about it: the setting simply waits for a conversation); vision needs its file variable.
 */
export function checkMemoryAndVision(
  config: { memoryEnabled?: boolean; visionEnabled?: boolean; visionFiles?: string[] },
  graph: FlowGraph,
  memoryOn = false,
): PluginIssue[] {
  const out: PluginIssue[] = [];
  if (config.memoryEnabled && !memoryOn && !isChatMode(graph.mode)) out.push({ key: 'model.issues.memoryOutsideChat', path: ['memoryEnabled'], severity: 'warning' });
  if (config.visionEnabled && !isSelector(config.visionFiles)) out.push({ key: 'model.issues.visionFilesMissing', path: ['visionFiles'] });
  return out;
}

/** Token usage, as every model node reports it. */
export const usagePort = (): Port => ({
  name: 'usage',
  type: 'object',
  labelKey: 'model.usage',
  children: [
    { name: 'prompt_tokens', type: 'number' },
    { name: 'completion_tokens', type: 'number' },
    { name: 'total_tokens', type: 'number' },
  ],
});

export const modelTexts = {
  zh: {
    model: {
      model: '模型',
      memoryGroup: '记忆',
      memoryEnabled: '记忆',
      memoryHelp: '对话中把最近的对话轮次一并发给模型（工作流没有对话，不生效）',
      memoryWindowEnabled: '限制记忆窗口',
      memoryWindow: '记忆轮数',
      visionGroup: '视觉',
      visionEnabled: '视觉',
      visionHelp: '把图片一并发给支持视觉的模型',
      visionFiles: '图片变量',
      visionDetail: '图片分辨率',
      visionDetails: { high: '高（512 像素分块，约 129 tokens）', low: '低（缩放到 512×512，65 tokens）' },
      usage: '用量',
      issues: {
        modelMissing: '请选择模型',
        memoryOutsideChat: '工作流没有对话，记忆不会生效',
        visionFilesMissing: '已开启视觉，请选择图片变量',
      },
    },
  },
  en: {
    model: {
      model: 'Model',
      memoryGroup: 'Memory',
      memoryEnabled: 'Memory',
      memoryHelp: 'In a conversation, send the latest turns along with the prompt (a workflow has none)',
      memoryWindowEnabled: 'Limit the memory window',
      memoryWindow: 'Turns remembered',
      visionGroup: 'Vision',
      visionEnabled: 'Vision',
      visionHelp: 'Send the images along to a model that can see',
      visionFiles: 'Image variable',
      visionDetail: 'Image resolution',
      visionDetails: { high: 'High (512-pixel crops, about 129 tokens)', low: 'Low (fit in 512×512, 65 tokens)' },
      usage: 'Usage',
      issues: {
        modelMissing: 'Choose a model',
        memoryOutsideChat: 'A workflow has no conversation, so memory has no effect',
        visionFilesMissing: 'Vision is on: choose the image variable',
      },
    },
  },
} satisfies PluginI18n;
