/**
 * The resolver of a schema form: zodResolver with the kit's error map, plus two rules of the kit:
 * fields hidden by `visibleWhen` go back to their default before validation (so a value typed before
 * the field disappeared cannot block the submit), and JSON fields whose text does not parse fail
 * with the parse error.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { isVisible } from '../../../schemas/ui';
import type { FieldDescriptor } from '../schema/fields';
import { encodeMessage, kitErrorMap } from './messages';

/** What a JSON widget puts in the form while its text does not parse. */
export class InvalidJson {
  constructor(
    readonly text: string,
    readonly detail: string,
  ) {}
}

/** Parses JSON text: the value, or the parser's message. Blank text is `undefined`. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; detail: string } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The values zod should see: hidden fields reset to their default (or removed), and JSON errors
 * collected apart.
 */
export function prepareValues(values: Record<string, unknown>, fields: readonly FieldDescriptor[]) {
  const out: Record<string, unknown> = { ...values };
  const jsonErrors: Record<string, string> = {};
  for (const f of fields) {
    if (!isVisible(f.visibleWhen, values)) {
      if (f.hasDefault) out[f.name] = structuredCloneSafe(f.defaultValue);
      else delete out[f.name];
      continue;
    }
    const v = out[f.name];
    if (v instanceof InvalidJson) {
      jsonErrors[f.name] = v.detail;
      delete out[f.name];
    } else if (f.widget === 'json' && f.kind === 'string' && typeof v === 'string') {
      const r = parseJson(v);
      if (!r.ok) jsonErrors[f.name] = r.detail;
    }
  }
  return { values: out, jsonErrors };
}

function structuredCloneSafe<T>(v: T): T {
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

/** The resolver SchemaForm uses (exported for forms built by hand on the same rules). */
export function schemaResolver<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  fields: readonly FieldDescriptor[],
): Resolver<z.input<S>, unknown, z.output<S>> {
  const base = zodResolver(schema as never, { error: kitErrorMap }) as unknown as Resolver<FieldValues, unknown, FieldValues>;
  const resolver: Resolver<FieldValues, unknown, FieldValues> = async (values, context, options) => {
    const { values: prepared, jsonErrors } = prepareValues(values as Record<string, unknown>, fields);
    const result = await base(prepared, context, options);
    const names = Object.keys(jsonErrors);
    if (names.length === 0) return result;
    const errors: FieldErrors = { ...(result.values && Object.keys(result.errors ?? {}).length === 0 ? {} : result.errors) };
    for (const name of names) {
      errors[name] = { type: 'json', message: encodeMessage({ key: 'kit:validation.invalidJson', params: { detail: jsonErrors[name] } }) };
    }
    return { values: {}, errors };
  };
  return resolver as unknown as Resolver<z.input<S>, unknown, z.output<S>>;
}
