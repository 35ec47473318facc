import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Credential } from '../../../schemas/credential';
import { Database } from '../../../schemas/database';
import { Prompt } from '../../../schemas/prompt';
import { buildColumns, cellText, EMPTY_CELL, formatDateTime } from './columns';

// Like the real translator: a known key gives its text, an unknown one comes back as it is.
const known: Record<string, string> = { 'kit:values.yes': 'Yes', 'kit:values.no': 'No', 'database.types.oracle': 'Oracle', 'x.low': 'Low' };
const tk = (k: string | undefined) => (k ? (known[k] ?? k) : '');

describe('buildColumns', () => {
  it('takes the credential columns in column order, leaving out column:false fields', () => {
    const cols = buildColumns(Credential);
    expect(cols.map((c) => c.id)).toEqual(['identifier', 'ak', 'sk', 'cred_id', 'description', 'created_at', 'updated_at']);
    expect(cols[0]).toMatchObject({ header: 'credential.identifier', width: 180, align: 'left', sortable: false });
  });

  it('attaches a tooltipOf field to its target instead of showing it', () => {
    const cols = buildColumns(Database);
    expect(cols.map((c) => c.id)).not.toContain('status_message');
    expect(cols.find((c) => c.id === 'status')?.tooltipField).toBe('status_message');
    expect(cols.map((c) => c.id)).toEqual(['name', 'type', 'host', 'port', 'account', 'database', 'status', 'remark', 'created_at']);
  });

  it('right-aligns numbers unless the hint says otherwise', () => {
    const cols = buildColumns(Database);
    expect(cols.find((c) => c.id === 'port')?.align).toBe('right');
    expect(buildColumns(Database, { columns: { port: { align: 'center' } } }).find((c) => c.id === 'port')?.align).toBe('center');
  });

  it('lets the screen hide, add and reorder columns', () => {
    const cols = buildColumns(Prompt, { columns: { description: false, content: { order: 0 } } });
    expect(cols.map((c) => c.id)).toEqual(['content', 'name', 'tags', 'template_type', 'scene', 'updated_at']);
  });

  it('uses the column label over the form label, then the field name', () => {
    const Row = z.object({
      id: z.string(),
      a: z.string().meta({ label: 'x.a', column: { label: 'x.aColumn', sortable: true } }),
      b: z.number(),
    });
    const cols = buildColumns(Row);
    expect(cols.map((c) => [c.id, c.header, c.sortable])).toEqual([
      ['a', 'x.aColumn', true],
      ['b', 'b', false],
    ]);
  });

  it('keeps shape order for columns without an order', () => {
    const Row = z.object({ c: z.string(), a: z.string().meta({ column: { order: 1 } }), b: z.string() });
    expect(buildColumns(Row).map((c) => c.id)).toEqual(['a', 'c', 'b']);
  });
});

describe('cellText', () => {
  const [typeCol] = buildColumns(Database, { include: ['type'], overrides: { type: { optionLabels: 'database.types' } } });
  it('labels enum values through optionLabels', () => {
    expect(cellText(typeCol.field, 'oracle', tk)).toBe('Oracle');
  });
  it('shows a dash for empty values and empty arrays', () => {
    expect(cellText(typeCol.field, '', tk)).toBe(EMPTY_CELL);
    expect(cellText(typeCol.field, null, tk)).toBe(EMPTY_CELL);
    expect(cellText({ kind: 'array', widget: 'tags', meta: {} }, [], tk)).toBe(EMPTY_CELL);
  });
  it('joins arrays and translates booleans', () => {
    expect(cellText({ kind: 'array', widget: 'tags', meta: {} }, ['a', 'b'], tk)).toBe('a, b');
    expect(cellText({ kind: 'array', widget: 'multi-select', meta: { optionLabels: { low: 'x.low' } } }, ['low', 'odd'], tk)).toBe('Low, odd');
    expect(cellText({ kind: 'boolean', widget: 'switch', meta: {} }, true, tk)).toBe('Yes');
    expect(cellText({ kind: 'boolean', widget: 'switch', meta: {} }, false, tk)).toBe('No');
  });
  it('formats date-times in local time', () => {
    const iso = new Date(2025, 2, 4, 5, 6).toISOString();
    expect(cellText({ kind: 'string', widget: 'datetime', meta: {} }, iso, tk)).toBe('2025-03-04 05:06');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
