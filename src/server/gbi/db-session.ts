import type { DatabaseType } from '../../../schemas/database';
import type { GbiResult } from '../../../schemas/gbi';
import type { OutboundPolicy } from '../security/outbound-policy';
import type { ConnectionSettings } from '../services/db-drivers';
import { columnsSql, DIALECTS, sampleSql } from './dialects';
import { resultOf, samplesOf, tablesFromColumns, type SourceTableInfo } from './source-rows';

/**
 * One read-only connection to a database source (./db-openers.ts opens one per type). Opening it
 * admits the host through the outbound policy, connects to the admitted address, and runs the
 * dialect's read-only statements (./dialects.ts readOnlyStatements); closing rolls back.
 */
export interface SqlSession {
  /** One statement; rows as arrays, columns with the database's type names. */
  run(sql: string, binds?: string[]): Promise<{ columns: { name: string; type: string }[]; rows: unknown[][] }>;
  /** Rolls back and closes (never throws). */
  close(): Promise<void>;
}

export type OtherType = Exclude<DatabaseType, 'postgresql'>;

/** Opens a session; `rows` is the most rows a statement may answer (the query limit plus one). */
export type SessionOpener = (s: ConnectionSettings, policy: OutboundPolicy, timeoutMs: number, rows: number) => Promise<SqlSession>;

async function within<T>(open: SessionOpener, s: ConnectionSettings, policy: OutboundPolicy, timeoutMs: number, rows: number, work: (session: SqlSession) => Promise<T>): Promise<T> {
  const session = await open(s, policy, timeoutMs, rows);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

/** The tables and views of the connection's database or schema, their columns and sample values. */
export function describeWith(type: OtherType, open: SessionOpener) {
  return (s: ConnectionSettings, policy: OutboundPolicy, sampleCount: number, timeoutMs = 15_000): Promise<SourceTableInfo[]> =>
    within(open, s, policy, timeoutMs, 1_000_000, async (session) => {
      const q = columnsSql(type, s.database);
      const { rows } = await session.run(q.sql, q.binds);
      // The connection's own database (MySQL, ClickHouse) or schema (DM) keeps plain table names.
      const plain = type === 'sqlserver' ? 'dbo' : type === 'oracle' ? null : s.database || (type === 'clickhouse' ? 'default' : null);
      const tables = tablesFromColumns(
        rows.map((r) => ({ schema: r[0] === null || r[0] === undefined ? null : String(r[0]), table: String(r[1]), column: String(r[2]), type: String(r[3]) })),
        plain,
      );
      for (const t of tables) {
        const sample = await session.run(sampleSql(type, t.schema, t.table));
        const values = samplesOf(sample.rows, t.columns.length, sampleCount);
        t.columns.forEach((col, i) => (col.samples = values[i]));
      }
      return tables.map(({ name, rowCount, columns }) => ({ name, rowCount, columns }));
    });
}

/** Runs checked SQL read-only with the dialect's row limit: at most `limit` rows (one more read to know there were more). */
export function queryWith(type: OtherType, open: SessionOpener) {
  return (s: ConnectionSettings, policy: OutboundPolicy, sql: string, limit: number, timeoutMs: number): Promise<GbiResult> => {
    const started = Date.now();
    return within(open, s, policy, timeoutMs, limit + 1, async (session) => {
      const r = await session.run(DIALECTS[type].limited(sql, limit + 1));
      return resultOf(r.columns, r.rows, limit, started);
    });
  };
}
