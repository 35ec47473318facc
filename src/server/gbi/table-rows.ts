import type { GbiTableRows } from '../../../schemas/gbi';
import { ErrorCode } from '../../../schemas/errors';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { AppError, notFoundOrForeign } from '../errors';
import type { Scope } from '../services/workspace-resources';
import { runnerOf } from './ask';
import { quoteIdent } from './dialects';
import { sourceRow, tablesOf, unreadable } from './sources';
import { checkSql, SqlRefusedError } from './sql-guard';

/**
 * Table display (issue 30): the first rows of one described table of a source, for any member of
 * the space. No SQL path of its own: the SELECT of the described columns is written with the
 * dialect's quoting, checked by the same guard as a model's SQL, and run by the ask's runner
 * (read-only, the timeout, `limit` rows and one more to know there were more).
 */

/**
 * `schema.table` as the source stores it: a database source's names are schema-qualified unless
 * they are in the connection's own schema (./source-rows.ts), a spreadsheet's never are.
 */
function tableRef(dialect: Parameters<typeof quoteIdent>[0], kind: string, name: string): string {
  const dot = kind === 'database' ? name.indexOf('.') : -1;
  if (dot < 0) return quoteIdent(dialect, name);
  return `${quoteIdent(dialect, name.slice(0, dot))}.${quoteIdent(dialect, name.slice(dot + 1))}`;
}

export async function tableRows(ctx: ServerContext, s: Scope, sourceId: string, tableId: string, limit: number): Promise<GbiTableRows> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const source = await sourceRow(ctx, s, sourceId);
  const tables = await tablesOf(ctx, source.id);
  const table = UUID_RE.test(tableId) ? tables.find((t) => t.id === tableId) : undefined;
  if (!table) throw notFoundOrForeign('GBI table', tableId);
  const columns = table.columns.length ? table.columns.map((c) => quoteIdent(source.dialect, c.name)).join(', ') : '*';
  let sql: string;
  try {
    sql = checkSql(`SELECT ${columns} FROM ${tableRef(source.dialect, source.kind, table.name)}`, source.dialect, tables.map((t) => t.name));
  } catch (e) {
    // A name the dialect's grammar cannot read back: say so rather than run anything else.
    if (e instanceof SqlRefusedError) throw new AppError(400, ErrorCode.GBI_SQL_REFUSED, e.message);
    throw e;
  }
  const run = await runnerOf(ctx, s, source, limit);
  let result;
  try {
    result = await run(sql);
  } catch (e) {
    throw unreadable(source.name, e);
  }
  const words = new Map(table.columns.map((c) => [c.name, c]));
  return {
    ...result,
    table,
    columns: result.columns.map((c) => ({ ...c, business_name: words.get(c.name)?.business_name ?? '', description: words.get(c.name)?.description ?? '' })),
    limit,
  };
}
