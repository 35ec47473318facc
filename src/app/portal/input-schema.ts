/**
 * The start form of a distributed app (the workflow's run form, a chat app's inputs asked once per
 * conversation) as a zod object schema for the schema-driven kit: one field per
 * {@link PortalInputField}, the kit widget of its type, the builder's label as written, required
 * marks, length and option limits. Pure; the values go to the run by {@link toRunInputs}.
 */
import { z } from 'zod';
import type { PortalInputField } from '../../../schemas/portal';
import type { UiMeta } from '../../../schemas/ui';

/** A file the form holds (the upload's answer). */
const FormFile = z.object({ id: z.string(), name: z.string(), size: z.number(), mime_type: z.string().optional() }).loose();
type FormFile = z.infer<typeof FormFile>;

const extensions = (list: readonly string[]) => list.map((e) => (e.startsWith('.') ? e : `.${e}`));

function fieldSchema(f: PortalInputField): z.ZodType {
  const meta: UiMeta = { label: f.label || f.name };
  switch (f.type) {
    case 'paragraph':
    case 'text': {
      let s = z.string();
      if (f.required) s = s.trim().min(1);
      if (f.max_length) s = s.max(f.max_length);
      const typed = f.required ? s : s.optional();
      return (typeof f.default === 'string' ? typed.default(f.default) : typed).meta({ ...meta, widget: f.type === 'paragraph' ? 'textarea' : 'text', rows: 4 });
    }
    case 'number': {
      const s = f.required ? z.number() : z.number().optional();
      return (typeof f.default === 'number' ? s.default(f.default) : s).meta({ ...meta, widget: 'number' });
    }
    case 'select': {
      const options = f.options.length ? f.options : [''];
      const s = z.enum(options as [string, ...string[]]);
      const typed = f.required ? s : s.optional();
      const withDefault = typeof f.default === 'string' && f.options.includes(f.default) ? typed.default(f.default) : typed;
      return withDefault.meta({ ...meta, widget: 'select', options: f.options.map((o) => ({ value: o, label: o })) });
    }
    case 'checkbox':
      return z.boolean().default(f.default === true).meta({ ...meta, widget: 'switch' });
    case 'file':
    case 'file-list': {
      const s = z.array(FormFile).max(f.type === 'file' ? 1 : 20);
      return (f.required ? s.min(1) : s.optional()).meta({
        ...meta,
        widget: 'file',
        maxCount: f.type === 'file' ? 1 : 20,
        ...(f.allowed_extensions.length ? { accept: extensions(f.allowed_extensions) } : {}),
      });
    }
  }
}

/** The form's schema: one field per input, in the builder's order. */
export function inputSchemaOf(fields: readonly PortalInputField[]) {
  return z.object(Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])));
}

const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const fileRef = (f: FormFile) => ({ id: f.id, name: f.name, size: f.size, ...(f.mime_type ? { mime_type: f.mime_type } : {}) });

/** The form's values as a run's `inputs`: files as references, blank optional fields left out. */
export function toRunInputs(fields: readonly PortalInputField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (blank(v)) continue;
    if (f.type === 'file') out[f.name] = fileRef((v as FormFile[])[0]);
    else if (f.type === 'file-list') out[f.name] = (v as FormFile[]).map(fileRef);
    else out[f.name] = v;
  }
  return out;
}
