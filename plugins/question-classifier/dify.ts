import { list, rec, sel, str, text, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { memory, model, vision } from '../shared/dify';

const fromDify = (data: Record<string, unknown>, ctx: DifyImportContext) => ({
    model: model(data.model),
  ...memory(data.memory),
  ...vision(data.vision, ctx),
    query: sel(data.query_variable_selector, ctx),
    classes: list(data.classes).map((x) => ({ id: str(rec(x).id), name: str(rec(x).name).slice(0, 500) })),
    instruction: text(data.instruction, ctx),
});

/** Dify's question classifier: model, query, classes (ids kept as branch handles), instruction. */
export const dify: DifyImportHook = { types: ['question-classifier'], import: fromDify };
