import { describe, expect, it } from 'vitest';
import type { PortalInputField } from '../../../schemas/portal';
import { describeObject } from '../../kit/schema/fields';
import { inputSchemaOf, toRunInputs } from './input-schema';

const field = (f: Partial<PortalInputField> & Pick<PortalInputField, 'name' | 'type'>): PortalInputField => ({
  label: '',
  required: false,
  options: [],
  max_length: null,
  allowed_extensions: [],
  ...f,
});

const fields: PortalInputField[] = [
  field({ name: 'topic', label: 'Topic', type: 'text', required: true, max_length: 10 }),
  field({ name: 'notes', label: 'Notes', type: 'paragraph' }),
  field({ name: 'pages', label: 'Pages', type: 'number', required: true }),
  field({ name: 'tone', label: 'Tone', type: 'select', options: ['formal', 'casual'], default: 'casual' }),
  field({ name: 'strict', label: 'Strict', type: 'checkbox' }),
  field({ name: 'doc', label: 'Document', type: 'file', required: true, allowed_extensions: ['pdf', '.docx'] }),
  field({ name: 'images', label: 'Images', type: 'file-list' }),
];
const file = { id: '11111111-1111-4111-8111-111111111111', name: 'a.pdf', size: 3, mime_type: 'application/pdf' };

describe('inputSchemaOf', () => {
  const schema = inputSchemaOf(fields);

  it('gives each field the kit widget of its type, its label as written, required marks and limits', () => {
    const d = describeObject(schema);
    expect(d.map((f) => [f.name, f.widget, f.label, f.required])).toEqual([
      ['topic', 'text', 'Topic', true],
      ['notes', 'textarea', 'Notes', false],
      ['pages', 'number', 'Pages', true],
      ['tone', 'select', 'Tone', false],
      ['strict', 'switch', 'Strict', false],
      ['doc', 'file', 'Document', true],
      ['images', 'file', 'Images', false],
    ]);
    expect(d.find((f) => f.name === 'topic')?.checks.maxLength).toBe(10);
    expect(d.find((f) => f.name === 'tone')?.options?.map((o) => o.value)).toEqual(['formal', 'casual']);
    expect(d.find((f) => f.name === 'tone')?.defaultValue).toBe('casual');
    expect(d.find((f) => f.name === 'doc')?.meta).toMatchObject({ maxCount: 1, accept: ['.pdf', '.docx'] });
  });

  it('takes complete values and refuses missing required ones, too long texts and unknown options', () => {
    expect(schema.safeParse({ topic: 'AI', pages: 3, doc: [file] }).success).toBe(true);
    const bad = schema.safeParse({ topic: '', pages: undefined, tone: 'rude', doc: [], notes: '' });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['doc', 'pages', 'tone', 'topic']);
    expect(schema.safeParse({ topic: 'x'.repeat(11), pages: 1, doc: [file] }).success).toBe(false);
  });

  it('an app without inputs has an empty form', () => {
    expect(describeObject(inputSchemaOf([]))).toEqual([]);
  });
});

describe('toRunInputs', () => {
  it('sends files as references, leaves blank optional fields out', () => {
    expect(toRunInputs(fields, { topic: 'AI', notes: '', pages: 2, tone: 'casual', strict: false, doc: [file], images: [] })).toEqual({
      topic: 'AI',
      pages: 2,
      tone: 'casual',
      strict: false,
      doc: { id: file.id, name: 'a.pdf', size: 3, mime_type: 'application/pdf' },
    });
  });
});
