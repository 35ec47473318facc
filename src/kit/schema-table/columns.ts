/**
 * Column building for SchemaTable, kept pure (no React, no table library): a row schema and its UI
 * metadata (`column` hints of schemas/ui.ts) → one plain column spec per shown field, and the text a
 * cell shows for a value. The React side (schema-table.tsx) only maps these onto @tanstack/react-table.
 */
import type { z } from 'zod';
import type { ColumnMeta, UiMeta } from '../../../schemas/ui';
import { describeObject, type DescribeOptions, type FieldDescriptor } from '../schema/fields';
import { valueLabel } from '../schema/value-label';

type AnySchema = z.core.$ZodType;
type Tk = (key: string | undefined, params?: Record<string, unknown>) => string;

/** One column of a schema table. */
export interface ColumnSpec {
  /** The field name (the row key). */
  id: string;
  /** i18n key of the header (the column's `label`, else the field's label), or the field name. */
  header: string;
  field: FieldDescriptor;
  width?: number;
  minWidth?: number;
  align: 'left' | 'center' | 'right';
  /** The header may ask the server to sort by this column. */
  sortable: boolean;
  /** A field whose value is this column's cell tooltip (`column.tooltipOf`). */
  tooltipField?: string;
}

export interface BuildColumnsOptions extends DescribeOptions {
  /** Extra column hints per field, over the schema's (`false` hides a column). */
  columns?: Readonly<Record<string, ColumnMeta | false>>;
}

const columnOf = (f: FieldDescriptor, extra: ColumnMeta | false | undefined): ColumnMeta | false | undefined => {
  if (extra === false) return false;
  const own = f.meta.column;
  if (own === false && extra === undefined) return false;
  return { ...(own || {}), ...(extra || {}) };
};

/**
 * The columns of a row schema: every field except those with `column: false`, hidden ones (an `id`
 * without meta) and tooltip carriers (`column.tooltipOf`), which attach to their target instead.
 * Ordered by `column.order`, then by the form order of {@link describeObject}.
 * @example buildColumns(Credential).map((c) => c.id) // ['identifier', 'ak', 'sk', 'cred_id', 'description', 'created_at', 'updated_at']
 */
export function buildColumns(schema: AnySchema, opts: BuildColumnsOptions = {}): ColumnSpec[] {
  const fields = describeObject(schema, opts);
  const tooltips = new Map<string, string>();
  const shown: { f: FieldDescriptor; col: ColumnMeta; rank: number }[] = [];
  fields.forEach((f, rank) => {
    const col = columnOf(f, opts.columns?.[f.name]);
    if (col === false || col === undefined) return;
    if (col.tooltipOf) {
      tooltips.set(col.tooltipOf, f.name);
      return;
    }
    if (f.widget === 'hidden' && !opts.columns?.[f.name]) return;
    shown.push({ f, col, rank });
  });
  shown.sort((a, b) => (a.col.order ?? Number.MAX_SAFE_INTEGER) - (b.col.order ?? Number.MAX_SAFE_INTEGER) || a.rank - b.rank);
  return shown.map(({ f, col }) => ({
    id: f.name,
    header: col.label ?? f.label ?? f.name,
    field: f,
    width: col.width,
    minWidth: col.minWidth,
    align: col.align ?? (f.kind === 'number' ? 'right' : 'left'),
    sortable: !!col.sortable,
    tooltipField: tooltips.get(f.name),
  }));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm` in local time; the input itself when it is not a date. */
export function formatDateTime(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What an empty cell shows. */
export const EMPTY_CELL = '—';

/**
 * The text of a value in a cell: enum values by their option label, booleans yes/no, dates
 * formatted, arrays joined, objects as JSON, empty values as a dash.
 */
export function cellText(field: Pick<FieldDescriptor, 'kind' | 'widget' | 'meta'>, value: unknown, tk: Tk): string {
  if (value === undefined || value === null || value === '') return EMPTY_CELL;
  if (Array.isArray(value)) {
    if (value.length === 0) return EMPTY_CELL;
    const labelled = !!(field.meta.options || field.meta.optionLabels);
    return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : labelled ? valueLabel(tk, field.meta as UiMeta, v) : String(v))).join(', ');
  }
  if (field.widget === 'datetime' || field.kind === 'date') return formatDateTime(value instanceof Date ? value.toISOString() : String(value));
  if (typeof value === 'boolean') return tk(value ? 'kit:values.yes' : 'kit:values.no');
  if (field.kind === 'enum' || field.widget === 'status' || field.widget === 'select') return valueLabel(tk, field.meta, value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
