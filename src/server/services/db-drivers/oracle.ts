import type { Driver } from './types';
import { cjs, errorText, loadDriver } from './types';

/**
 * Oracle through node-oracledb in thin mode (pure JavaScript, no Oracle client libraries), reached
 * by SID. Host and SID are validated by the schema, so the connect descriptor cannot be broken.
 */
export const oracle: Driver = {
  async probe(s, timeoutMs, signal) {
    const oracledb = cjs(await loadDriver('oracle', () => import('oracledb')));
    const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
    const host = s.host.includes(':') ? `[${s.host}]` : s.host;
    const connectString =
      `(DESCRIPTION=(CONNECT_TIMEOUT=${seconds})(TRANSPORT_CONNECT_TIMEOUT=${seconds})(RETRY_COUNT=0)` +
      `(ADDRESS=(PROTOCOL=TCP)(HOST=${host})(PORT=${s.port}))(CONNECT_DATA=(SID=${s.sid})))`;
    const conn = await oracledb.getConnection({ user: s.account, password: s.password, connectString });
    if (signal.aborted) {
      await conn.close().catch(() => {});
      return;
    }
    const stop = () => void conn.break().catch(() => {});
    signal.addEventListener('abort', stop, { once: true });
    try {
      conn.callTimeout = timeoutMs;
      await conn.execute('select 1 from dual');
    } finally {
      signal.removeEventListener('abort', stop);
      await conn.close().catch(() => {});
    }
  },
  classify(err) {
    const text = errorText(err);
    // ORA-01017 invalid username/password, ORA-28000 account locked, ORA-01005 null password
    if (/ORA-01017|ORA-28000|ORA-01005|ORA-1017\b/.test(text)) return 'auth_failed';
    // ORA-12505 unknown SID, ORA-12514 unknown service; thin-mode NJS-518/519 say the same
    if (/ORA-12505|ORA-12514|NJS-518|NJS-519/.test(text)) return 'database_missing';
    if (/NJS-510/.test(text)) return 'timeout';
    return undefined;
  },
};
