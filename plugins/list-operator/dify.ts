import { bool, clamp, list, oneOf, rec, sel, str, text, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { COMPARISON_OPERATORS } from '../shared/conditions';

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const filter = rec(data.filter_by);
  const order = rec(data.order_by);
  const limit = rec(data.limit);
  const extract = rec(data.extract_by);
  return {
    variable: sel(data.variable, ctx),
    filterEnabled: bool(filter.enabled),
    filters: list(filter.conditions).map((x) => {
      const c = rec(x);
      const value = Array.isArray(c.value) ? c.value.map((v) => str(v)).join(',') : str(c.value);
      return { key: str(c.key).slice(0, 64), operator: oneOf(c.comparison_operator, COMPARISON_OPERATORS, 'contains'), value: text(value, ctx) };
    }),
    extractEnabled: bool(extract.enabled),
    extractIndex: text(str(extract.serial, '1') || '1', ctx),
    sortEnabled: bool(order.enabled),
    sortKey: str(order.key).slice(0, 64),
    sortOrder: oneOf(order.value, ['asc', 'desc'] as const, 'asc'),
    limitEnabled: bool(limit.enabled),
    limit: clamp(limit.size, 1, 10_000, 10),
  };
}

/** Dify's list operator: variable, filter conditions, extract (serial), order and limit. */
export const dify: DifyImportHook = { types: ['list-operator'], import: fromDify };
