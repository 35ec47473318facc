import { bool, list, rec, sel, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';

/** Dify's `variable-assigner` type is the aggregator's old name, unless it holds assignments (then the assigner takes it). */
const holdsAssignments = (data: Record<string, unknown>) => 'items' in data || 'assigned_variable_selector' in data;

const aggregatorType = (v: unknown) => (v === undefined || v === 'any' ? 'auto' : str(v, 'auto'));

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const adv = rec(data.advanced_settings);
  return {
    outputType: aggregatorType(data.output_type),
    selectors: list(data.variables).map((s) => sel(s, ctx)),
    groupsEnabled: bool(adv.group_enabled),
    groups: list(adv.groups).map((x) => {
      const g = rec(x);
      return { name: str(g.group_name).slice(0, 64), outputType: aggregatorType(g.output_type), selectors: list(g.variables).map((s) => sel(s, ctx)) };
    }),
  };
}

/** Dify's variable aggregator (and its old name `variable-assigner` without assignments): variables or groups. */
export const dify: DifyImportHook = { types: ['variable-aggregator', 'variable-assigner'], import: (data, ctx) => (ctx.type === 'variable-assigner' && holdsAssignments(data) ? undefined : fromDify(data, ctx)) };
