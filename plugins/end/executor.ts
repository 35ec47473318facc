import { defineNodeExecutor } from '../../src/plugin-sdk';
import { endPlugin } from './manifest';

/** Collects the named outputs; at the top level they become the run's outputs. */
export const endExecutor = defineNodeExecutor(endPlugin, {
  providesRunOutputs: true,
  execute({ config, variables }) {
    const outputs: Record<string, unknown> = {};
    for (const o of config.outputs) if (o.name) outputs[o.name] = variables.get(o.selector) ?? null;
    return { outputs };
  },
});

export default endExecutor;
