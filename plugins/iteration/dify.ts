import { bool, clamp, oneOf, sel, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';

const fromDify = (data: Record<string, unknown>, ctx: DifyImportContext) => ({
  iterator: sel(data.iterator_selector, ctx),
  output: sel(data.output_selector, ctx),
  parallel: bool(data.is_parallel),
  maxParallelism: clamp(data.parallel_nums, 1, 10, 10),
  errorMode: oneOf(data.error_handle_mode, ['terminated', 'remove-abnormal-output', 'continue-on-error'] as const, 'terminated'),
  flattenOutput: bool(data.flatten_output, true),
});

/** Dify's iteration: iterator, output, parallelism, error mode. */
export const dify: DifyImportHook = { types: ['iteration'], import: fromDify };
