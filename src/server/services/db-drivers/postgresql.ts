import type { ConnectionSettings, Driver } from './types';
import { cjs, errorCode, errorText, loadDriver } from './types';

/** node-postgres' connection to `s` at the admitted `address`; an empty database means 'postgres'. */
export const pgOptions = (s: ConnectionSettings, address: string, timeoutMs: number, application: string) => ({
  host: address,
  port: s.port,
  user: s.account,
  password: s.password,
  database: s.database || 'postgres',
  connectionTimeoutMillis: timeoutMs,
  application_name: application,
});

/** PostgreSQL through node-postgres. */
export const postgresql: Driver = {
  async probe(s, timeoutMs, signal, target) {
    const pg = cjs(await loadDriver('postgresql', () => import('pg')));
    const client = new pg.Client({ ...pgOptions(s, target.address, timeoutMs, 'weft-connection-check'), query_timeout: timeoutMs });
    client.on('error', () => {});
    const stop = () => void client.end().catch(() => {});
    signal.addEventListener('abort', stop, { once: true });
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      signal.removeEventListener('abort', stop);
      await client.end().catch(() => {});
    }
  },
  classify(err) {
    const code = errorCode(err);
    // 28P01 invalid_password, 28000 invalid_authorization_specification (no pg_hba entry, no such role)
    if (code === '28P01' || code === '28000') return 'auth_failed';
    if (code === '3D000') return 'database_missing';
    if (/password must be a (non-empty )?string/i.test(errorText(err))) return 'auth_failed';
    return undefined;
  },
};
