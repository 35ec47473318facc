import {
  arrayOf,
  defaultValueFor,
  elementType,
  isArrayType,
  matchesValueType,
  SCALAR_VALUE_TYPES,
  VALUE_TYPES,
  ValueType,
  type ArrayValueType,
  type ScalarValueType,
} from '../../schemas/flow';

/**
 * Value types of ports and variables: `string`, `number`, `boolean`, `object`, `file` and an array
 * of each (`array[string]` …). The names and the helpers live in `schemas/flow.ts` (the document
 * needs them); this module re-exports them for plugin authors and adds what only editors need.
 */
export {
  arrayOf,
  defaultValueFor,
  elementType,
  isArrayType,
  matchesValueType,
  SCALAR_VALUE_TYPES,
  VALUE_TYPES,
  ValueType,
  type ArrayValueType,
  type ScalarValueType,
};

/**
 * Whether a value of type `from` may be used where `to` is expected: the same type, or anything
 * where `accepts` (a port's list of accepted types) includes it.
 * @example isAssignable('array[string]', 'array[string]') // true
 * @example isAssignable('number', 'string') // false
 */
export function isAssignable(from: ValueType, to: ValueType | readonly ValueType[]): boolean {
  return typeof to === 'string' ? from === to : to.includes(from);
}

/**
 * The value type of a JSON value, when it has one (`[]` counts as `array[string]`; a mixed array
 * has none).
 * @example valueTypeOf([1, 2]) // 'array[number]'
 */
export function valueTypeOf(value: unknown): ValueType | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return 'array[string]';
    const first = valueTypeOf(value[0]);
    const el = first && !isArrayType(first) ? first : undefined;
    return el && value.every((v) => matchesValueType(v, el)) ? arrayOf(el) : undefined;
  }
  for (const t of ['string', 'number', 'boolean', 'file', 'object'] as const) {
    if (matchesValueType(value, t)) return t;
  }
  return undefined;
}

/** i18n key (in the SDK namespace) of a value type's label, e.g. `valueTypes.array[string]`. */
export const valueTypeLabelKey = (t: ValueType) => `valueTypes.${t}`;

/**
 * The properties of a `file` value that conditions, filters and sorting compare (Dify's names; the
 * if-else's file tests and the list operator read them with `fileProperty`).
 */
export const FILE_PROPERTIES = ['name', 'type', 'extension', 'mime_type', 'size', 'transfer_method', 'url'] as const;
export type FileProperty = (typeof FILE_PROPERTIES)[number];

/** The operators with which a condition on a list of files tests its files' properties. */
export const FILE_LIST_TEST_OPERATORS: readonly string[] = ['contains', 'not contains'];
