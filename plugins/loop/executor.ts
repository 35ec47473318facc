import { defaultValueFor, defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { evaluateConditions } from '../shared/exec/compare';
import { coerceValue } from '../shared/exec/typed-values';
import { loopPlugin } from './manifest';

/**
 * Runs the body round after round: loop variables start from constants or variables, inner
 * variable assigners change them (`[loopId, name]`), and the break conditions are checked after
 * each round over the round's values, up to `maxCount` rounds.
 */
export const loopExecutor = defineNodeExecutor(loopPlugin, {
  async execute({ config, variables, container }) {
    if (!container) throw new NodeExecutionError('LOOP-NO-BODY', 'The loop has no body to run');
    const initial: Record<string, unknown> = {};
    for (const v of config.loopVariables) {
      if (!v.name) continue;
      const raw = v.source === 'variable' ? variables.get(v.selector) : v.value;
      const typed = raw === undefined || raw === null ? undefined : coerceValue(raw, v.type);
      // Copies: the body changes these, and a value taken from a variable belongs to another node.
      initial[v.name] = typed?.ok ? structuredClone(typed.value) : raw === undefined || raw === null ? defaultValueFor(v.type) : structuredClone(raw);
    }
    const conditions = config.breakConditions;
    const r = await container.loop({
      maxCount: config.maxCount,
      variables: initial,
      ...(conditions.length ? { shouldBreak: (reader) => evaluateConditions(conditions, config.logicalOperator, reader) } : {}),
    });
    return { outputs: { ...r.variables, loop_rounds: r.rounds, broke: r.broke } };
  },
});

export default loopExecutor;
