import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { compare } from '../shared/exec/compare';
import { fileProperty } from '../shared/exec/files';
import { listOperatorPlugin, type ListFilter } from './manifest';

export const LIST_ERRORS = {
  NOT_A_LIST: 'LIST-NOT-A-LIST',
  INDEX_OUT_OF_RANGE: 'LIST-INDEX-OUT-OF-RANGE',
} as const;

const sortValue = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/**
 * Dify's list operator: filter (every condition holds), pick the Nth item, sort, keep the first N, in
 * that order; `first_record` and `last_record` of the result (null when it is empty).
 */
export const listOperatorExecutor = defineNodeExecutor(listOperatorPlugin, {
  execute({ config, variables }) {
    const value = variables.get(config.variable);
    if (!Array.isArray(value)) throw new NodeExecutionError(LIST_ERRORS.NOT_A_LIST, `The variable ${config.variable.join('.')} is not an array`);
    let items: unknown[] = value;
    if (config.filterEnabled) {
      const tests = config.filters.map((f: ListFilter) => ({ f, expected: variables.render(f.value) }));
      items = items.filter((item) => tests.every(({ f, expected }) => compare(fileProperty(item, f.key), f.operator, expected)));
    }
    if (config.extractEnabled) {
      const n = Number(variables.render(config.extractIndex).trim());
      if (!Number.isInteger(n) || n < 1 || n > items.length) throw new NodeExecutionError(LIST_ERRORS.INDEX_OUT_OF_RANGE, `Item ${variables.render(config.extractIndex)} is not in a list of ${items.length}`);
      items = [items[n - 1]];
    }
    if (config.sortEnabled) {
      const dir = config.sortOrder === 'desc' ? -1 : 1;
      items = items
        .map((item, i) => ({ item, i, k: sortValue(fileProperty(item, config.sortKey)) }))
        .sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : a.i - b.i))
        .map((x) => x.item);
    }
    if (config.limitEnabled) items = items.slice(0, config.limit);
    return { outputs: { result: items, first_record: items[0] ?? null, last_record: items.at(-1) ?? null } };
  },
});

export default listOperatorExecutor;
