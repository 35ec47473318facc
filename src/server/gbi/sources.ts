import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  GBI_PREVIEW_ROWS,
  GBI_SAMPLE_VALUES,
  type GbiFilePreview,
  type GbiSource,
  type GbiSourceDetail,
  type GbiSourceUpdateBody,
  type GbiTable,
} from '../../../schemas/gbi';
import { ErrorCode } from '../../../schemas/errors';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { gbiColumns, gbiSessions, gbiSources, gbiTables } from '../db/schema';
import { AppError, badRequest, exists, notFoundOrForeign } from '../errors';
import { connectionOf } from '../services/databases';
import { DriverUnavailableError } from '../services/db-drivers';
import { fileBytes, readableFile } from '../services/files';
import { isUniqueViolation, MANAGERS, nothingToChange, type Scope } from '../services/workspace-resources';
import { loadCsv, sniffCsv, sourceFile } from './duckdb-store';
import { dialectOf, ENGINES } from './engines';
import { sheetsOf } from './spreadsheet';

/**
 * GBI data settings (issue 30): a project space's sources. Any member lists and reads them (to ask);
 * owner and admin add, describe and delete them. A database source reads its tables, columns and
 * sample values from the database when added; a spreadsheet source loads each chosen sheet into
 * the source's DuckDB file.
 */

type SourceRow = typeof gbiSources.$inferSelect;

const toSource = (r: SourceRow): GbiSource => ({
  id: r.id,
  workspace_id: r.workspaceId,
  kind: r.kind,
  name: r.name,
  dialect: r.dialect,
  database_id: r.databaseId,
  file_name: r.fileName,
  query_limit: r.queryLimit,
  description: r.description,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

const inScope = (s: Scope) => and(eq(gbiSources.workspaceId, s.workspaceId), eq(gbiSources.tenantId, s.caller.tenantId));

export async function sourceRow(ctx: ServerContext, s: Scope, id: string): Promise<SourceRow> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('GBI source', id);
  const [row] = await ctx.db.select().from(gbiSources).where(and(eq(gbiSources.id, id), inScope(s)));
  if (!row) throw notFoundOrForeign('GBI source', id);
  return row;
}

export async function listSources(ctx: ServerContext, s: Scope): Promise<GbiSource[]> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const rows = await ctx.db.select().from(gbiSources).where(inScope(s)).orderBy(desc(gbiSources.createdAt));
  return rows.map(toSource);
}

export async function tablesOf(ctx: ServerContext, sourceId: string): Promise<GbiTable[]> {
  const tables = await ctx.db.select().from(gbiTables).where(eq(gbiTables.sourceId, sourceId)).orderBy(asc(gbiTables.position));
  const cols = tables.length
    ? await ctx.db
        .select()
        .from(gbiColumns)
        .where(
          inArray(
            gbiColumns.tableId,
            tables.map((t) => t.id),
          ),
        )
        .orderBy(asc(gbiColumns.position))
    : [];
  return tables.map((t) => ({
    id: t.id,
    name: t.name,
    business_name: t.businessName,
    description: t.description,
    row_count: t.rowCount,
    columns: cols
      .filter((c) => c.tableId === t.id)
      .map((c) => ({ id: c.id, name: c.name, data_type: c.dataType, business_name: c.businessName, description: c.description, sample_values: c.sampleValues })),
  }));
}

export async function getSource(ctx: ServerContext, s: Scope, id: string): Promise<GbiSourceDetail> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await sourceRow(ctx, s, id);
  return { ...toSource(row), tables: await tablesOf(ctx, row.id) };
}

interface NewTable {
  name: string;
  businessName?: string;
  rowCount: number | null;
  columns: { name: string; dataType: string; businessName?: string; samples: string[] }[];
}

async function insertSource(ctx: ServerContext, s: Scope, source: Omit<typeof gbiSources.$inferInsert, 'tenantId' | 'workspaceId' | 'createdBy'>, tables: NewTable[]) {
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(gbiSources).values({ ...source, tenantId: s.caller.tenantId, workspaceId: s.workspaceId, createdBy: s.caller.userId });
      for (const [position, t] of tables.entries()) {
        const tableId = randomUUID();
        await tx.insert(gbiTables).values({ id: tableId, sourceId: source.id, name: t.name, businessName: t.businessName ?? '', rowCount: t.rowCount, position });
        if (t.columns.length) {
          await tx.insert(gbiColumns).values(
            t.columns.map((c, i) => ({ id: randomUUID(), tableId, name: c.name, dataType: c.dataType, businessName: c.businessName ?? '', sampleValues: c.samples, position: i })),
          );
        }
      }
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw exists('This database is already a GBI source of this project space');
    throw e;
  }
}

/** A database that cannot be read: the outbound policy's refusal (NETWORK-1000) as it is, else GBI-1001 with the driver's words. */
export function unreadable(name: string, e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof DriverUnavailableError) return new AppError(400, ErrorCode.GBI_SOURCE_UNSUPPORTED, e.message, { type: e.type });
  const detail = ((e as Error).message ?? String(e)).split('\n')[0].slice(0, 500);
  return new AppError(400, ErrorCode.GBI_QUERY_FAILED, `The database '${name}' could not be read: ${detail}`, { detail });
}

/** Adds one of the space's databases; its tables, columns and sample values are read now. */
export async function addDatabaseSource(ctx: ServerContext, s: Scope, input: { database_id: string; name?: string; description: string }): Promise<GbiSourceDetail> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const { database, settings } = await connectionOf(ctx, s, input.database_id);
  let tables;
  try {
    tables = await ENGINES[database.type].describe(settings, ctx.outbound, GBI_SAMPLE_VALUES);
  } catch (e) {
    throw unreadable(database.name, e);
  }
  const id = randomUUID();
  await insertSource(
    ctx,
    s,
    { id, kind: 'database', name: input.name ?? database.name, dialect: dialectOf(database.type), databaseId: database.id, queryLimit: database.query_limit, description: input.description },
    tables.map((t) => ({ name: t.name, rowCount: t.rowCount, columns: t.columns.map((c) => ({ name: c.name, dataType: c.dataType, samples: c.samples })) })),
  );
  return getSource(ctx, s, id);
}

const tmpDirOf = (ctx: ServerContext) => path.join(path.resolve(ctx.settings.dataDir), 'gbi', 'tmp', randomUUID());

/** What the upload holds, as it would be loaded: sheets, header detected, types, the first rows. */
export async function previewFile(ctx: ServerContext, s: Scope, fileId: string): Promise<GbiFilePreview> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const file = await readableFile(ctx, s.caller, fileId);
  const tmp = tmpDirOf(ctx);
  try {
    const sheets = await sheetsOf(file.name, await fileBytes(ctx, file), tmp);
    const out: GbiFilePreview['sheets'] = [];
    for (const sheet of sheets) {
      const shape = await sniffCsv(sheet.csvPath, GBI_PREVIEW_ROWS).catch((e: Error) => {
        throw new AppError(400, ErrorCode.GBI_FILE_UNREADABLE, `The sheet '${sheet.sheet}' cannot be read as a table: ${e.message.split('\n')[0]}`);
      });
      out.push({
        sheet: sheet.sheet,
        table_name: sheet.tableName,
        header_detected: shape.headerDetected,
        row_count: shape.rowCount,
        columns: shape.columns.map((c) => ({ name: c.name, data_type: c.dataType })),
        rows: shape.rows,
      });
    }
    return { file_id: file.id, file_name: file.name, sheets: out };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Loads the chosen sheets (all by default) into a new source's DuckDB file. */
export async function addFileSource(
  ctx: ServerContext,
  s: Scope,
  input: { file_id: string; name?: string; description: string; sheets?: { sheet: string; table_name: string }[] },
): Promise<GbiSourceDetail> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const file = await readableFile(ctx, s.caller, input.file_id);
  const names = input.sheets?.map((x) => x.table_name.toLowerCase()) ?? [];
  if (new Set(names).size !== names.length) throw badRequest('Two sheets cannot have the same table name', [{ path: 'body/sheets', message: 'table names must be unique' }]);
  const id = randomUUID();
  const dbFile = sourceFile(ctx.settings.dataDir, s.caller.tenantId, id);
  const tmp = tmpDirOf(ctx);
  try {
    const sheets = await sheetsOf(file.name, await fileBytes(ctx, file), tmp);
    const chosen = input.sheets
      ? input.sheets.map((c, i) => {
          const sheet = sheets.find((x) => x.sheet === c.sheet);
          if (!sheet) throw badRequest(`The file has no sheet '${c.sheet}'`, [{ path: `body/sheets/${i}/sheet`, message: 'no such sheet' }]);
          return { ...sheet, tableName: c.table_name };
        })
      : sheets;
    const tables: NewTable[] = [];
    for (const sheet of chosen) {
      const loaded = await loadCsv(dbFile, sheet.tableName, sheet.csvPath, GBI_SAMPLE_VALUES).catch((e: Error) => {
        throw new AppError(400, ErrorCode.GBI_FILE_UNREADABLE, `The sheet '${sheet.sheet}' cannot be loaded: ${e.message.split('\n')[0]}`);
      });
      tables.push({
        name: sheet.tableName,
        businessName: sheet.sheet === file.name ? '' : sheet.sheet,
        rowCount: loaded.rowCount,
        // The header as written is the column's first business name.
        columns: loaded.columns.map((c, i) => ({ name: c.name, dataType: c.dataType, businessName: c.header === c.name ? '' : c.header, samples: loaded.samples[i] })),
      });
    }
    await insertSource(ctx, s, { id, kind: 'spreadsheet', name: input.name ?? file.name, dialect: 'duckdb', fileName: file.name, description: input.description }, tables);
  } catch (e) {
    fs.rmSync(dbFile, { force: true });
    throw e;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return getSource(ctx, s, id);
}

/** Name, description, query limit; business names and descriptions of tables and columns. */
export async function updateSource(ctx: ServerContext, s: Scope, id: string, body: GbiSourceUpdateBody): Promise<GbiSourceDetail> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await sourceRow(ctx, s, id);
  if (body.name === undefined && body.description === undefined && body.query_limit === undefined && !body.tables?.length) throw nothingToChange();
  const tables = await tablesOf(ctx, row.id);
  // Every id must belong to this source before anything is written.
  for (const [i, t] of (body.tables ?? []).entries()) {
    const table = tables.find((x) => x.id === t.id);
    if (!table) throw badRequest(`Table ${t.id} is not a table of this source`, [{ path: `body/tables/${i}/id`, message: 'not a table of this source' }]);
    for (const [j, c] of (t.columns ?? []).entries()) {
      if (!table.columns.some((x) => x.id === c.id)) throw badRequest(`Column ${c.id} is not a column of this table`, [{ path: `body/tables/${i}/columns/${j}/id`, message: 'not a column of this table' }]);
    }
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(gbiSources)
      .set({ name: body.name ?? row.name, description: body.description ?? row.description, queryLimit: body.query_limit ?? row.queryLimit, updatedAt: new Date() })
      .where(eq(gbiSources.id, row.id));
    for (const t of body.tables ?? []) {
      if (t.business_name !== undefined || t.description !== undefined) {
        await tx
          .update(gbiTables)
          .set({ ...(t.business_name !== undefined ? { businessName: t.business_name } : {}), ...(t.description !== undefined ? { description: t.description } : {}) })
          .where(eq(gbiTables.id, t.id));
      }
      for (const c of t.columns ?? []) {
        if (c.business_name === undefined && c.description === undefined) continue;
        await tx
          .update(gbiColumns)
          .set({ ...(c.business_name !== undefined ? { businessName: c.business_name } : {}), ...(c.description !== undefined ? { description: c.description } : {}) })
          .where(and(eq(gbiColumns.id, c.id), eq(gbiColumns.tableId, t.id)));
      }
    }
  });
  return getSource(ctx, s, id);
}

/** Deletes the source, its metadata and (a spreadsheet) its DuckDB file; sessions keep their messages. */
export async function deleteSource(ctx: ServerContext, s: Scope, id: string): Promise<void> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await sourceRow(ctx, s, id);
  await ctx.db.update(gbiSessions).set({ sourceId: null }).where(eq(gbiSessions.sourceId, row.id));
  await ctx.db.delete(gbiSources).where(eq(gbiSources.id, row.id));
  if (row.kind === 'spreadsheet') {
    const file = sourceFile(ctx.settings.dataDir, row.tenantId, row.id);
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}.wal`, { force: true });
  }
}
