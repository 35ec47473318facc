import type { GbiDialect } from '../../../schemas/gbi';

/**
 * How each database type is asked (issue 30): the grammar the SQL guard parses it with, how the
 * source's row limit is written, and the statements that make the session read-only with a timeout
 * before the checked SQL runs. Pure strings, so the types that cannot run on this machine (SQL
 * Server, Oracle, ClickHouse, DM) are unit-tested here; the drivers that send them are in
 * ./db-sources.ts.
 *
 * node-sql-parser has no Oracle, ClickHouse, DuckDB or DM grammar. The closest are used: DuckDB is
 * parsed as PostgreSQL; Oracle and DM (Oracle-compatible) as DB2 (double-quoted identifiers,
 * FETCH FIRST, ROWNUM as a column); ClickHouse as MySQL (backtick identifiers, LIMIT). SQL a grammar
 * cannot read is refused, not let through.
 */
export interface DialectSql {
  /** node-sql-parser's `database` option. */
  parser: string;
  /** The checked SELECT with at most `rows` rows (the caller asks one more than the limit to know there were more). */
  limited(sql: string, rows: number): string;
}

const asWritten = (sql: string) => sql;
const wrapLimit = (sql: string, rows: number) => `SELECT * FROM (${sql}) AS gbi_query LIMIT ${rows}`;
/** Oracle takes no AS before a table alias; ROWNUM works on every version (FETCH FIRST needs 12c). */
const wrapRownum = (sql: string, rows: number) => `SELECT * FROM (${sql}) gbi_query WHERE ROWNUM <= ${rows}`;

export const DIALECTS: Record<GbiDialect, DialectSql> = {
  postgresql: { parser: 'postgresql', limited: wrapLimit },
  duckdb: { parser: 'postgresql', limited: wrapLimit },
  // MariaDB drops an ORDER BY inside a derived table, T-SQL refuses one (without TOP): these cap
  // rows with the session's setting instead (sql_select_limit, ROWCOUNT; ClickHouse's
  // max_result_rows), set before the query (readOnlyStatements, clickhouseSettings), which runs as written.
  mysql: { parser: 'mysql', limited: asWritten },
  clickhouse: { parser: 'mysql', limited: asWritten },
  sqlserver: { parser: 'transactsql', limited: asWritten },
  oracle: { parser: 'db2', limited: wrapRownum },
  dm: { parser: 'db2', limited: wrapRownum },
};

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * What runs before the query on the same connection, in order (the caller rolls back afterwards).
 * MySQL: a read-only transaction, the server's statement timeout (MariaDB's max_statement_time in
 * seconds, MySQL's max_execution_time in ms: `mariadb` says which) and the rows (sql_select_limit). SQL Server has no read-only
 * session: the rows are capped by ROWCOUNT, locks wait at most the timeout, and the transaction is
 * always rolled back (the guard is the wall; give the source a login with db_datareader only).
 * Oracle and DM: a read-only transaction. ClickHouse takes readonly=1 as query settings (clickhouseSettings).
 */
export function readOnlyStatements(dialect: GbiDialect, timeoutMs: number, rows: number, opts: { mariadb?: boolean } = {}): string[] {
  const ms = Math.max(1, Math.floor(timeoutMs));
  switch (dialect) {
    case 'postgresql':
      return ['BEGIN READ ONLY', `SET LOCAL statement_timeout = ${ms}`];
    case 'mysql':
      return [
        opts.mariadb ? `SET SESSION max_statement_time = ${seconds(ms)}` : `SET SESSION max_execution_time = ${ms}`,
        `SET SESSION sql_select_limit = ${rows}`,
        'START TRANSACTION READ ONLY',
      ];
    case 'sqlserver':
      return [`SET ROWCOUNT ${rows}`, `SET LOCK_TIMEOUT ${ms}`, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'BEGIN TRANSACTION'];
    case 'oracle':
    case 'dm':
      return ['SET TRANSACTION READ ONLY'];
    case 'clickhouse':
    case 'duckdb':
      return [];
  }
}

/**
 * ClickHouse's per-query settings: the time, the rows (cut, not an error) and read-only. readonly
 * comes last: ClickHouse applies a request's settings in order, and refuses any after readonly=1.
 */
export function clickhouseSettings(timeoutMs: number, rows: number) {
  return { max_execution_time: seconds(timeoutMs), max_result_rows: String(rows), result_overflow_mode: 'break', readonly: '1' } as const;
}

/** Quotes an identifier the dialect's way. */
export function quoteIdent(dialect: GbiDialect, name: string): string {
  if (dialect === 'mysql' || dialect === 'clickhouse') return `\`${name.replace(/`/g, '``')}\``;
  if (dialect === 'sqlserver') return `[${name.replace(/]/g, ']]')}]`;
  return `"${name.replace(/"/g, '""')}"`;
}

/** Sample rows read from each table when a source is described (distinct values within these). */
export const SAMPLE_ROWS = 200;

/** The first SAMPLE_ROWS rows of `schema.table`, written the dialect's way. */
export function sampleSql(dialect: GbiDialect, schema: string | null, table: string): string {
  const name = (schema ? `${quoteIdent(dialect, schema)}.` : '') + quoteIdent(dialect, table);
  if (dialect === 'sqlserver') return `SELECT TOP (${SAMPLE_ROWS}) * FROM ${name}`;
  if (dialect === 'oracle' || dialect === 'dm') return `SELECT * FROM ${name} WHERE ROWNUM <= ${SAMPLE_ROWS}`;
  return `SELECT * FROM ${name} LIMIT ${SAMPLE_ROWS}`;
}

/**
 * The columns of the user's tables and views, one row (schema, table, column, type) each, in table
 * and column order. `database` is the connection's database (MySQL, ClickHouse) or schema (DM);
 * the MySQL bind is `?` (mysql2), ClickHouse's `{db:String}`; DM's schema is a quoted literal.
 */
export function columnsSql(dialect: Exclude<GbiDialect, 'postgresql' | 'duckdb'>, database: string): { sql: string; binds: string[] } {
  switch (dialect) {
    case 'mysql':
      return database
        ? { sql: 'SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION', binds: [database] }
        : {
            sql: "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION",
            binds: [],
          };
    case 'sqlserver':
      return { sql: "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA NOT IN ('sys', 'INFORMATION_SCHEMA') ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION", binds: [] };
    case 'oracle':
      // The login's own tables (an Oracle user is its schema).
      return { sql: 'SELECT NULL AS TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM USER_TAB_COLUMNS ORDER BY TABLE_NAME, COLUMN_ID', binds: [] };
    case 'dm':
      return database
        ? { sql: `SELECT OWNER AS TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM ALL_TAB_COLUMNS WHERE OWNER = '${database.replace(/'/g, "''")}' ORDER BY TABLE_NAME, COLUMN_ID`, binds: [] }
        : { sql: 'SELECT NULL AS TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM USER_TAB_COLUMNS ORDER BY TABLE_NAME, COLUMN_ID', binds: [] };
    case 'clickhouse':
      return { sql: 'SELECT database AS TABLE_SCHEMA, table AS TABLE_NAME, name AS COLUMN_NAME, type AS DATA_TYPE FROM system.columns WHERE database = {db:String} ORDER BY table, position', binds: [database || 'default'] };
  }
}

const NUMERIC_TYPE = /^(nullable\()?(u?int\d*|tinyint|smallint|mediumint|integer|bigint|decimal|numeric|number|float\d*|double|real|money|smallmoney|dec)\b/i;
const DATE_TYPE = /^(nullable\()?(date|datetime\w*|timestamp\w*|smalldatetime)\b/i;

/** The result column kind (numeric, date, text) from a database type name, for charts and alignment. */
export function kindOfType(type: string): 'numeric' | 'date' | 'text' {
  if (NUMERIC_TYPE.test(type)) return 'numeric';
  if (DATE_TYPE.test(type)) return 'date';
  return 'text';
}
