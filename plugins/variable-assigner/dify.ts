import { rec, sel, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';

/** Dify's `variable-assigner` type holds assignments in newer files; without them it is the aggregator's old name. */
const holdsAssignments = (data: Record<string, unknown>) => 'items' in data || 'assigned_variable_selector' in data;

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  // Version 1 files: one assignment with a write mode.
  const items = Array.isArray(data.items)
    ? data.items.map(rec)
    : [{ variable_selector: data.assigned_variable_selector, operation: data.write_mode, input_type: 'variable', value: data.input_variable_selector }];
  return {
    assignments: items.map((i) => {
      const constant = i.input_type === 'constant';
      return {
        target: sel(i.variable_selector, ctx),
        operation: str(i.operation, 'over-write'),
        source: constant ? 'constant' : 'variable',
        selector: constant ? [] : sel(i.value, ctx),
        ...(constant ? { value: i.value } : {}),
      };
    }),
  };
}

/** Dify's variable assigner (`assigner`, and `variable-assigner` with assignments): its assignments. */
export const dify: DifyImportHook = { types: ['assigner', 'variable-assigner'], import: (data, ctx) => (ctx.type === 'variable-assigner' && !holdsAssignments(data) ? undefined : fromDify(data, ctx)) };
