import { bool, list, oneOf, rec, sel, str, text, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { memory, model, vision } from '../shared/dify';

const PARAM_TYPES: Record<string, string> = { bool: 'boolean', select: 'string' };

const fromDify = (data: Record<string, unknown>, ctx: DifyImportContext) => ({
    model: model(data.model),
  ...memory(data.memory),
  ...vision(data.vision, ctx),
    query: sel(data.query, ctx),
    parameters: list(data.parameters).map((x) => {
      const p = rec(x);
      return {
        name: str(p.name).slice(0, 64),
        type: PARAM_TYPES[str(p.type)] ?? str(p.type, 'string'),
        description: str(p.description).slice(0, 1000),
        required: bool(p.required),
        options: list(p.options).map((o) => str(o)).slice(0, 100),
      };
    }),
    instruction: text(data.instruction, ctx),
    reasoningMode: oneOf(data.reasoning_mode, ['function_call', 'prompt'] as const, 'function_call'),
});

/** Dify's parameter extractor: model, query, parameters, instruction, reasoning mode. */
export const dify: DifyImportHook = { types: ['parameter-extractor'], import: fromDify };
