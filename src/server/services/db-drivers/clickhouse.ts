import type { Driver } from './types';
import { errorCode, errorText, loadDriver } from './types';

/** ClickHouse over its HTTP interface (default port 8123) through @clickhouse/client. */
export const clickhouse: Driver = {
  async probe(s, timeoutMs, signal, target) {
    const { createClient, ClickHouseLogLevel } = await loadDriver('clickhouse', () => import('@clickhouse/client'));
    const host = target.address.includes(':') ? `[${target.address}]` : target.address;
    const client = createClient({
      url: `http://${host}:${s.port}`,
      username: s.account,
      password: s.password,
      database: s.database || 'default',
      request_timeout: timeoutMs,
      max_open_connections: 1,
      keep_alive: { enabled: false },
      application: 'weft-connection-check',
      // Failures are the answer of the check, not log noise.
      log: { level: ClickHouseLogLevel.OFF },
    });
    try {
      const rows = await client.query({ query: 'SELECT 1', format: 'JSONEachRow', abort_signal: signal });
      await rows.json();
    } finally {
      await client.close().catch(() => {});
    }
  },
  classify(err) {
    const code = errorCode(err);
    // 516 AUTHENTICATION_FAILED, 192 UNKNOWN_USER, 194 REQUIRED_PASSWORD, 497 ACCESS_DENIED
    if (code === '516' || code === '192' || code === '194' || code === '497') return 'auth_failed';
    if (code === '81') return 'database_missing';
    if (/^Timeout error/i.test(errorText(err))) return 'timeout';
    return undefined;
  },
};
