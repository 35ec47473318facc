import type pgTypes from 'pg';
import type { GbiResult } from '../../../schemas/gbi';
import type { OutboundPolicy } from '../security/outbound-policy';
import type { ConnectionSettings } from '../services/db-drivers';
import { pgOptions } from '../services/db-drivers/postgresql';
import { cjs, loadDriver } from '../services/db-drivers/types';
import { MAX_TABLES, type SourceTableInfo } from './source-rows';

/**
 * A PostgreSQL database as a GBI source. Every connection goes through the outbound network policy
 * first (like the databases feature's checks): the driver connects to the address the policy
 * admitted, never to the name. Every statement runs inside `BEGIN READ ONLY` with a
 * statement_timeout and is rolled back, the second wall behind the SQL guard.
 */

type PgTableInfo = SourceTableInfo;

async function connect(s: ConnectionSettings, policy: OutboundPolicy, timeoutMs: number): Promise<pgTypes.Client> {
  const target = await policy.admit(s.host, s.port, 'database');
  const pg = cjs(await loadDriver('postgresql', () => import('pg')));
  const client = new pg.Client(pgOptions(s, target.address, timeoutMs, 'weft-gbi'));
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Runs `work` in a read-only transaction that is always rolled back, then closes. */
async function readOnly<T>(s: ConnectionSettings, policy: OutboundPolicy, timeoutMs: number, work: (c: pgTypes.Client) => Promise<T>): Promise<T> {
  const client = await connect(s, policy, timeoutMs);
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    return await work(client);
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end().catch(() => {});
  }
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The user tables and views (not the system schemas), their columns and a few sample values. */
export async function describePg(s: ConnectionSettings, policy: OutboundPolicy, sampleCount: number, timeoutMs = 15_000): Promise<PgTableInfo[]> {
  return readOnly(s, policy, timeoutMs, async (c) => {
    const { rows } = await c.query<{ table_schema: string; table_name: string; column_name: string; data_type: string }>(
      `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg_toast%'
        ORDER BY c.table_schema, c.table_name, c.ordinal_position`,
    );
    const tables = new Map<string, PgTableInfo & { schema: string; table: string }>();
    for (const r of rows) {
      const key = `${r.table_schema}.${r.table_name}`;
      let t = tables.get(key);
      if (!t) {
        if (tables.size >= MAX_TABLES) continue;
        tables.set(key, (t = { name: key, schema: r.table_schema, table: r.table_name, rowCount: null, columns: [] }));
      }
      t.columns.push({ name: r.column_name, dataType: r.data_type, samples: [] });
    }
    for (const t of tables.values()) {
      const est = await c.query<{ n: string }>(`SELECT reltuples::bigint AS n FROM pg_class WHERE oid = $1::regclass`, [`${ident(t.schema)}.${ident(t.table)}`]);
      const n = Number(est.rows[0]?.n ?? -1);
      t.rowCount = n >= 0 ? n : null;
      // Sample values from the first rows (cheap on a large table; distinct within those).
      const sample = await c.query({ text: `SELECT * FROM ${ident(t.schema)}.${ident(t.table)} LIMIT 200`, rowMode: 'array' });
      t.columns.forEach((col, i) => {
        const seen = new Set<string>();
        for (const row of sample.rows as unknown[][]) {
          const v = row[i];
          if (v === null || v === undefined) continue;
          seen.add(v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v).slice(0, 100));
          if (seen.size >= sampleCount) break;
        }
        col.samples = [...seen];
      });
    }
    return [...tables.values()].map(({ name, rowCount, columns }) => ({ name, rowCount, columns }));
  });
}

const NUMERIC_OIDS = new Set([20, 21, 23, 700, 701, 1700]);

/** Runs checked SQL read-only: at most `limit` rows (one more read to know there were more). */
export async function queryPg(s: ConnectionSettings, policy: OutboundPolicy, sql: string, limit: number, timeoutMs: number): Promise<GbiResult> {
  const started = Date.now();
  return readOnly(s, policy, timeoutMs, async (c) => {
    const r = await c.query({ text: `SELECT * FROM (${sql}) AS gbi_query LIMIT ${limit + 1}`, rowMode: 'array' });
    const columns = r.fields.map((f) => ({ name: f.name, data_type: NUMERIC_OIDS.has(f.dataTypeID) ? 'numeric' : f.dataTypeID === 1082 || f.dataTypeID === 1114 || f.dataTypeID === 1184 ? 'date' : 'text' }));
    const rows = (r.rows as unknown[][]).slice(0, limit).map((row) =>
      row.map((v, i) => {
        if (v === null || v === undefined) return null;
        if (columns[i].data_type === 'numeric') return Number(v);
        if (v instanceof Date) return v.toISOString();
        if (typeof v === 'boolean') return v;
        return typeof v === 'object' ? JSON.stringify(v) : String(v);
      }),
    );
    return { columns, rows, truncated: r.rows.length > limit, elapsed_ms: Date.now() - started };
  });
}
