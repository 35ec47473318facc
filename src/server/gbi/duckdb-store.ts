import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { GbiResult } from '../../../schemas/gbi';
import type { SourceTableInfo } from './source-rows';

/**
 * Spreadsheet sources live in DuckDB files under the data directory, one per source
 * (`<dataDir>/gbi/<tenant>/<source>.duckdb`): never in the application database's tables.
 *
 * Loading (server-chosen files only) uses a read-write instance; DuckDB's CSV sniffer finds the
 * header row and the column types. Queries (the model's SQL) use a second instance opened
 * READ_ONLY with external access off and the configuration locked, so even SQL that passed the
 * guard can neither write nor read files nor reach the network.
 */

export const sourceFile = (dataDir: string, tenantId: string, sourceId: string) => path.join(path.resolve(dataDir), 'gbi', tenantId, `${sourceId}.duckdb`);

const quoteString = (s: string) => `'${s.replace(/'/g, "''")}'`;
export const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A header made into a column name the model can write without quotes: `Sales Amount` → `sales_amount`. */
export function columnNameOf(header: string, index: number, taken: Set<string>): string {
  let base = header
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  if (!base) base = `column_${index + 1}`;
  if (/^\d/.test(base)) base = `c_${base}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

export interface CsvShape {
  headerDetected: boolean;
  rowCount: number;
  /** Column name (normalized), the header as written, and DuckDB's type. */
  columns: { name: string; header: string; dataType: string }[];
  rows: (string | null)[][];
}

const readCsv = (csvPath: string) => `read_csv(${quoteString(csvPath)}, sample_size = 20480)`;

async function withInstance<T>(file: string, options: Record<string, string>, use: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  // DuckDB (its 180 modules and a 50 MB native library) loads with the first spreadsheet source, not at the server's start (issue 32).
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(file, options);
  const conn = await instance.connect();
  try {
    return await use(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The shape of a CSV file as DuckDB reads it: header detected, types, the first rows. */
export async function sniffCsv(csvPath: string, previewRows: number): Promise<CsvShape> {
  return withInstance(':memory:', { threads: '1' }, async (c) => {
    const sniff = (await c.runAndReadAll(`SELECT HasHeader FROM sniff_csv(${quoteString(csvPath)}, sample_size = 20480)`)).getRowObjectsJson()[0];
    const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${readCsv(csvPath)}`)).getRowObjectsJson() as { column_name: string; column_type: string }[];
    const taken = new Set<string>();
    const columns = described.map((d, i) => ({ name: columnNameOf(d.column_name, i, taken), header: d.column_name, dataType: d.column_type }));
    const count = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${readCsv(csvPath)}`)).getRowObjectsJson()[0].n as number;
    const rows = (await c.runAndReadAll(`SELECT * FROM ${readCsv(csvPath)} LIMIT ${previewRows}`)).getRowsJson().map((r) => r.map((v) => (v === null ? null : String(v))));
    return { headerDetected: Boolean(sniff?.HasHeader), rowCount: count, columns, rows };
  });
}

/** Creates (or replaces) a table of the source's DuckDB file from a CSV file; answers its shape. */
export async function loadCsv(dbFile: string, table: string, csvPath: string, sampleCount: number): Promise<Omit<CsvShape, 'rows'> & { samples: string[][] }> {
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  return withInstance(dbFile, {}, async (c) => {
    const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${readCsv(csvPath)}`)).getRowObjectsJson() as { column_name: string; column_type: string }[];
    const taken = new Set<string>();
    const columns = described.map((d, i) => ({ name: columnNameOf(d.column_name, i, taken), header: d.column_name, dataType: d.column_type }));
    const select = columns.map((col) => `${quoteIdent(col.header)} AS ${quoteIdent(col.name)}`).join(', ');
    await c.run(`CREATE OR REPLACE TABLE ${quoteIdent(table)} AS SELECT ${select} FROM ${readCsv(csvPath)}`);
    const rowCount = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${quoteIdent(table)}`)).getRowObjectsJson()[0].n as number;
    const samples: string[][] = [];
    for (const col of columns) {
      const q = `SELECT DISTINCT ${quoteIdent(col.name)}::VARCHAR AS v FROM (SELECT ${quoteIdent(col.name)} FROM ${quoteIdent(table)} WHERE ${quoteIdent(col.name)} IS NOT NULL LIMIT 1000) LIMIT ${sampleCount}`;
      samples.push((await c.runAndReadAll(q)).getRowsJson().map((r) => String(r[0])));
    }
    return { headerDetected: true, rowCount, columns, samples };
  });
}

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|REAL|DECIMAL)/i;

/** DuckDB's JSON value of a cell as the result carries it (big integers and decimals as numbers). */
function cell(v: unknown, type: string): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (NUMERIC.test(type)) return Number(v);
  if (typeof v === 'boolean' || typeof v === 'number') return v;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Runs checked SQL on the source's file, read-only, at most `limit` rows (one more is read to know
 * whether there were more), interrupted after `timeoutMs`.
 */
const READ_ONLY = { access_mode: 'READ_ONLY', enable_external_access: 'false', autoload_known_extensions: 'false', autoinstall_known_extensions: 'false', lock_configuration: 'true', threads: '2' };

/** The tables of a spreadsheet source's file as they are now: columns, types, rows, sample values (read-only). */
export async function describeDuckDb(dbFile: string, sampleCount: number): Promise<SourceTableInfo[]> {
  return withInstance(dbFile, READ_ONLY, async (c) => {
    const cols = (await c.runAndReadAll(`SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`)).getRowsJson();
    const tables = new Map<string, SourceTableInfo>();
    for (const [table, column, type] of cols.map((r) => r.map(String))) {
      if (!tables.has(table)) tables.set(table, { name: table, rowCount: null, columns: [] });
      tables.get(table)!.columns.push({ name: column, dataType: type, samples: [] });
    }
    for (const t of tables.values()) {
      t.rowCount = Number((await c.runAndReadAll(`SELECT count(*)::INTEGER FROM ${quoteIdent(t.name)}`)).getRowsJson()[0][0]);
      for (const col of t.columns) {
        const q = `SELECT DISTINCT ${quoteIdent(col.name)}::VARCHAR AS v FROM (SELECT ${quoteIdent(col.name)} FROM ${quoteIdent(t.name)} WHERE ${quoteIdent(col.name)} IS NOT NULL LIMIT 1000) LIMIT ${sampleCount}`;
        col.samples = (await c.runAndReadAll(q)).getRowsJson().map((r) => String(r[0]));
      }
    }
    return [...tables.values()];
  });
}

export async function queryDuckDb(dbFile: string, sql: string, limit: number, timeoutMs: number): Promise<GbiResult> {
  const started = Date.now();
  return withInstance(dbFile, READ_ONLY, async (c) => {
    const timer = setTimeout(() => c.interrupt(), timeoutMs);
    try {
      const reader = await c.runAndReadAll(`SELECT * FROM (${sql}) AS gbi_query LIMIT ${limit + 1}`);
      const types = reader.columnTypes().map(String);
      const columns = reader.columnNames().map((name, i) => ({ name, data_type: types[i] }));
      const all = reader.getRowsJson();
      const rows = all.slice(0, limit).map((r) => r.map((v, i) => cell(v, types[i])));
      return { columns, rows, truncated: all.length > limit, elapsed_ms: Date.now() - started };
    } finally {
      clearTimeout(timer);
    }
  });
}
