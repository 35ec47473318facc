import type { Driver } from './types';
import { cjs, errorCode, errorText, loadDriver } from './types';

/**
 * SQL Server through tedious (TDS). Encryption is negotiated and the server's certificate is
 * trusted as is: these are the user's own servers, often with self-signed certificates.
 */
export const sqlserver: Driver = {
  async probe(s, timeoutMs, signal) {
    const tedious = cjs(await loadDriver('sqlserver', () => import('tedious')));
    const conn = new tedious.Connection({
      server: s.host,
      authentication: { type: 'default', options: { userName: s.account, password: s.password } },
      options: {
        port: s.port,
        database: s.database || undefined,
        encrypt: true,
        trustServerCertificate: true,
        connectTimeout: timeoutMs,
        requestTimeout: timeoutMs,
        appName: 'weft-connection-check',
      },
    });
    conn.on('error', () => {});
    const stop = () => conn.close();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
      await new Promise<void>((resolve, reject) => {
        conn.execSql(new tedious.Request('SELECT 1', (err) => (err ? reject(err) : resolve())));
      });
    } finally {
      signal.removeEventListener('abort', stop);
      conn.close();
    }
  },
  classify(err) {
    const code = errorCode(err);
    const text = errorText(err);
    if (code === 'ELOGIN') return /Cannot open database/i.test(text) ? 'database_missing' : 'auth_failed';
    if (code === 'ETIMEOUT') return 'timeout';
    return undefined;
  },
};
