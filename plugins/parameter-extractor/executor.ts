import { defaultValueFor, defineNodeExecutor, type ChatMessage, type ChatResult } from '../../src/plugin-sdk';
import { chat, chatParameters, memoryMessages, parseJsonLoose, requireModels, usageOutput } from '../shared/exec/model-call';
import { toText } from '../shared/exec/text';
import { coerceValue, paramsJsonSchema } from '../shared/exec/typed-values';
import type { ParamDef } from '../shared/variables';
import { parameterExtractorPlugin } from './manifest';

const TOOL_NAME = 'extract_parameters';

/** The values the model gave: the tool call's arguments, or the JSON in its text. */
function extracted(r: ChatResult): Record<string, unknown> | undefined {
  const call = r.toolCalls?.find((c) => c.name === TOOL_NAME) ?? r.toolCalls?.[0];
  if (call) return call.arguments;
  const parsed = parseJsonLoose(r.text);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

/**
 * Each parameter as its type (missing or unfit ones get their type's empty value) and the
 * problems: a required parameter missing, a value of the wrong type, a string not among its options.
 */
export function typedParameters(defs: readonly ParamDef[], values: Record<string, unknown>): { outputs: Record<string, unknown>; problems: string[] } {
  const outputs: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const d of defs) {
    if (!d.name || d.name.startsWith('__')) continue;
    const v = values[d.name];
    outputs[d.name] = defaultValueFor(d.type);
    if (v === undefined || v === null || v === '') {
      if (d.required) problems.push(`The required parameter "${d.name}" was not found`);
      continue;
    }
    const c = coerceValue(v, d.type);
    if (!c.ok) {
      problems.push(`The parameter "${d.name}" should be ${d.type}`);
      continue;
    }
    if (d.type === 'string' && d.options.length && !d.options.includes(c.value as string)) {
      problems.push(`The parameter "${d.name}" should be one of ${d.options.join(', ')}`);
      continue;
    }
    outputs[d.name] = c.value;
  }
  return { outputs, problems };
}

/**
 * Lets the model extract typed parameters from the query, by function calling or by a prompt asking
 * for JSON. A failed extraction is an output, not a node failure (`__is_success` 0 and `__reason`),
 * so a flow can branch on it as in Dify.
 */
export const parameterExtractorExecutor = defineNodeExecutor(parameterExtractorPlugin, {
  async execute(ctx) {
    const { config, variables } = ctx;
    const models = requireModels(ctx, config.model);
    const schema = paramsJsonSchema(config.parameters.filter((p) => !p.name.startsWith('__')));
    const instruction = variables.render(config.instruction).trim();
    const byTool = config.reasoningMode === 'function_call';
    const system = [
      'You extract parameters from the user input. Leave out a parameter the input does not give; never invent values.',
      instruction ? `Extra instructions:\n${instruction}` : '',
      byTool ? `Call the function ${TOOL_NAME} with the parameters.` : `Answer with one JSON object only, matching this JSON Schema:\n${JSON.stringify(schema)}`,
    ]
      .filter(Boolean)
      .join('\n\n');
    const messages: ChatMessage[] = [{ role: 'system', content: system }, ...(await memoryMessages(ctx, config)), { role: 'user', content: toText(variables.get(config.query)) }];
    const parameters = chatParameters(config.model.params, byTool ? {} : { response_format: 'json_object' });
    const r = await chat(ctx, models, config.model, messages, {
      parameters,
      ...(byTool ? { tools: [{ name: TOOL_NAME, description: 'Gives the parameters extracted from the user input', parameters: schema }] } : {}),
    });
    const values = extracted(r);
    const { outputs, problems } = typedParameters(config.parameters, values ?? {});
    if (!values) problems.unshift('The model gave no parameters');
    return {
      outputs: { ...outputs, __is_success: problems.length ? 0 : 1, __reason: problems.join('; '), __usage: usageOutput(r.usage) },
      ...(r.usage ? { usage: r.usage } : {}),
    };
  },
});

export default parameterExtractorExecutor;
