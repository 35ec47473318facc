import { z } from 'zod';
import { Id, Timestamp } from './common';
import { QUERY_LIMIT_DEFAULT, QUERY_LIMIT_MAX, QUERY_LIMIT_MIN } from './database';

/**
 * GBI (issue 30; spec 2 "/portal/gbi-data-settings/…", "/portal/gbi/ask"): a project space's data
 * sources for asking questions in plain language. A source is one of the space's databases or an
 * uploaded spreadsheet (kept in a DuckDB file under the data directory, one per source). Tables
 * and columns carry business names, descriptions and sample values so the model writes SQL in the
 * user's words. Sessions (per user) hold the questions, the SQL, the results and the answers.
 */

export const GBI_SOURCE_KINDS = ['database', 'spreadsheet'] as const;
export const GbiSourceKind = z.enum(GBI_SOURCE_KINDS);
/** The SQL dialect the guard parses and the engine runs. */
export const GBI_DIALECTS = ['postgresql', 'mysql', 'duckdb', 'sqlserver', 'oracle', 'clickhouse', 'dm'] as const;
export const GbiDialect = z.enum(GBI_DIALECTS);
export type GbiDialect = z.infer<typeof GbiDialect>;

/** Spreadsheet file types (.xlsx through exceljs, .xls through SheetJS, .csv read by DuckDB). */
export const GBI_FILE_TYPES = ['csv', 'xlsx', 'xls'] as const;
/** Rows shown in a spreadsheet preview, sample values kept per column. */
export const GBI_PREVIEW_ROWS = 20;
export const GBI_SAMPLE_VALUES = 5;
/** Rows a table preview (table-display) shows unless asked for more. */
export const GBI_TABLE_ROWS_DEFAULT = 100;

const Name = z.string().trim().min(1, 'This form field is required!').max(64);
const Description = z.string().max(500);
/** A table name in a spreadsheet source: letters, digits, underscore, not starting with a digit. */
export const GbiTableName = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'English letters, digits and underscore only, not starting with a digit');

export const GbiColumn = z.object({
  id: Id,
  name: z.string(),
  data_type: z.string(),
  business_name: z.string(),
  description: z.string(),
  sample_values: z.array(z.string()),
});
export type GbiColumn = z.infer<typeof GbiColumn>;

export const GbiTable = z.object({
  id: Id,
  /** Schema-qualified for a database source (`public.sales`), the plain name in a spreadsheet. */
  name: z.string(),
  business_name: z.string(),
  description: z.string(),
  row_count: z.number().int().nullable(),
  columns: z.array(GbiColumn),
});
export type GbiTable = z.infer<typeof GbiTable>;

export const GbiSource = z.object({
  id: Id,
  workspace_id: Id,
  kind: GbiSourceKind,
  name: z.string(),
  dialect: GbiDialect,
  /** The space's database behind a database source (its credentials stay on the server). */
  database_id: Id.nullable(),
  file_name: z.string(),
  query_limit: z.number().int(),
  description: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type GbiSource = z.infer<typeof GbiSource>;

export const GbiSourceDetail = GbiSource.extend({ tables: z.array(GbiTable) });
export type GbiSourceDetail = z.infer<typeof GbiSourceDetail>;

export const GbiSourceParams = z.object({ source_id: z.string().describe('GBI source id') });

export const GbiDatabaseSourceBody = z.object({
  database_id: z.string().describe("One of the space's databases"),
  name: Name.optional(),
  description: Description.default(''),
});

export const GbiFilePreviewBody = z.object({ file_id: z.string().describe('A .csv, .xlsx or .xls uploaded with POST /console/files/upload (biz_type dataset)') });

export const GbiPreviewColumn = z.object({ name: z.string(), data_type: z.string() });
export const GbiSheetPreview = z.object({
  sheet: z.string(),
  table_name: z.string(),
  header_detected: z.boolean(),
  row_count: z.number().int(),
  columns: z.array(GbiPreviewColumn),
  rows: z.array(z.array(z.string().nullable())),
});
export type GbiSheetPreview = z.infer<typeof GbiSheetPreview>;
export const GbiFilePreview = z.object({ file_id: Id, file_name: z.string(), sheets: z.array(GbiSheetPreview) });
export type GbiFilePreview = z.infer<typeof GbiFilePreview>;

export const GbiFileSourceBody = z.object({
  file_id: z.string(),
  name: Name.optional(),
  description: Description.default(''),
  /** Sheets to keep, with their table names; all sheets with their suggested names when left out. */
  sheets: z.array(z.object({ sheet: z.string(), table_name: GbiTableName })).min(1).max(50).optional(),
});

export const GbiSourceUpdateBody = z.object({
  name: Name.optional(),
  description: Description.optional(),
  query_limit: z.number().int().min(QUERY_LIMIT_MIN).max(QUERY_LIMIT_MAX).optional(),
  tables: z
    .array(
      z.object({
        id: z.string(),
        business_name: z.string().max(64).optional(),
        description: Description.optional(),
        columns: z.array(z.object({ id: z.string(), business_name: z.string().max(64).optional(), description: Description.optional() })).max(500).optional(),
      }),
    )
    .max(200)
    .optional(),
});
export type GbiSourceUpdateBody = z.infer<typeof GbiSourceUpdateBody>;

// ------------------------------------------------------------------ sessions and asking

export const GbiChartKind = z.enum(['bar', 'line', 'pie', 'number', 'none']);
export type GbiChartKind = z.infer<typeof GbiChartKind>;

export const GbiResult = z.object({
  columns: z.array(z.object({ name: z.string(), data_type: z.string() })),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  /** More rows existed than the source's query limit. */
  truncated: z.boolean(),
  elapsed_ms: z.number().int(),
});
export type GbiResult = z.infer<typeof GbiResult>;

export const GbiChart = z.object({
  kind: GbiChartKind,
  /** Column index of the category (x axis, pie slices) and of the values. */
  category: z.number().int().nullable(),
  values: z.array(z.number().int()),
});
export type GbiChart = z.infer<typeof GbiChart>;

/** A table's rows shown as they are (table-display): the guarded read-only path, `limit` rows at most. */
export const GbiTableRowsParams = z.object({ source_id: z.string().describe('GBI source id'), table_id: z.string().describe('A table of the source') });
export const GbiTableRowsQuery = z.object({
  limit: z.coerce.number().int().min(QUERY_LIMIT_MIN).max(QUERY_LIMIT_MAX).default(GBI_TABLE_ROWS_DEFAULT).describe(`Rows to show, ${QUERY_LIMIT_MIN} to ${QUERY_LIMIT_MAX}`),
});
export const GbiTableRows = GbiResult.extend({
  table: GbiTable,
  /** The result's columns with the described words of the table's column of that name. */
  columns: z.array(z.object({ name: z.string(), data_type: z.string(), business_name: z.string(), description: z.string() })),
  limit: z.number().int(),
});
export type GbiTableRows = z.infer<typeof GbiTableRows>;

export const GbiMessageStatus = z.enum(['ok', 'refused', 'failed']);
export const GbiMessage = z.object({
  id: Id,
  session_id: Id,
  source_id: Id.nullable(),
  question: z.string(),
  sql: z.string(),
  status: GbiMessageStatus,
  answer: z.string(),
  result: GbiResult.nullable(),
  chart: GbiChart.nullable(),
  /** What went wrong, in plain words (refused SQL, a database error after one correction). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: Timestamp,
});
export type GbiMessage = z.infer<typeof GbiMessage>;

export const GbiSession = z.object({ id: Id, name: z.string(), source_id: Id.nullable(), created_at: Timestamp, updated_at: Timestamp });
export type GbiSession = z.infer<typeof GbiSession>;

export const GbiSessionParams = z.object({ session_id: z.string().describe('GBI session id') });
export const GbiSessionCreateBody = z.object({ name: Name.optional(), source_id: z.string().optional() });
export const GbiSessionUpdateBody = z.object({ name: Name });
export const GbiAskBody = z.object({
  question: z.string().trim().min(1, 'This form field is required!').max(2000),
  /** The source to ask; the session's last one when left out. */
  source_id: z.string().optional(),
});

export { QUERY_LIMIT_DEFAULT };
