import { clamp, list, rec, str, text, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { memory, model, runSettings } from '../shared/dify';

/** Dify's agent strategies that are the tool-calling loop our agent runs. */
const LOOP_STRATEGIES = ['function_calling', 'ReAct'];

/** A Dify agent parameter's value (`{ type, value }`). */
const param = (data: Record<string, unknown>, name: string) => rec(rec(data.agent_parameters)[name]).value;

/** `{{#a.b#}}` alone → its selector (the agent's query is a selector here); anything else → undefined. */
function onlyReference(v: string): string[] | undefined {
  const m = /^\s*\{\{#([^#{}]+)#\}\}\s*$/.exec(v);
  return m ? m[1].split('.') : undefined;
}

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const strategy = str(data.agent_strategy_name);
  if (!LOOP_STRATEGIES.includes(strategy)) ctx.warn('agentStrategy', { node: ctx.node, strategy: strategy || '-' });
  const m = rec(param(data, 'model'));
  const query = onlyReference(text(param(data, 'query'), ctx));
  const tools = list(param(data, 'tools')).map((x) => {
    const t = rec(x);
    ctx.warn('toolNeedsSetup', { node: ctx.node, tool: str(t.tool_label) || str(t.tool_name) });
    // The workspace's tool is not known from a Dify file: the builder picks it again.
    return { type: 'tool', providerId: '', name: str(t.tool_name).slice(0, 200), enabled: t.enabled !== false };
  });
  const iterations = param(data, 'maximum_iterations');
  return {
    model: model({ ...m, name: m.model ?? m.name }),
    instructions: text(param(data, 'instruction'), ctx),
    ...(query ? { query } : {}),
    tools,
    ...(iterations !== undefined ? { maxIterations: clamp(iterations, 1, 50, 10) } : {}),
    ...memory(data.memory),
    ...runSettings(data),
  };
}

/** Dify's agent node (a strategy plugin's parameters) → our agent: model, instructions, query, tools to pick again. */
export const dify: DifyImportHook = { types: ['agent'], import: fromDify };
