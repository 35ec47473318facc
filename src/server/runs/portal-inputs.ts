import type { Caller, ServerContext } from '../context';
import { badRequest } from '../errors';
import { ownFiles } from '../services/portal-files';
import type { FlowDocument } from '../../../schemas/flow';
import { startFields } from './portal-access';

/**
 * The start form's values of a portal run, checked against the start node's fields before anything
 * is written: no unknown names, required fields given, text within its length, a select among its
 * options, numbers as numbers, checkboxes as booleans, files the user's own uploads (of the field's
 * extensions, at most its count). Problems answer VALIDATION-1000 listing every field at fault.
 */

type Issue = { path: string; message: string };
const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
/** A file value: `{ file_id }` (the upload's id, as run bodies name files) or `{ id }`. */
const fileIdOf = (v: unknown): string | null => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as { file_id?: unknown; id?: unknown };
  const id = o.file_id ?? o.id;
  return typeof id === 'string' && id ? id : null;
};

export async function checkStartInputs(ctx: ServerContext, caller: Caller, document: FlowDocument, inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
  const fields = startFields(document);
  const issues: Issue[] = [];
  const at = (name: string) => `body/inputs/${name}`;
  for (const name of Object.keys(inputs)) if (!fields.some((f) => f.name === name)) issues.push({ path: at(name), message: 'is not a field of this form' });

  // Files first, in one query: every file value must be the user's own upload.
  const fileValues = fields.filter((f) => (f.type === 'file' || f.type === 'file-list') && !isBlank(inputs[f.name]));
  const ids: string[] = [];
  for (const f of fileValues) {
    const list = Array.isArray(inputs[f.name]) ? (inputs[f.name] as unknown[]) : [inputs[f.name]];
    for (const v of list) {
      const id = fileIdOf(v);
      if (id) ids.push(id);
      else issues.push({ path: at(f.name), message: 'should be an uploaded file ({ file_id })' });
    }
  }
  const own = issues.length ? new Map() : await ownFiles(ctx, caller, ids);

  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = inputs[f.name];
    if (isBlank(raw)) {
      if (f.required && f.type !== 'checkbox') issues.push({ path: at(f.name), message: 'is required' });
      continue;
    }
    switch (f.type) {
      case 'text':
      case 'paragraph':
      case 'select': {
        if (typeof raw !== 'string' && typeof raw !== 'number') {
          issues.push({ path: at(f.name), message: 'should be text' });
          break;
        }
        const text = String(raw);
        if (f.max_length !== null && text.length > f.max_length) issues.push({ path: at(f.name), message: `is longer than ${f.max_length} characters` });
        else if (f.type === 'select' && !f.options.includes(text)) issues.push({ path: at(f.name), message: `is not one of its options (${f.options.join(', ')})` });
        else out[f.name] = text;
        break;
      }
      case 'number': {
        const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : NaN;
        if (!Number.isFinite(n)) issues.push({ path: at(f.name), message: 'should be a number' });
        else out[f.name] = n;
        break;
      }
      case 'checkbox':
        if (typeof raw !== 'boolean') issues.push({ path: at(f.name), message: 'should be true or false' });
        else out[f.name] = raw;
        break;
      case 'file':
      case 'file-list': {
        const list = Array.isArray(raw) ? raw : [raw];
        if (f.type === 'file' && list.length > 1) issues.push({ path: at(f.name), message: 'takes one file' });
        if (f.max_files !== null && list.length > f.max_files) issues.push({ path: at(f.name), message: `takes at most ${f.max_files} files` });
        const picked = list.map((v) => own.get(fileIdOf(v) ?? ''));
        if (picked.some((p) => !p)) break;
        const exts = f.allowed_extensions.map((e) => e.toLowerCase().replace(/^\./, ''));
        const wrong = exts.length ? picked.find((p) => !exts.includes(p!.name.toLowerCase().split('.').pop() ?? '')) : undefined;
        if (wrong) {
          issues.push({ path: at(f.name), message: `should be a file of type ${f.allowed_extensions.join(', ')}` });
          break;
        }
        const values = picked.map((p) => ({ id: p!.id, file_id: p!.id, name: p!.name, mime_type: p!.mimeType }));
        out[f.name] = f.type === 'file' ? values[0] : values;
        break;
      }
    }
  }
  if (issues.length) throw badRequest(`Parameter error: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
  return out;
}
