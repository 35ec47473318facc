import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { ConnectionSettings, Driver, ProbeTarget } from './types';
import { cjs, errorText, hostLiteral, loadDriver } from './types';

type OracleAddress = { host: string; port: number | string };
type Transport = { prototype: { connect(this: unknown, address: OracleAddress): Promise<void> } };

/** The probe a thin-mode transport connection belongs to (set around getConnection). */
const probes = new AsyncLocalStorage<ProbeTarget['admit']>();
let guarded = false;

/**
 * An Oracle listener may answer with a REDIRECT to another address, which the thin driver follows
 * (a server that a tenant points us at could send us to an internal one, with connect data of its
 * choosing). Every transport connection of the thin driver is therefore admitted by the outbound
 * policy first and made to the checked address; one outside a probe is not made at all.
 */
function guardTransport() {
  if (guarded) return;
  const NTTCP = createRequire(import.meta.url)('oracledb/lib/thin/sqlnet/ntTcp.js') as Transport;
  const connect = NTTCP.prototype.connect;
  if (typeof connect !== 'function') throw new Error("node-oracledb's thin transport is not where it was: the Oracle check cannot be guarded");
  NTTCP.prototype.connect = async function (this: unknown, address: OracleAddress) {
    const admit = probes.getStore();
    if (!admit) throw new Error('Oracle connections are made only through the outbound policy (withOracleAdmit)');
    const checked = await admit(address.host, Number(address.port));
    return connect.call(this, { ...address, host: checked.address });
  };
  guarded = true;
}

/**
 * Runs `connect` (node-oracledb getConnection) with every transport connection it makes admitted
 * by `admit` first (GBI's queries connect through this too).
 */
export async function withOracleAdmit<T>(admit: ProbeTarget['admit'], connect: () => Promise<T>): Promise<T> {
  await loadDriver('oracle', async () => guardTransport());
  return probes.run(admit, connect);
}

/** The connect descriptor of `s` at the admitted `address`, by SID, failing at once (no retries) past the timeout. */
export function oracleConnectString(s: ConnectionSettings, address: string, timeoutMs: number): string {
  const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  return (
    `(DESCRIPTION=(CONNECT_TIMEOUT=${seconds})(TRANSPORT_CONNECT_TIMEOUT=${seconds})(RETRY_COUNT=0)` +
    `(ADDRESS=(PROTOCOL=TCP)(HOST=${hostLiteral(address)})(PORT=${s.port}))(CONNECT_DATA=(SID=${s.sid})))`
  );
}

/**
 * Oracle through node-oracledb in thin mode (pure JavaScript, no Oracle client libraries), reached
 * by SID. Host and SID are validated by the schema, so the connect descriptor cannot be broken.
 */
export const oracle: Driver = {
  async probe(s, timeoutMs, signal, target) {
    const oracledb = cjs(await loadDriver('oracle', () => import('oracledb')));
    await loadDriver('oracle', async () => guardTransport());
    const connectString = oracleConnectString(s, target.address, timeoutMs);
    const conn = await probes.run(target.admit, () => oracledb.getConnection({ user: s.account, password: s.password, connectString }));
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
