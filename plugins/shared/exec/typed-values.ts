import { elementType, matchesValueType, type ValueType } from '../../../src/plugin-sdk';
import type { ParamDef } from '../variables';

/**
 * Typed values a model produces (structured output, parameter extraction) and the code sandbox
 * returns: JSON Schemas to ask for them, and checks (with the lenient coercions models need: a
 * number written as "42", a boolean as "true").
 */

const SCALAR_SCHEMA: Record<string, Record<string, unknown>> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  object: { type: 'object' },
  file: { type: 'object' },
};

/** The JSON Schema of a value type. */
export function typeSchema(type: ValueType): Record<string, unknown> {
  const el = elementType(type);
  return el ? { type: 'array', items: SCALAR_SCHEMA[el] } : SCALAR_SCHEMA[type];
}

/** An object schema with one property per parameter (names checked by the manifest). */
export function paramsJsonSchema(defs: readonly ParamDef[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const d of defs) {
    if (!d.name) continue;
    properties[d.name] = {
      ...typeSchema(d.type),
      ...(d.description ? { description: d.description } : {}),
      ...(d.type === 'string' && d.options.length ? { enum: d.options } : {}),
    };
  }
  return { type: 'object', properties, required: defs.filter((d) => d.required && d.name).map((d) => d.name) };
}

function coerceScalar(value: unknown, type: ValueType): { ok: true; value: unknown } | { ok: false } {
  if (matchesValueType(value, type)) return { ok: true, value };
  if (type === 'number' && typeof value === 'string' && value.trim() && Number.isFinite(Number(value))) return { ok: true, value: Number(value) };
  if (type === 'boolean' && (value === 'true' || value === 'false')) return { ok: true, value: value === 'true' };
  if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) return { ok: true, value: String(value) };
  return { ok: false };
}

/**
 * The value as `type`, coercing what a model plausibly meant; `{ ok: false }` when it does not fit.
 * @example coerceValue('3', 'number') // { ok: true, value: 3 }
 */
export function coerceValue(value: unknown, type: ValueType): { ok: true; value: unknown } | { ok: false } {
  const el = elementType(type);
  if (!el) return coerceScalar(value, type);
  if (!Array.isArray(value)) return { ok: false };
  const out: unknown[] = [];
  for (const v of value) {
    const c = coerceScalar(v, el);
    if (!c.ok) return c;
    out.push(c.value);
  }
  return { ok: true, value: out };
}

/** A short description of a value's actual type for error messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
