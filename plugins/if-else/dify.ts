import { list, oneOf, rec, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { condition } from '../shared/dify';

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  // Files before Dify 0.8 hold one case at the top level (its branch is `true`).
  const cases = Array.isArray(data.cases) ? data.cases : [{ case_id: 'true', logical_operator: data.logical_operator, conditions: data.conditions }];
  return {
    cases: cases.map((x) => {
      const c = rec(x);
      return { id: str(c.case_id ?? c.id), logicalOperator: oneOf(c.logical_operator, ['and', 'or'] as const, 'and'), conditions: list(c.conditions).map((k) => condition(k, ctx)) };
    }),
  };
}

/** Dify's if-else: its cases (old files' single case too). */
export const dify: DifyImportHook = { types: ['if-else'], import: fromDify };
