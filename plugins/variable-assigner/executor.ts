import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { describeType } from '../shared/exec/typed-values';
import { variableAssignerPlugin, type Assignment } from './manifest';

export const ASSIGN_ERRORS = { OPERATION_INVALID: 'ASSIGN-OPERATION-INVALID' } as const;

/** The empty value of whatever type the variable holds now. */
function emptyLike(current: unknown): unknown {
  if (Array.isArray(current)) return [];
  switch (typeof current) {
    case 'string':
      return '';
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return current === null ? null : {};
    default:
      return null;
  }
}

function fail(a: Assignment, why: string): NodeExecutionError {
  return new NodeExecutionError(ASSIGN_ERRORS.OPERATION_INVALID, `Cannot ${a.operation} ${a.target.join('.')}: ${why}`);
}

/** The variable's new value (arrays and objects are replaced, never changed in place: other nodes may hold them). */
export function applyOperation(a: Assignment, current: unknown, value: unknown): unknown {
  switch (a.operation) {
    case 'over-write':
    case 'set':
      return value;
    case 'clear':
      return emptyLike(current);
    case 'append':
    case 'extend':
    case 'remove-first':
    case 'remove-last': {
      const list = current === undefined || current === null ? [] : current;
      if (!Array.isArray(list)) throw fail(a, `it holds ${describeType(current)}, not an array`);
      if (a.operation === 'append') return [...list, value];
      if (a.operation === 'extend') {
        if (!Array.isArray(value)) throw fail(a, `the value is ${describeType(value)}, not an array`);
        return [...list, ...value];
      }
      return a.operation === 'remove-first' ? list.slice(1) : list.slice(0, -1);
    }
    case '+=':
    case '-=':
    case '*=':
    case '/=': {
      const x = current === undefined || current === null ? 0 : current;
      const y = typeof value === 'string' && value.trim() ? Number(value) : value;
      if (typeof x !== 'number') throw fail(a, `it holds ${describeType(current)}, not a number`);
      if (typeof y !== 'number' || !Number.isFinite(y)) throw fail(a, 'the value is not a number');
      if (a.operation === '/=' && y === 0) throw fail(a, 'division by zero');
      return a.operation === '+=' ? x + y : a.operation === '-=' ? x - y : a.operation === '*=' ? x * y : x / y;
    }
  }
}

/**
 * Writes conversation variables and the variables of an enclosing loop through `ctx.assign`, in
 * order (a later row sees an earlier row's write).
 */
export const variableAssignerExecutor = defineNodeExecutor(variableAssignerPlugin, {
  execute({ config, variables, assign }) {
    const updated: { variable: string; value: unknown }[] = [];
    for (const a of config.assignments) {
      if (!a.target.length) continue;
      const value = a.operation === 'clear' || a.operation === 'remove-first' || a.operation === 'remove-last' ? undefined : a.source === 'variable' ? variables.get(a.selector) : a.value;
      const next = applyOperation(a, variables.get(a.target), value);
      assign(a.target, next);
      updated.push({ variable: a.target.join('.'), value: next });
    }
    return { outputs: { updated } };
  },
});

export default variableAssignerExecutor;
