import { str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { namedSelectors } from '../shared/dify';

const fromDify = (data: Record<string, unknown>, ctx: DifyImportContext) => ({ inputs: namedSelectors(data.variables, ctx), template: str(data.template) });

/** Dify's template transform (Jinja2 template and its variables). */
export const dify: DifyImportHook = { types: ['template-transform'], import: fromDify };
