import { defineNodeExecutor } from '../../src/plugin-sdk';
import { variableAggregatorPlugin } from './manifest';
import type { VariableReader } from '../../src/plugin-sdk';

/** The first variable that has a value (the one whose branch ran); null when none has. */
function firstValue(selectors: readonly string[][], variables: VariableReader): unknown {
  for (const s of selectors) {
    if (!s.length) continue;
    const v = variables.get(s);
    if (v !== undefined && v !== null) return v;
  }
  return null;
}

/** Joins branches: `output`, or `{ output }` per group. */
export const variableAggregatorExecutor = defineNodeExecutor(variableAggregatorPlugin, {
  execute({ config, variables }) {
    if (!config.groupsEnabled) return { outputs: { output: firstValue(config.selectors, variables) } };
    const outputs: Record<string, unknown> = {};
    for (const g of config.groups) if (g.name) outputs[g.name] = { output: firstValue(g.selectors, variables) };
    return { outputs };
  },
});

export default variableAggregatorExecutor;
