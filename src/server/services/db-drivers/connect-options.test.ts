import { describe, expect, it } from 'vitest';
import { dmOptions } from './dm';
import { mysqlOptions } from './mysql';
import { oracleConnectString } from './oracle';
import { pgOptions } from './postgresql';
import { tediousConfig } from './sqlserver';
import type { ConnectionSettings } from './types';

// The connection options the connection check and GBI's read-only sessions share: they connect to the
// address the outbound policy admitted (IPv6 in brackets where a connect string holds it), never the name.

const s: ConnectionSettings = { type: 'mysql', host: 'db.example.com', port: 4000, account: 'reader', password: 'pw', database: '', sid: 'ORCL' };
const admit = async () => ({ address: '10.0.0.9' });

describe('database connection options', () => {
  it('connect to the admitted address with the settings and timeout, an empty database left to the driver', () => {
    expect(mysqlOptions(s, '10.0.0.5', 1500)).toEqual({ host: '10.0.0.5', port: 4000, user: 'reader', password: 'pw', database: undefined, connectTimeout: 1500 });
    expect(pgOptions({ ...s, database: 'sales' }, '10.0.0.5', 1500, 'weft-gbi')).toEqual({
      host: '10.0.0.5',
      port: 4000,
      user: 'reader',
      password: 'pw',
      database: 'sales',
      connectionTimeoutMillis: 1500,
      application_name: 'weft-gbi',
    });
    expect(pgOptions(s, '10.0.0.5', 1500, 'x').database).toBe('postgres');
    expect(dmOptions({ ...s, database: 'SALES' }, '10.0.0.5', 1500)).toMatchObject({ connectString: '10.0.0.5:4000', schema: 'SALES', connectTimeout: 1500, socketTimeout: 1500 });
  });

  it('bracket an IPv6 address in connect strings; Oracle gives up after the timeout in whole seconds, without retries', () => {
    expect(dmOptions(s, '::1', 1000).connectString).toBe('[::1]:4000');
    expect(oracleConnectString(s, 'fd00::7', 2500)).toBe(
      '(DESCRIPTION=(CONNECT_TIMEOUT=3)(TRANSPORT_CONNECT_TIMEOUT=3)(RETRY_COUNT=0)(ADDRESS=(PROTOCOL=TCP)(HOST=[fd00::7])(PORT=4000))(CONNECT_DATA=(SID=ORCL)))',
    );
  });

  it('keep the host name for TLS in SQL Server and add a session option without losing the policy connector', () => {
    const config = tediousConfig(s, 1500, 'weft-gbi', { address: '10.0.0.5', admit }, { readOnlyIntent: true });
    expect(config.server).toBe('db.example.com');
    expect(config.options).toMatchObject({ port: 4000, appName: 'weft-gbi', readOnlyIntent: true, connectTimeout: 1500, requestTimeout: 1500, encrypt: true });
    expect(typeof config.options.connector).toBe('function');
    expect(tediousConfig(s, 1500, 'weft-connection-check', { address: '10.0.0.5', admit }).options).not.toHaveProperty('readOnlyIntent');
  });
});
