import { bool, clamp, list, num, rec, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';

const START_TYPES: Record<string, string> = { 'text-input': 'text', paragraph: 'paragraph', select: 'select', number: 'number', file: 'file', 'file-list': 'file-list' };

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const variables = list(data.variables).map((x) => {
    const v = rec(x);
    const name = str(v.variable).slice(0, 64);
    let type = START_TYPES[str(v.type)];
    if (!type) {
      ctx.warn('startFieldType', { name, type: str(v.type) });
      type = 'text';
    }
    const field: Record<string, unknown> = {
      name,
      label: str(v.label).slice(0, 100),
      type,
      required: bool(v.required, true),
      options: list(v.options).map((o) => str(o)).slice(0, 100),
      allowed_extensions: list(v.allowed_file_extensions).map((e) => str(e)).slice(0, 50),
    };
    const max = num(v.max_length);
    // Dify keeps a file list's count in max_length; text fields their length.
    if (type === 'file-list' && max) field.max_files = clamp(max, 1, 100, 5);
    else if ((type === 'text' || type === 'paragraph') && max) field.max_length = clamp(max, 1, 100_000, 256);
    return field;
  });
  return { variables };
}

/** Dify's start node: its form fields (types we lack become text, with a warning). */
export const dify: DifyImportHook = { types: ['start'], import: fromDify };
