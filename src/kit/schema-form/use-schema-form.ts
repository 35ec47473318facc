import { useMemo } from 'react';
import { useForm, type FieldValues, type Mode, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import type { UiMeta } from '../../../schemas/ui';
import { defaultValuesOf, describeObject, objectMeta, type FieldDescriptor } from '../schema/fields';
import { schemaResolver } from './resolver';

/** Any zod schema of an object (z.object, strict, with refinements). */
export type ObjectSchema = z.ZodType<FieldValues, FieldValues>;

export interface UseSchemaFormOptions<S extends ObjectSchema> {
  /** Start values, over the schema's defaults. */
  defaultValues?: Partial<z.input<S>>;
  /** Values that replace the form's when they change (an entity loaded for editing). */
  values?: Partial<z.input<S>>;
  /** Only these fields. */
  include?: readonly string[];
  exclude?: readonly string[];
  /** Per-field metadata over the schema's. */
  overrides?: Readonly<Record<string, UiMeta>>;
  /** When fields validate first. Default 'onSubmit' (then again on each change). */
  mode?: Mode;
}

export interface SchemaFormApi<S extends ObjectSchema> {
  form: UseFormReturn<z.input<S>, unknown, z.output<S>>;
  fields: FieldDescriptor[];
  schema: S;
  /** Object-level metadata (title, groups). */
  meta: UiMeta;
}

/**
 * A react-hook-form instance for a zod object schema, with the kit's resolver (spec 5 messages,
 * hidden fields reset, JSON checks) and the field descriptors. Pass it to `<SchemaForm form={…}>`
 * when the screen needs the form (a "check connection" button reading the values, a dialog
 * footer).
 * @example
 * const api = useSchemaForm(DatabaseCreateBody, { defaultValues: { type: 'postgresql' } });
 * <SchemaForm form={api} onSubmit={save} actions={<Button onClick={() => check(api.form.getValues())}>…</Button>} />
 */
export function useSchemaForm<S extends ObjectSchema>(schema: S, opts: UseSchemaFormOptions<S> = {}): SchemaFormApi<S> {
  const { include, exclude, overrides } = opts;
  const key = JSON.stringify([include, exclude, overrides]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const fields = useMemo(() => describeObject(schema, { include, exclude, overrides }), [schema, key]);
  const meta = useMemo(() => objectMeta(schema), [schema]);
  const resolver = useMemo(() => schemaResolver(schema, fields), [schema, fields]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const defaults = useMemo(() => ({ ...defaultValuesOf(fields), ...opts.defaultValues }), [fields]);
  const values = useMemo(() => (opts.values ? { ...defaults, ...opts.values } : undefined), [opts.values, defaults]);
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver,
    defaultValues: defaults as never,
    values: values as never,
    resetOptions: { keepDefaultValues: false },
    mode: opts.mode ?? 'onSubmit',
    reValidateMode: 'onChange',
  });
  return { form, fields, schema, meta };
}
