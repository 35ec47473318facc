import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS, type FlowNode, type PluginIssue } from '../../src/plugin-sdk';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkToolParams, ToolParam, toolOutputs, toolTexts } from '../shared/tool-params';
import { dify } from './dify';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const TOOL_WIDGETS = {
  /** A tool of the workspace: tool id, with the function id beside it. */
  tool: 'tool',
} as const;

const configSchema = z.object({
  /** The workspace tool (a tool card, spec "tools"). */
  toolId: z.string().max(64).default('').meta({ label: 'fields.tool', widget: TOOL_WIDGETS.tool, order: 0 }),
  /** One function of the tool (an API of an OpenAPI tool). */
  functionId: z.string().max(200).default('').meta({ label: 'fields.function', widget: 'hidden', order: 1 }),
  params: z.array(ToolParam).max(100).default([]).meta({ label: 'fields.params', widget: NODE_WIDGETS.toolParams, order: 2 }),
  ...runSettingsShape({ timeout: 60 }),
});
export type ToolConfig = z.infer<typeof configSchema>;

function validate(node: FlowNode<ToolConfig>): PluginIssue[] {
  const c = node.config;
  const out: PluginIssue[] = [];
  if (!c.toolId || !c.functionId) out.push({ key: 'issues.toolMissing', path: ['toolId'] });
  out.push(...checkToolParams(c.params, 'params'), ...checkRunSettings(node, toolOutputs()));
  return out;
}

/** Calls one function of a workspace tool with arguments taken from variables or text. */
export const toolPlugin = defineNodePlugin({
  kind: 'tool',
  dify,
  version: 1,
  category: 'tool',
  icon: { lucide: 'wrench' },
  color: '#0891b2',
  i18n: mergeTexts(commonTexts, runSettingsTexts, toolTexts, {
    zh: {
      title: '工具',
      description: '调用工作空间中的工具',
      fields: { tool: '工具', function: '工具方法', params: '参数' },
      issues: { toolMissing: '请选择工具及其方法' },
    },
    en: {
      title: 'Tool',
      description: 'Calls a tool of the workspace',
      fields: { tool: 'Tool', function: 'Function', params: 'Parameters' },
      issues: { toolMissing: 'Choose a tool and its function' },
    },
  }),
  configSchema,
  outputs: (config) => withErrorOutputs(config, toolOutputs()),
  sourceHandles: (config) => withFailBranch(config, [{ id: 'source' }]),
  summary: (config) => (config.toolId ? [{ refs: { resource: 'tools', ids: [config.toolId] } }, ...(config.functionId ? [{ text: config.functionId, mono: true }] : [])] : []),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default toolPlugin;
