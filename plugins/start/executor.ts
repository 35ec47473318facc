import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { startPlugin, type StartField } from './manifest';

/** Error codes of the start node (the browser maps them to texts). */
export const START_ERRORS = {
  REQUIRED: 'START-INPUT-REQUIRED',
  INVALID: 'START-INPUT-INVALID',
} as const;

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const isFile = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && (typeof (v as { url?: unknown }).url === 'string' || typeof (v as { id?: unknown }).id === 'string');

function invalid(field: StartField, why: string): NodeExecutionError {
  return new NodeExecutionError(START_ERRORS.INVALID, `Input "${field.label || field.name}" ${why}`, { field: field.name });
}

function extensionOk(field: StartField, file: unknown): boolean {
  if (!field.allowed_extensions.length) return true;
  const name = String((file as { name?: unknown; filename?: unknown }).name ?? (file as { filename?: unknown }).filename ?? '');
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '';
  return field.allowed_extensions.some((e) => e.toLowerCase() === ext || `.${e.toLowerCase()}` === ext);
}

/** One form value as its field's type (form posts give numbers as text). */
export function coerceStartInput(field: StartField, raw: unknown): unknown {
  switch (field.type) {
    case 'text':
    case 'paragraph':
    case 'select': {
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw invalid(field, 'should be text');
      const text = String(raw);
      if (field.max_length !== undefined && text.length > field.max_length) throw invalid(field, `is longer than ${field.max_length} characters`);
      if (field.type === 'select' && field.options.length && !field.options.includes(text)) throw invalid(field, `is not one of its options (${field.options.join(', ')})`);
      return text;
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : NaN;
      if (!Number.isFinite(n)) throw invalid(field, 'should be a number');
      return n;
    }
    case 'file': {
      const file = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
      if (!isFile(file)) throw invalid(field, 'should be a file');
      if (!extensionOk(field, file)) throw invalid(field, `should be a file of type ${field.allowed_extensions.join(', ')}`);
      return file;
    }
    case 'file-list': {
      const list = Array.isArray(raw) ? raw : [raw];
      if (!list.every(isFile)) throw invalid(field, 'should be a list of files');
      if (field.max_files !== undefined && list.length > field.max_files) throw invalid(field, `takes at most ${field.max_files} files`);
      if (!list.every((f) => extensionOk(field, f))) throw invalid(field, `should hold files of type ${field.allowed_extensions.join(', ')}`);
      return list;
    }
  }
}

/**
 * The run's inputs as the start form's fields: each coerced to its type and checked (required,
 * length, options, files). An optional field left blank is null, so references to it resolve.
 */
export const startExecutor = defineNodeExecutor(startPlugin, {
  execute({ config, runInputs }) {
    const outputs: Record<string, unknown> = {};
    for (const field of config.variables) {
      if (!field.name) continue;
      const raw = runInputs[field.name];
      if (isBlank(raw)) {
        if (field.required) throw new NodeExecutionError(START_ERRORS.REQUIRED, `Input "${field.label || field.name}" is required`, { field: field.name });
        outputs[field.name] = field.type === 'file-list' ? [] : null;
        continue;
      }
      outputs[field.name] = coerceStartInput(field, raw);
    }
    return { outputs };
  },
});

export default startExecutor;
