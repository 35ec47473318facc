import net from 'node:net';
import type { ConnectionSettings, Driver, ProbeTarget } from './types';
import { cjs, errorCode, errorText, loadDriver } from './types';

/**
 * SQL Server through tedious (TDS). Encryption is negotiated and the server's certificate is
 * trusted as is: these are the user's own servers, often with self-signed certificates. The sockets
 * come from our connector, so the first connection goes to the checked address (the host name
 * stays tedious's `server`, for TLS) and a routing answer (the server sending the client elsewhere)
 * is admitted by the outbound policy like any destination.
 */
export function policyConnector(s: ConnectionSettings, target: ProbeTarget) {
  return async (opts: { host: string; port: number }) => {
    const address = opts.host === s.host && Number(opts.port) === s.port ? target.address : (await target.admit(opts.host, Number(opts.port))).address;
    return new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect({ host: address, port: Number(opts.port) });
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  };
}

/**
 * tedious' connection to `s` through the policy's connector (`options` adds to its options). Its
 * `server` stays the host name, for TLS; the connector connects to the checked address.
 */
export function tediousConfig(s: ConnectionSettings, timeoutMs: number, application: string, target: ProbeTarget, options: { readOnlyIntent?: boolean } = {}) {
  return {
    server: s.host,
    authentication: { type: 'default' as const, options: { userName: s.account, password: s.password } },
    options: {
      port: s.port,
      database: s.database || undefined,
      encrypt: true,
      trustServerCertificate: true,
      connectTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      appName: application,
      ...options,
      // tedious calls it with the host and port it means to reach (the typing says no arguments).
      connector: policyConnector(s, target) as unknown as () => Promise<net.Socket>,
    },
  };
}

export const sqlserver: Driver = {
  async probe(s, timeoutMs, signal, target) {
    const tedious = cjs(await loadDriver('sqlserver', () => import('tedious')));
    const conn = new tedious.Connection(tediousConfig(s, timeoutMs, 'weft-connection-check', target));
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
