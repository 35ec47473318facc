import { elementType, isArrayType, type ValueType } from '../../../schemas/flow';

/**
 * Which comparison operators fit the left value's type (Dify's operator strings, listed by each
 * plugin's condition schema). The operator list itself comes from the schema; this only filters.
 */

const TEXT = ['contains', 'not contains', 'start with', 'end with', 'is', 'is not', 'empty', 'not empty', 'in', 'not in'];
const NUMBER = ['=', '≠', '>', '<', '≥', '≤', 'empty', 'not empty', 'null', 'not null'];
const BOOLEAN = ['is', 'is not', 'null', 'not null'];
const OBJECT = ['empty', 'not empty', 'null', 'not null', 'exists', 'not exists'];
const FILE = ['exists', 'not exists'];
const ARRAY = ['contains', 'not contains', 'all of', 'empty', 'not empty'];

/** Operators of `all` that make sense for a value of `type` (all of them when the type is unknown). */
export function operatorsFor<T extends string>(all: readonly T[], type: ValueType | undefined): T[] {
  if (!type) return [...all];
  let fit: readonly string[];
  if (isArrayType(type)) fit = elementType(type) === 'file' ? [...ARRAY.filter((o) => o !== 'all of'), 'exists', 'not exists'] : ARRAY;
  else fit = { string: TEXT, number: NUMBER, boolean: BOOLEAN, object: OBJECT, file: FILE }[type];
  const out = all.filter((op) => fit.includes(op));
  return out.length ? out : [...all];
}

/** Operators that take no right-hand value. */
export const VALUELESS_OPERATORS: readonly string[] = ['empty', 'not empty', 'null', 'not null', 'exists', 'not exists'];
export const takesValue = (op: string) => !VALUELESS_OPERATORS.includes(op);

/** The operator to switch to when the left value's type changes and the current one no longer fits. */
export function keepOrFirst<T extends string>(current: T, allowed: readonly T[]): T {
  return allowed.includes(current) ? current : (allowed[0] ?? current);
}

/**
 * An operator's label from the plugin's texts (`conditions.operators.o<index in the schema's list>`: the
 * symbols make poor keys), the operator itself when the plugin has no text for it.
 */
export function operatorLabel(tk: (key: string) => string, operators: readonly string[], op: string): string {
  const key = `conditions.operators.o${operators.indexOf(op)}`;
  const text = tk(key);
  return text === key ? op : text;
}
