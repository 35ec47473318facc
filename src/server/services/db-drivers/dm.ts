import type { ConnectionSettings, Driver } from './types';
import { cjs, errorText, hostLiteral, loadDriver } from './types';

/** dmdb's connection to `s` at the admitted `address`; the socket's timeout is also the query's (the socket gives up on a silent server). */
export const dmOptions = (s: ConnectionSettings, address: string, timeoutMs: number) => ({
  connectString: `${hostLiteral(address)}:${s.port}`,
  user: s.account,
  password: s.password,
  schema: s.database || undefined,
  connectTimeout: timeoutMs,
  socketTimeout: timeoutMs,
  language: 'EN',
});

/**
 * Dameng (DM8) through `dmdb`, Dameng's own pure-JavaScript driver. `database` is the login
 * schema. Messages are asked for in English.
 */
export const dm: Driver = {
  async probe(s, timeoutMs, signal, target) {
    const dmdb = cjs(await loadDriver('dm', () => import('dmdb')));
    const conn = await dmdb.getConnection(dmOptions(s, target.address, timeoutMs));
    if (signal.aborted) {
      await conn.close().catch(() => {});
      return;
    }
    const stop = () => void conn.close().catch(() => {});
    signal.addEventListener('abort', stop, { once: true });
    try {
      await conn.execute('SELECT 1 FROM DUAL');
    } finally {
      signal.removeEventListener('abort', stop);
      await conn.close().catch(() => {});
    }
  },
  classify(err) {
    const text = errorText(err);
    // -2501 invalid user name or password, -2504 account locked
    if (/\[-250[14]\]|用户名或密码错误|invalid user ?name or password/i.test(text)) return 'auth_failed';
    // -2103 invalid schema name
    if (/\[-2103\]|无效的模式名|invalid schema/i.test(text)) return 'database_missing';
    return undefined;
  },
};
