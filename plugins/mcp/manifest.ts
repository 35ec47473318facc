import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS, type FlowNode, type PluginIssue } from '../../src/plugin-sdk';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkToolParams, ToolParam, toolOutputs, toolTexts } from '../shared/tool-params';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const MCP_WIDGETS = {
  /** An MCP server of the workspace and one of its tools. */
  mcpTool: 'mcp-tool',
} as const;

const configSchema = z.object({
  serverId: z.string().max(64).default('').meta({ label: 'fields.server', widget: MCP_WIDGETS.mcpTool, order: 0 }),
  toolName: z.string().max(200).default('').meta({ label: 'fields.toolName', widget: 'hidden', order: 1 }),
  args: z.array(ToolParam).max(100).default([]).meta({ label: 'fields.args', widget: NODE_WIDGETS.toolParams, order: 2 }),
  ...runSettingsShape({ timeout: 60 }),
});
export type McpConfig = z.infer<typeof configSchema>;

function validate(node: FlowNode<McpConfig>): PluginIssue[] {
  const c = node.config;
  const out: PluginIssue[] = [];
  if (!c.serverId) out.push({ key: 'issues.serverMissing', path: ['serverId'] });
  else if (!c.toolName.trim()) out.push({ key: 'issues.toolMissing', path: ['toolName'] });
  out.push(...checkToolParams(c.args, 'args'), ...checkRunSettings(node, toolOutputs()));
  return out;
}

/** Calls a tool of an MCP (Model Context Protocol) server the workspace registered. */
export const mcpPlugin = defineNodePlugin({
  kind: 'mcp',
  version: 1,
  category: 'tool',
  icon: { lucide: 'plug' },
  color: '#0891b2',
  i18n: mergeTexts(commonTexts, runSettingsTexts, toolTexts, {
    zh: {
      title: 'MCP 工具',
      description: '调用 MCP 服务器提供的工具',
      fields: { server: 'MCP 服务', toolName: '工具', args: '参数' },
      issues: { serverMissing: '请选择 MCP 服务', toolMissing: '请选择要调用的工具' },
    },
    en: {
      title: 'MCP tool',
      description: 'Calls a tool of an MCP server',
      fields: { server: 'MCP server', toolName: 'Tool', args: 'Arguments' },
      issues: { serverMissing: 'Choose an MCP server', toolMissing: 'Choose the tool to call' },
    },
  }),
  configSchema,
  outputs: (config) => withErrorOutputs(config, toolOutputs()),
  sourceHandles: (config) => withFailBranch(config, [{ id: 'source' }]),
  summary: (config) => (config.serverId ? [{ refs: { resource: 'mcpServers', ids: [config.serverId] } }, ...(config.toolName ? [{ text: config.toolName, mono: true }] : [])] : []),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default mcpPlugin;
