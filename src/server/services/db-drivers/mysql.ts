import type { ConnectionSettings, Driver } from './types';
import { cjs, errorText, loadDriver } from './types';

/** mysql2's connection to `s` at the admitted `address` (the connection check's and GBI's sessions add their own options). */
export const mysqlOptions = (s: ConnectionSettings, address: string, timeoutMs: number) => ({
  host: address,
  port: s.port,
  user: s.account,
  password: s.password,
  database: s.database || undefined,
  connectTimeout: timeoutMs,
});

/** MySQL (and MariaDB) through mysql2. */
export const mysql: Driver = {
  async probe(s, timeoutMs, signal, target) {
    const mysql2 = cjs(await loadDriver('mysql', () => import('mysql2/promise')));
    const conn = await mysql2.createConnection(mysqlOptions(s, target.address, timeoutMs));
    conn.on('error', () => {});
    if (signal.aborted) {
      conn.destroy();
      return;
    }
    const stop = () => conn.destroy();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await conn.query({ sql: 'SELECT 1', timeout: timeoutMs });
    } finally {
      signal.removeEventListener('abort', stop);
      await conn.end().catch(() => conn.destroy());
    }
  },
  classify(err) {
    const errno = (err as { errno?: number }).errno;
    // 1045 access denied (password), 1044 access denied to the database, 1698 auth plugin refused
    if (errno === 1045 || errno === 1044 || errno === 1698) return 'auth_failed';
    if (errno === 1049) return 'database_missing';
    if (/Access denied for user/i.test(errorText(err))) return 'auth_failed';
    return undefined;
  },
};
