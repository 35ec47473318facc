import { VALUE_TYPES, type ValueType } from '../../src/plugin-sdk';
import { clamp, list, num, oneOf, rec, sel, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { condition } from '../shared/dify';

const valueType = (v: unknown, fallback: ValueType = 'string'): ValueType => oneOf(v, VALUE_TYPES, fallback);

const fromDify = (data: Record<string, unknown>, ctx: DifyImportContext) => ({
  loopVariables: list(data.loop_variables).map((x) => {
    const v = rec(x);
    const type = valueType(v.var_type);
    const fromVariable = v.value_type === 'variable';
    const constant = type === 'number' ? (num(v.value) ?? v.value) : v.value;
    return { name: str(v.label).slice(0, 64), type, source: fromVariable ? 'variable' : 'constant', selector: fromVariable ? sel(v.value, ctx) : [], ...(fromVariable ? {} : { value: constant }) };
  }),
  breakConditions: list(data.break_conditions).map((c) => condition(c, ctx)),
  logicalOperator: oneOf(data.logical_operator, ['and', 'or'] as const, 'and'),
  maxCount: clamp(data.loop_count, 1, 1000, 10),
});

/** Dify's loop: loop variables, break conditions, the round limit. */
export const dify: DifyImportHook = { types: ['loop'], import: fromDify };
