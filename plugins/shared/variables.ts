import { z } from 'zod';
import { MaybeSelector, NODE_WIDGETS, ValueType, isSelector, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { PATH_SEGMENT_RE } from '../../schemas/flow';

/**
 * Variable rows the built-in plugins share. Names are loose strings in the schema (a half-typed
 * name must not make the whole config invalid and hide every output); `checkNames` reports bad ones
 * and `validPorts` leaves them out of the ports.
 */

export const VariableNameField = z.string().max(64).meta({ label: 'fields.name' });

export const valueTypeField = (fallback: ValueType = 'string') =>
  ValueType.default(fallback).meta({ label: 'fields.type', optionLabels: 'valueTypes' });

/** `{ name, selector }`: a named input taken from a variable (code, template, end). */
export const NamedSelector = z.object({
  name: VariableNameField.default(''),
  selector: MaybeSelector.default([]).meta({ label: 'fields.selector', widget: NODE_WIDGETS.variable }),
});
export type NamedSelector = z.infer<typeof NamedSelector>;

/** `{ name, type }`: a declared output (code). */
export const TypedName = z.object({ name: VariableNameField.default(''), type: valueTypeField() });
export type TypedName = z.infer<typeof TypedName>;

export const isValidName = (name: string) => PATH_SEGMENT_RE.test(name);

/**
 * Issues for empty, malformed and repeated names in a list, at `[field, index, 'name']`.
 * @example checkNames(config.outputs, 'outputs')
 */
export function checkNames(list: readonly { name: string }[], field: string): PluginIssue[] {
  const out: PluginIssue[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const path = [field, i, 'name'];
    if (!item.name.trim()) out.push({ key: 'issues.nameEmpty', params: { index: i + 1 }, path });
    else if (!isValidName(item.name)) out.push({ key: 'issues.nameInvalid', params: { name: item.name }, path });
    else if (seen.has(item.name)) out.push({ key: 'issues.nameDuplicate', params: { name: item.name }, path });
    seen.add(item.name);
  });
  return out;
}

/** Issues for rows whose selector is still empty, at `[field, index, 'selector']`. */
export function checkSelectors(list: readonly NamedSelector[], field: string): PluginIssue[] {
  return list.flatMap((item, i) =>
    isSelector(item.selector) ? [] : [{ key: 'issues.selectorEmpty', params: { name: item.name || `#${i + 1}` }, path: [field, i, 'selector'] }],
  );
}

/** Ports from rows, skipping bad and repeated names (they are reported by `checkNames`). */
export function validPorts<T extends { name: string }>(list: readonly T[], toPort: (item: T) => Omit<Port, 'name'>): Port[] {
  const seen = new Set<string>();
  const out: Port[] = [];
  for (const item of list) {
    if (!isValidName(item.name) || seen.has(item.name)) continue;
    seen.add(item.name);
    out.push({ ...toPort(item), name: item.name });
  }
  return out;
}

/** Types a model can be asked to produce (structured output, parameter extraction). */
export const EXTRACTABLE_TYPES = ['string', 'number', 'boolean', 'object', 'array[string]', 'array[number]', 'array[boolean]', 'array[object]'] as const;

/** A value a model is asked to produce: name, type and what it means. */
export const ParamDef = z.object({
  name: VariableNameField.default(''),
  type: z.enum(EXTRACTABLE_TYPES).default('string').meta({ label: 'fields.type', optionLabels: 'valueTypes' }),
  description: z.string().max(1000).default('').meta({ label: 'fields.description' }),
  required: z.boolean().default(false).meta({ label: 'fields.required' }),
  /** Strings only: the allowed values (empty: any). */
  options: z.array(z.string().max(200)).max(100).default([]),
});
export type ParamDef = z.infer<typeof ParamDef>;
