import type { FieldPacket, RowDataPacket } from 'mysql2/promise';
import type { OutboundPolicy } from '../security/outbound-policy';
import type { ConnectionSettings } from '../services/db-drivers';
import { dmOptions } from '../services/db-drivers/dm';
import { mysqlOptions } from '../services/db-drivers/mysql';
import { oracleConnectString, withOracleAdmit } from '../services/db-drivers/oracle';
import { tediousConfig } from '../services/db-drivers/sqlserver';
import { cjs, hostLiteral, loadDriver } from '../services/db-drivers/types';
import { clickhouseSettings, readOnlyStatements } from './dialects';
import type { OtherType, SessionOpener, SqlSession } from './db-session';

/**
 * Read-only sessions of the database types other than PostgreSQL (./pg-source.ts), one opener per
 * driver. Each connects to the address the outbound policy admitted (redirects too: Oracle's
 * transport and SQL Server's routing go through the same admission as the connection check), runs
 * its dialect's read-only statements, and rolls back when closed. Only MySQL/MariaDB runs on this
 * machine in the tests (tests/api/gbi-mysql.test.ts); the SQL the others send is unit-tested in
 * ./dialects.test.ts. The connection options are the connection check's (services/db-drivers), plus
 * what a session adds.
 */

const admitter = (policy: OutboundPolicy) => (host: string, port: number) => policy.admit(host, port, 'database');

/** mysql2's column type codes that are numbers (DECIMAL, TINY … LONGLONG, INT24, NEWDECIMAL; not YEAR) and dates. */
const MYSQL_NUMERIC = new Set([0, 1, 2, 3, 4, 5, 8, 9, 246]);
const MYSQL_DATE = new Set([7, 10, 12, 14]);
const mysqlType = (f: FieldPacket) => (MYSQL_NUMERIC.has(f.columnType ?? -1) ? 'decimal' : MYSQL_DATE.has(f.columnType ?? -1) ? 'datetime' : 'text');

const mysql: SessionOpener = async (s, policy, timeoutMs, rows) => {
  const target = await policy.admit(s.host, s.port, 'database');
  const mysql2 = cjs(await loadDriver('mysql', () => import('mysql2/promise')));
  const conn = await mysql2.createConnection({
    ...mysqlOptions(s, target.address, timeoutMs),
    multipleStatements: false,
    // Dates as the database writes them (no time zone shift).
    dateStrings: true,
  });
  conn.on('error', () => {});
  const session: SqlSession = {
    async run(sql, binds = []) {
      // The server's own limit stops the statement first (its error says so); mysql2's timeout, a
      // little later, closes the connection if the server did not.
      const [out, fields] = await conn.query<RowDataPacket[]>({ sql, values: binds, rowsAsArray: true, timeout: timeoutMs + 2000 });
      return { columns: (fields ?? []).map((f) => ({ name: f.name, type: mysqlType(f) })), rows: out as unknown as unknown[][] };
    },
    async close() {
      await conn.query('ROLLBACK').catch(() => {});
      await conn.end().catch(() => conn.destroy());
    },
  };
  try {
    const version = await session.run('SELECT VERSION()');
    const mariadb = /mariadb/i.test(String(version.rows[0]?.[0] ?? ''));
    for (const sql of readOnlyStatements('mysql', timeoutMs, rows, { mariadb })) await conn.query(sql);
  } catch (e) {
    await session.close();
    throw e;
  }
  return session;
};

const sqlserver: SessionOpener = async (s, policy, timeoutMs, rows) => {
  const tedious = cjs(await loadDriver('sqlserver', () => import('tedious')));
  const admit = admitter(policy);
  const target = await admit(s.host, s.port);
  // A readable secondary where the server has one (availability groups); not itself a wall.
  const conn = new tedious.Connection(tediousConfig(s, timeoutMs, 'weft-gbi', { address: target.address, admit }, { readOnlyIntent: true }));
  conn.on('error', () => {});
  await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
  const run: SqlSession['run'] = (sql) =>
    new Promise((resolve, reject) => {
      const columns: { name: string; type: string }[] = [];
      const out: unknown[][] = [];
      const request = new tedious.Request(sql, (err) => (err ? reject(err) : resolve({ columns, rows: out })));
      request.on('columnMetadata', (meta) => {
        const list = Array.isArray(meta) ? meta : Object.values(meta);
        columns.splice(0, columns.length, ...list.map((c) => ({ name: c.colName, type: String(c.type?.name ?? '') })));
      });
      request.on('row', (cells) => out.push((Array.isArray(cells) ? cells : Object.values(cells)).map((c) => c.value)));
      conn.execSql(request);
    });
  const session: SqlSession = {
    run,
    async close() {
      await run('IF @@TRANCOUNT > 0 ROLLBACK').catch(() => {});
      conn.close();
    },
  };
  try {
    for (const sql of readOnlyStatements('sqlserver', timeoutMs, rows)) await run(sql);
  } catch (e) {
    await session.close();
    throw e;
  }
  return session;
};

const oracle: SessionOpener = async (s, policy, timeoutMs) => {
  const oracledb = cjs(await loadDriver('oracle', () => import('oracledb')));
  const admit = admitter(policy);
  const target = await admit(s.host, s.port);
  const connectString = oracleConnectString(s, target.address, timeoutMs);
  const conn = await withOracleAdmit(admit, () => oracledb.getConnection({ user: s.account, password: s.password, connectString }));
  conn.callTimeout = timeoutMs;
  const session: SqlSession = {
    async run(sql, binds = []) {
      const r = await conn.execute(sql, binds, { outFormat: oracledb.OUT_FORMAT_ARRAY });
      return { columns: (r.metaData ?? []).map((m) => ({ name: m.name, type: m.dbTypeName ?? '' })), rows: (r.rows ?? []) as unknown[][] };
    },
    async close() {
      await conn.rollback().catch(() => {});
      await conn.close().catch(() => {});
    },
  };
  try {
    for (const sql of readOnlyStatements('oracle', timeoutMs, 0)) await session.run(sql);
  } catch (e) {
    await session.close();
    throw e;
  }
  return session;
};

const dm: SessionOpener = async (s, policy, timeoutMs) => {
  const dmdb = cjs(await loadDriver('dm', () => import('dmdb')));
  const target = await policy.admit(s.host, s.port, 'database');
  const conn = await dmdb.getConnection(dmOptions(s, target.address, timeoutMs));
  const session: SqlSession = {
    async run(sql, binds = []) {
      const r = await conn.execute<unknown[]>(sql, binds, { outFormat: dmdb.OUT_FORMAT_ARRAY });
      const meta = (r.metaData ?? []).flat();
      return { columns: meta.map((m) => ({ name: m.name, type: m.dbTypeName ?? '' })), rows: (r.rows ?? []) as unknown[][] };
    },
    async close() {
      await conn.rollback().catch(() => {});
      await conn.close().catch(() => {});
    },
  };
  try {
    for (const sql of readOnlyStatements('dm', timeoutMs, 0)) await session.run(sql);
  } catch (e) {
    await session.close();
    throw e;
  }
  return session;
};

const clickhouse: SessionOpener = async (s, policy, timeoutMs, rows) => {
  const { createClient, ClickHouseLogLevel } = await loadDriver('clickhouse', () => import('@clickhouse/client'));
  const target = await policy.admit(s.host, s.port, 'database');
  const client = createClient({
    url: `http://${hostLiteral(target.address)}:${s.port}`,
    username: s.account,
    password: s.password,
    database: s.database || 'default',
    request_timeout: timeoutMs + 1000,
    max_open_connections: 1,
    keep_alive: { enabled: false },
    application: 'weft-gbi',
    log: { level: ClickHouseLogLevel.OFF },
    // readonly=1 on every query: reads only, and the query cannot change a setting back.
    clickhouse_settings: clickhouseSettings(timeoutMs, rows),
  });
  return {
    async run(sql, binds = []) {
      const r = await client.query({ query: sql, format: 'JSONCompactEachRowWithNamesAndTypes', query_params: binds.length ? { db: binds[0] } : undefined });
      const [names = [], types = [], ...data] = (await r.json()) as unknown[][];
      return { columns: names.map((n, i) => ({ name: String(n), type: String(types[i] ?? '') })), rows: data };
    },
    async close() {
      await client.close().catch(() => {});
    },
  };
};

export const OPENERS: Record<OtherType, SessionOpener> = { mysql, sqlserver, oracle, clickhouse, dm };
