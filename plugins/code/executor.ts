import { defineNodeExecutor, matchesValueType, NodeExecutionError } from '../../src/plugin-sdk';
import { describeType } from '../shared/exec/typed-values';
import { codePlugin } from './manifest';

export const CODE_ERRORS = {
  SANDBOX_UNAVAILABLE: 'CODE-SANDBOX-UNAVAILABLE',
  OUTPUT_MISSING: 'CODE-OUTPUT-MISSING',
  OUTPUT_TYPE: 'CODE-OUTPUT-TYPE',
} as const;

/**
 * Runs the code in the sandbox with the inputs by name, then checks what came back against the
 * declared outputs: each must be there and of its type (numbers written as text are not accepted:
 * the code controls its output exactly, unlike a model). Only declared outputs go downstream.
 */
export const codeExecutor = defineNodeExecutor(codePlugin, {
  async execute({ config, variables, services, signal, waiting }) {
    if (!services.sandbox) throw new NodeExecutionError(CODE_ERRORS.SANDBOX_UNAVAILABLE, 'No code sandbox is available to this run');
    const inputs: Record<string, unknown> = {};
    for (const i of config.inputs) if (i.name) inputs[i.name] = variables.get(i.selector) ?? null;
    // Waiting for a free sandbox is shown, and does not count against the node's timeout.
    const result = await services.sandbox.run(
      { language: config.language, code: config.code, inputs, timeoutMs: config.timeoutSeconds * 1000 },
      { signal, onQueue: (q) => waiting(q && { reason: 'sandbox', ahead: q.ahead }) },
    );
    const outputs: Record<string, unknown> = {};
    for (const o of config.outputs) {
      if (!o.name) continue;
      if (!Object.prototype.hasOwnProperty.call(result, o.name) || result[o.name] === undefined) {
        throw new NodeExecutionError(CODE_ERRORS.OUTPUT_MISSING, `The code returned no "${o.name}" (declared as ${o.type})`, { returned: Object.keys(result) });
      }
      const value = result[o.name];
      // null stands for "no value" in any type, as in Dify.
      if (value !== null && !matchesValueType(value, o.type)) {
        throw new NodeExecutionError(CODE_ERRORS.OUTPUT_TYPE, `The output "${o.name}" should be ${o.type} but the code returned ${describeType(value)}`, {
          output: o.name,
          expected: o.type,
        });
      }
      outputs[o.name] = value;
    }
    return { outputs };
  },
});

export default codeExecutor;
