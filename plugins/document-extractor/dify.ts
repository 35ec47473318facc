import { sel, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';

const fromDify = (data: Record<string, unknown>, ctx: DifyImportContext) => ({ variable: sel(data.variable_selector, ctx) });

/** Dify's document extractor: the file variable it reads (one file or a list: known from the variable's type here). */
export const dify: DifyImportHook = { types: ['document-extractor'], import: fromDify };
