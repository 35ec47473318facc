import type { CheckCode, CheckResult, DatabaseType } from '../../../../schemas/database';
import { clickhouse } from './clickhouse';
import { dm } from './dm';
import { mysql } from './mysql';
import { oracle } from './oracle';
import { postgresql } from './postgresql';
import { sqlserver } from './sqlserver';
import { hostPort, OutboundConnectError, OutboundRefusedError, type OutboundPolicy } from '../../security/outbound-policy';
import { type ConnectionSettings, type Driver, DriverUnavailableError, errorText } from './types';

export { DriverUnavailableError, type ConnectionSettings } from './types';

/** Connect timeout of a check (brief: 5 s). */
export const CONNECT_TIMEOUT_MS = 5000;

export const drivers: Record<DatabaseType, Driver> = { mysql, oracle, sqlserver, postgresql, clickhouse, dm };

/** Errors and their causes (Error.cause, AggregateError.errors), breadth first, a few levels deep. */
function chain(err: unknown): unknown[] {
  const out: unknown[] = [];
  let level: unknown[] = [err];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: unknown[] = [];
    for (const e of level) {
      if (!e || typeof e !== 'object') continue;
      out.push(e);
      const { cause, errors } = e as { cause?: unknown; errors?: unknown };
      if (cause) next.push(cause);
      if (Array.isArray(errors)) next.push(...errors);
    }
    level = next;
  }
  return out;
}

/** The driver's message on one line: for the log, and in the answer only once a database spoke. */
function detailOf(errs: unknown[]): string {
  for (const e of errs) {
    const text = errorText(e).replace(/\s+/g, ' ').trim();
    if (text) return text.length > 300 ? `${text.slice(0, 297)}...` : text;
  }
  return 'Unknown error';
}

/**
 * One sentence per outcome. Every failure before a database really answered is 'unreachable' with
 * the same words (refused, reset, timed out, no database behind the port: the check must not be a
 * port scanner); only what a database says after a handshake (account, database) is specific.
 */
function messageFor(code: CheckCode, s: ConnectionSettings): string {
  const where = hostPort(s.host, s.port);
  switch (code) {
    case 'ok':
      return `Connected to ${where}`;
    case 'host_not_found':
      return `Cannot connect: the host name '${s.host}' cannot be resolved`;
    case 'auth_failed':
      return `Authentication failed for user '${s.account}': check the account and the password`;
    case 'database_missing':
      if (s.type === 'oracle') return `The SID '${s.sid}' is not known to the listener at ${where}`;
      if (s.type === 'dm') return `The schema '${s.database}' does not exist`;
      return `The database '${s.database || (s.type === 'postgresql' ? 'postgres' : s.type === 'clickhouse' ? 'default' : '')}' does not exist`;
    default:
      return `Could not connect to a ${DATABASE_LABELS[s.type]} server at ${where}`;
  }
}

const DATABASE_LABELS: Record<DatabaseType, string> = { mysql: 'MySQL', oracle: 'Oracle', sqlserver: 'SQL Server', postgresql: 'PostgreSQL', clickhouse: 'ClickHouse', dm: 'Dameng' };

export interface CheckOptions {
  /** Admits the host and port (and any address the server redirects to) before a connection. */
  policy: OutboundPolicy;
  /** Connect timeout; the whole check (connect and query) is given twice that. Default 5 s. */
  timeoutMs?: number;
}

/**
 * Really connects with the type's driver, runs a trivial query and closes, within the timeout.
 * Answers what happened (a failed connection is a result, not an exception). Throws
 * OutboundRefusedError (NETWORK-1000) when the policy does not allow the destination: nothing was
 * tried. Throws DriverUnavailableError when the type's driver cannot be loaded here.
 */
export async function checkConnection(s: ConnectionSettings, opts: CheckOptions): Promise<CheckResult> {
  const timeoutMs = opts.timeoutMs ?? CONNECT_TIMEOUT_MS;
  const driver = drivers[s.type];
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const failed = (code: CheckCode, detail = ''): CheckResult => ({ status: 'failed', code, message: messageFor(code, s), detail, elapsed_ms: elapsed() });
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), timeoutMs * 2);
  });
  const admit = (host: string, port: number) => opts.policy.admit(host, port, 'database');
  try {
    const probe = (async () => {
      const target = await admit(s.host, s.port);
      await driver.probe(s, timeoutMs, abort.signal, { address: target.address, admit });
    })();
    probe.catch(() => {}); // settled late after the deadline: nothing listens any more
    const outcome = await Promise.race([probe.then(() => 'done' as const), deadline]);
    if (outcome === 'deadline') {
      abort.abort();
      opts.policy.connectFailed('database', s.host, s.port, new Error(`no answer within ${timeoutMs * 2} ms`));
      return failed('unreachable');
    }
    return { status: 'success', code: 'ok', message: messageFor('ok', s), detail: '', elapsed_ms: elapsed() };
  } catch (err) {
    if (err instanceof DriverUnavailableError || err instanceof OutboundRefusedError) throw err;
    if (err instanceof OutboundConnectError) return failed(err.reason === 'dns' ? 'host_not_found' : 'unreachable');
    const errs = chain(err);
    const refused = errs.find((e) => e instanceof OutboundRefusedError);
    // A redirect the policy refused: the destination as given stays the answer, as a refusal.
    if (refused) throw refused;
    const code = driver.classify(err);
    // The database itself answered (after a handshake): its own words may help, and tell nothing about ports.
    if (code === 'auth_failed' || code === 'database_missing') return failed(code, detailOf(errs));
    opts.policy.connectFailed('database', s.host, s.port, new Error(`${s.type}: ${detailOf(errs)}`));
    return failed('unreachable');
  } finally {
    clearTimeout(timer);
  }
}
