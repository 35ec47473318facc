import { createRequire } from 'node:module';
import type { GbiDialect } from '../../../schemas/gbi';
import { DIALECTS } from './dialects';

/**
 * The first wall in front of a GBI query (issue 30 "Safety"): the model's SQL is parsed by
 * node-sql-parser for the source's dialect and must be a single SELECT, without INTO, reading only
 * the source's own tables (and its own CTEs), calling no table function and no function that reads
 * or writes files, reaches the network or runs other SQL. The second wall is where it runs: a
 * read-only transaction (PostgreSQL) or a read-only DuckDB with external access off.
 *
 * node-sql-parser has no DuckDB, Oracle, DM or ClickHouse grammar: the closest is used (./dialects.ts).
 * SQL the parser cannot read is refused, not let through.
 */

export type RefusalReason = 'unparsable' | 'multiple_statements' | 'not_select' | 'select_into' | 'function' | 'table';

export class SqlRefusedError extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

// node-sql-parser is one 4.8 MB script with every dialect's grammar: read on the first check, not at
// the server's start, where it was the largest single module (issue 32). require() keeps checkSql synchronous.
let parser: import('node-sql-parser').Parser | undefined;
const parserOf = () => (parser ??= new (createRequire(import.meta.url)('node-sql-parser') as typeof import('node-sql-parser')).Parser());

/**
 * Functions refused by name (lower case). PostgreSQL: files (pg_read_file, pg_ls_dir, lo_*), other
 * servers (dblink, postgres_fdw), SQL in a string (query_to_xml and friends), settings and server
 * control. DuckDB: every file and URL reader and writer, and query()/query_table() (SQL in a string).
 */
const DENIED = new Set([
  'pg_read_file', 'pg_read_binary_file', 'pg_stat_file', 'pg_ls_dir', 'pg_ls_logdir', 'pg_ls_waldir', 'pg_ls_tmpdir', 'pg_ls_archive_statusdir',
  'lo_import', 'lo_export', 'lo_open', 'lo_get', 'lo_put', 'lo_from_bytea', 'lo_create', 'lo_unlink',
  'dblink', 'dblink_exec', 'dblink_connect', 'dblink_open', 'dblink_send_query',
  'query_to_xml', 'query_to_xml_and_xmlschema', 'query_to_xmlschema', 'cursor_to_xml', 'table_to_xml', 'database_to_xml', 'schema_to_xml',
  'set_config', 'pg_terminate_backend', 'pg_cancel_backend', 'pg_reload_conf', 'pg_rotate_logfile', 'pg_promote', 'pg_sleep', 'pg_sleep_for', 'pg_sleep_until',
  'pg_advisory_lock', 'pg_advisory_xact_lock', 'pg_notify', 'txid_current', 'nextval', 'setval',
  'read_csv', 'read_csv_auto', 'read_parquet', 'parquet_scan', 'parquet_metadata', 'parquet_schema', 'read_json', 'read_json_auto', 'read_json_objects', 'read_ndjson',
  'read_ndjson_auto', 'read_ndjson_objects', 'read_text', 'read_blob', 'read_xlsx', 'glob', 'sniff_csv', 'iceberg_scan', 'delta_scan', 'sqlite_scan', 'postgres_scan',
  'mysql_scan', 'query', 'query_table', 'getenv', 'load_extension',
  // MySQL / MariaDB: files, other servers' time (sleep, benchmark), locks, UDFs that run commands.
  'load_file', 'sleep', 'benchmark', 'get_lock', 'release_lock', 'sys_exec', 'sys_eval',
  // SQL Server: other servers and files (as table sources), waits.
  'openrowset', 'openquery', 'opendatasource', 'openxml', 'fn_trace_gettable', 'fn_get_audit_file', 'fn_xe_file_target_read_file',
  // ClickHouse: table functions reaching files, URLs and other servers, and file() as a scalar.
  'file', 'url', 's3', 's3cluster', 'remote', 'remotesecure', 'cluster', 'clusterallreplicas', 'jdbc', 'odbc', 'hdfs', 'input', 'executable', 'mysql', 'postgresql',
  'sqlite', 'mongodb', 'redis', 'azureblobstorage', 'gcs', 'dictget',
  // Oracle / DM: URIs that fetch, XML built by running SQL in a string.
  'httpuritype', 'dburitype', 'xdburitype', 'dbms_xmlgen', 'xmlquery',
]);
/** Name prefixes refused as a family (file and server functions; DuckDB's readers; Oracle/DM's packages). */
const DENIED_PREFIXES = ['pg_read_', 'pg_ls_', 'pg_file', 'lo_', 'dblink', 'read_', 'http', 'duckdb_', 's3_', 'utl_', 'dbms_', 'sys_exec', 'xp_', 'sp_', 'sf_', 'url'];

/** Any part of a qualified name (`utl_http.request`: the package is what is refused). */
const deniedFunction = (name: string) => name.split('.').some((part) => DENIED.has(part) || DENIED_PREFIXES.some((p) => part.startsWith(p)));

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;

/** The plain name of a function node (`name` is a string for aggregates, a name list otherwise). */
function functionName(node: Node): string {
  const n = node.name as unknown;
  if (typeof n === 'string') return n.toLowerCase();
  const parts = isNode(n) && Array.isArray(n.name) ? (n.name as { value?: unknown }[]) : [];
  // A package or schema before the name (Oracle's UTL_HTTP.REQUEST) is part of what is checked.
  const schema = isNode(n) && isNode(n.schema) ? [n.schema as { value?: unknown }] : [];
  return [...schema, ...parts]
    .map((p) => String(p.value ?? ''))
    .join('.')
    .toLowerCase();
}

/**
 * Checks the SQL for `dialect` against the source's `tables` (schema-qualified or plain names).
 * Answers the SQL without its trailing semicolon; throws SqlRefusedError saying why otherwise.
 */
export function checkSql(sql: string, dialect: GbiDialect, tables: readonly string[]): string {
  const text = sql.trim().replace(/;\s*$/, '');
  if (!text) throw new SqlRefusedError('unparsable', 'The SQL is empty');
  let ast: unknown;
  try {
    ast = parserOf().astify(text, { database: DIALECTS[dialect].parser });
  } catch (e) {
    throw new SqlRefusedError('unparsable', `The SQL could not be parsed as one ${dialect} SELECT: ${(e as Error).message.split('\n')[0].slice(0, 200)}`);
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) throw new SqlRefusedError('multiple_statements', 'Only one statement may run; the SQL holds several');
  const root = statements[0] as Node;
  if (root.type !== 'select') throw new SqlRefusedError('not_select', `Only SELECT may run; the SQL is ${String(root.type).toUpperCase()}`);

  const known = new Set<string>();
  for (const t of tables) {
    known.add(t.toLowerCase());
    known.add(t.toLowerCase().split('.').at(-1)!);
  }
  // CTE names anywhere in the statement may be read like tables.
  walk(root, (node) => {
    if (Array.isArray(node.with)) for (const w of node.with as Node[]) known.add(String((w.name as Node | undefined)?.value ?? w.name).toLowerCase());
  });
  walk(root, (node, key) => {
    if (node.type === 'select' && isNode(node.into) && node.into.position) throw new SqlRefusedError('select_into', 'SELECT INTO creates a table: not allowed');
    if (node.type === 'function' || node.type === 'aggr_func') {
      const name = functionName(node);
      if (deniedFunction(name)) throw new SqlRefusedError('function', `The function ${name}() may not be used: it reads or writes files, reaches the network or runs other SQL`);
    }
    if (key === 'from' && typeof node.table === 'string') {
      const name = (node.db ? `${String(node.db)}.${node.table}` : node.table).toLowerCase();
      if (!known.has(name)) throw new SqlRefusedError('table', `The table '${name}' is not one of this source's tables`);
    }
    if (key === 'from' && node.type === 'expr' && isNode(node.expr) && node.expr.type === 'function') {
      throw new SqlRefusedError('function', `The table function ${functionName(node.expr)}() may not be used`);
    }
  });
  return text;
}

/** Visits every object in the tree with the key of the array or property it sits in. */
function walk(node: unknown, visit: (node: Node, key: string) => void, key = '') {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit, key);
    return;
  }
  if (!isNode(node)) return;
  visit(node, key);
  for (const [k, v] of Object.entries(node)) if (isNode(v)) walk(v, visit, k === 'join' ? 'from' : k);
}
