import type { GbiResult } from '../../../schemas/gbi';
import { kindOfType } from './dialects';

/** A table read from a database source: its name for the model and the guard, rows, columns with samples. */
export interface SourceTableInfo {
  name: string;
  rowCount: number | null;
  columns: { name: string; dataType: string; samples: string[] }[];
}

/** Tables read from a source (the model is given at most these many). */
export const MAX_TABLES = 100;

export interface ColumnRow {
  schema: string | null;
  table: string;
  column: string;
  type: string;
}

/**
 * Groups (schema, table, column, type) rows into tables, keeping their order. A table's name is
 * schema-qualified unless the connection names one schema (`plainSchema`), whose tables keep their
 * plain names (what the user sees in their own database).
 */
export function tablesFromColumns(rows: ColumnRow[], plainSchema: string | null): (SourceTableInfo & { schema: string | null; table: string })[] {
  const tables = new Map<string, SourceTableInfo & { schema: string | null; table: string }>();
  for (const r of rows) {
    const qualified = r.schema && r.schema !== plainSchema;
    const key = qualified ? `${r.schema}.${r.table}` : r.table;
    let t = tables.get(key);
    if (!t) {
      if (tables.size >= MAX_TABLES) continue;
      tables.set(key, (t = { name: key, schema: r.schema, table: r.table, rowCount: null, columns: [] }));
    }
    t.columns.push({ name: r.column, dataType: r.type, samples: [] });
  }
  return [...tables.values()];
}

const text = (v: unknown): string => {
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return `<${v.length} bytes>`;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

/** Up to `count` distinct values per column from sample rows given as arrays. */
export function samplesOf(rows: unknown[][], columns: number, count: number): string[][] {
  return Array.from({ length: columns }, (_, i) => {
    const seen = new Set<string>();
    for (const row of rows) {
      const v = row[i];
      if (v === null || v === undefined) continue;
      seen.add(text(v).slice(0, 100));
      if (seen.size >= count) break;
    }
    return [...seen];
  });
}

/** A result from column names with their database types and rows as arrays, cut to `limit` rows. */
export function resultOf(columns: { name: string; type: string }[], rows: unknown[][], limit: number, started: number): GbiResult {
  const cols = columns.map((c) => ({ name: c.name, data_type: kindOfType(c.type) }));
  return {
    columns: cols,
    rows: rows.slice(0, limit).map((row) =>
      row.map((v, i) => {
        if (v === null || v === undefined) return null;
        if (cols[i]?.data_type === 'numeric' && (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string')) {
          const n = Number(v);
          return Number.isFinite(n) ? n : String(v);
        }
        if (typeof v === 'boolean' || typeof v === 'number') return v;
        return text(v);
      }),
    ),
    truncated: rows.length > limit,
    elapsed_ms: Date.now() - started,
  };
}
