import { defineNodeExecutor } from '../../src/plugin-sdk';
import { callTool, resolveToolArgs } from '../shared/exec/tools';
import { toolPlugin } from './manifest';

/**
 * Calls one function of a workspace tool or of the built-in tools (both through `services.tools`;
 * `toolId: 'builtin'`: current_time, calculator, webpage_reader) with its params.
 */
export const toolExecutor = defineNodeExecutor(toolPlugin, {
  async execute({ config, variables, services, signal }) {
    const args = resolveToolArgs(config.params, variables);
    const outputs = await callTool({ type: 'tool', provider: config.toolId, name: config.functionId }, args, services, signal);
    return { outputs: { ...outputs } };
  },
});

export default toolExecutor;
