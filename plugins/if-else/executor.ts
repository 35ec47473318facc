import { defineNodeExecutor } from '../../src/plugin-sdk';
import { evaluateConditions } from '../shared/exec/compare';
import { ELSE_HANDLE, ifElsePlugin } from './manifest';

/** Takes the branch of the first case whose conditions hold, else `false`. */
export const ifElseExecutor = defineNodeExecutor(ifElsePlugin, {
  execute({ config, variables }) {
    const hit = config.cases.find((c) => evaluateConditions(c.conditions, c.logicalOperator, variables));
    const handle = hit?.id ?? ELSE_HANDLE;
    return { outputs: { result: Boolean(hit), selected_case_id: handle }, handle };
  },
});

export default ifElseExecutor;
