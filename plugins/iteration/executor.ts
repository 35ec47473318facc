import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { iterationPlugin } from './manifest';

/**
 * Runs the body once per element (`[iterationId, 'item']`, `[iterationId, 'index']` inside) and
 * collects the chosen inner output; arrays of arrays are joined when `flattenOutput` is on.
 */
export const iterationExecutor = defineNodeExecutor(iterationPlugin, {
  async execute({ config, variables, container }) {
    if (!container) throw new NodeExecutionError('ITERATION-NO-BODY', 'The iteration has no body to run');
    const items = variables.get(config.iterator);
    const r = await container.iterate(items as unknown[], {
      parallelism: config.parallel ? config.maxParallelism : 1,
      errorMode: config.errorMode,
      ...(config.output.length ? { output: config.output } : {}),
    });
    const output = config.flattenOutput && r.output.length && r.output.every(Array.isArray) ? (r.output as unknown[][]).flat() : r.output;
    return { outputs: { output, ...(r.failed.length ? { failed_indexes: r.failed } : {}) } };
  },
});

export default iterationExecutor;
