import { z } from 'zod';
import type { FlowDocument } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';

/**
 * The run form: the fields of the flow's entry node. Core code imports no plugin, so the entry is
 * found as the engine finds it (the top-level node whose kind has no target handle) and its
 * `variables` are read by shape: the form fields every start-like kind keeps (name, label, type,
 * required, options, file limits). Anything that does not parse is left out of the form.
 */

export const RUN_FIELD_TYPES = ['text', 'paragraph', 'select', 'number', 'file', 'file-list'] as const;

const RunField = z.object({
  name: z.string().min(1),
  label: z.string().catch(''),
  type: z.enum(RUN_FIELD_TYPES).catch('text'),
  required: z.boolean().catch(true),
  max_length: z.number().optional().catch(undefined),
  options: z.array(z.string()).catch([]),
  allowed_extensions: z.array(z.string()).catch([]),
  max_files: z.number().optional().catch(undefined),
});
export type RunField = z.infer<typeof RunField>;

/** A file the run form holds (an upload's answer). */
export interface RunFormFile {
  id?: string;
  name: string;
  size: number;
  mime_type?: string;
  [key: string]: unknown;
}

export type RunFormValues = Record<string, unknown>;

/** The entry node's form fields (empty when the flow has no entry or it takes nothing). */
export function runFieldsOf(doc: FlowDocument, registry: NodeRegistry): RunField[] {
  const entry = doc.nodes.find((n) => !n.parentId && registry.get(n.kind)?.targetHandle === false);
  const raw = (entry?.config as { variables?: unknown } | undefined)?.variables;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((v) => {
    const parsed = RunField.safeParse(v);
    return parsed.success ? [parsed.data] : [];
  });
}

export const isFileField = (f: RunField) => f.type === 'file' || f.type === 'file-list';

const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Names of required fields left blank. */
export function missingFields(fields: readonly RunField[], values: RunFormValues): string[] {
  return fields.filter((f) => f.required && blank(values[f.name])).map((f) => f.name);
}

/** A file as the run's inputs carry it (the start node accepts an object with an id). */
const fileInput = (f: RunFormFile) => ({ id: f.id, name: f.name, size: f.size, ...(f.mime_type ? { mime_type: f.mime_type } : {}) });

/** The form's values as the run's `inputs`: files as references, blank optional fields left out. */
export function toRunInputs(fields: readonly RunField[], values: RunFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (blank(v)) continue;
    if (f.type === 'file') out[f.name] = fileInput((v as RunFormFile[])[0]);
    else if (f.type === 'file-list') out[f.name] = (v as RunFormFile[]).map(fileInput);
    else out[f.name] = v;
  }
  return out;
}
