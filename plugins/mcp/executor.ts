import { defineNodeExecutor } from '../../src/plugin-sdk';
import { callTool, resolveToolArgs } from '../shared/exec/tools';
import { mcpPlugin } from './manifest';

/** Calls a tool of a registered MCP server through `services.mcp`; text parts become `text`, structured content `json`. */
export const mcpExecutor = defineNodeExecutor(mcpPlugin, {
  async execute({ config, variables, services, signal }) {
    const args = resolveToolArgs(config.args, variables);
    const outputs = await callTool({ type: 'mcp', serverId: config.serverId, name: config.toolName }, args, services, signal);
    return { outputs: { ...outputs } };
  },
});

export default mcpExecutor;
