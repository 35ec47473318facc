import type { Driver } from './types';
import { cjs, errorText, loadDriver } from './types';

/**
 * Dameng (DM8) through `dmdb`, Dameng's own pure-JavaScript driver. `database` is the login
 * schema. Messages are asked for in English.
 */
export const dm: Driver = {
  async probe(s, timeoutMs, signal, target) {
    const dmdb = cjs(await loadDriver('dm', () => import('dmdb')));
    const host = target.address.includes(':') ? `[${target.address}]` : target.address;
    const conn = await dmdb.getConnection({
      connectString: `${host}:${s.port}`,
      user: s.account,
      password: s.password,
      schema: s.database || undefined,
      connectTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      language: 'EN',
    });
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
