import type { CheckCode, CheckResult, DatabaseType } from '../../../../schemas/database';
import { clickhouse } from './clickhouse';
import { dm } from './dm';
import { mysql } from './mysql';
import { oracle } from './oracle';
import { postgresql } from './postgresql';
import { sqlserver } from './sqlserver';
import { type ConnectionSettings, type Driver, DriverUnavailableError, errorText } from './types';

export { DriverUnavailableError, type ConnectionSettings } from './types';

/** Connect timeout of a check (brief: 5 s). */
export const CONNECT_TIMEOUT_MS = 5000;

export const drivers: Record<DatabaseType, Driver> = { mysql, oracle, sqlserver, postgresql, clickhouse, dm };

const NETWORK: Record<string, CheckCode> = {
  ECONNREFUSED: 'unreachable',
  ECONNRESET: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  EPIPE: 'unreachable',
  ENOTFOUND: 'host_not_found',
  EAI_AGAIN: 'host_not_found',
  EAI_NONAME: 'host_not_found',
  ETIMEDOUT: 'timeout',
  ETIMEOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  ECONNABORTED: 'timeout',
};
const NETWORK_RE = new RegExp(`\\b(${Object.keys(NETWORK).join('|')})\\b`);

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

function networkCode(errs: unknown[]): CheckCode | undefined {
  for (const e of errs) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK[code]) return NETWORK[code];
  }
  for (const e of errs) {
    const m = NETWORK_RE.exec(errorText(e));
    if (m) return NETWORK[m[1]];
  }
  // 'Connection terminated due to connection timeout', 'Socket timeout', 'timed out'
  if (errs.some((e) => /\btime(?:d ?)?out\b/i.test(errorText(e)))) return 'timeout';
  return undefined;
}

/** The driver's message on one line, without noise, at most 300 characters. */
function detailOf(errs: unknown[]): string {
  for (const e of errs) {
    const text = errorText(e).replace(/\s+/g, ' ').trim();
    if (text) return text.length > 300 ? `${text.slice(0, 297)}...` : text;
  }
  return 'Unknown error';
}

function messageFor(code: CheckCode, s: ConnectionSettings, timeoutMs: number, detail: string): string {
  const where = `${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`;
  switch (code) {
    case 'ok':
      return `Connected to ${where}`;
    case 'unreachable':
      return `Cannot connect to ${where}: the host refused or dropped the connection (check the host, the port and that the database is running)`;
    case 'host_not_found':
      return `Cannot connect: the host name '${s.host}' cannot be resolved`;
    case 'timeout':
      return `Cannot connect to ${where}: no answer within ${timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}`;
    case 'auth_failed':
      return `Authentication failed for user '${s.account}': check the account and the password`;
    case 'database_missing':
      if (s.type === 'oracle') return `The SID '${s.sid}' is not known to the listener at ${where}`;
      if (s.type === 'dm') return `The schema '${s.database}' does not exist`;
      return `The database '${s.database || (s.type === 'postgresql' ? 'postgres' : s.type === 'clickhouse' ? 'default' : '')}' does not exist`;
    default:
      return `Connection check failed: ${detail}`;
  }
}

export interface CheckOptions {
  /** Connect timeout; the whole check (connect and query) is given twice that. Default 5 s. */
  timeoutMs?: number;
}

/**
 * Really connects with the type's driver, runs a trivial query and closes, within the timeout.
 * Answers what happened (a failed connection is a result, not an exception). Throws
 * DriverUnavailableError when the type's driver cannot be loaded here.
 */
export async function checkConnection(s: ConnectionSettings, opts: CheckOptions = {}): Promise<CheckResult> {
  const timeoutMs = opts.timeoutMs ?? CONNECT_TIMEOUT_MS;
  const driver = drivers[s.type];
  const started = Date.now();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), timeoutMs * 2);
  });
  const elapsed = () => Date.now() - started;
  try {
    const probe = driver.probe(s, timeoutMs, abort.signal);
    probe.catch(() => {}); // settled late after the deadline: nothing listens any more
    const outcome = await Promise.race([probe.then(() => 'done' as const), deadline]);
    if (outcome === 'deadline') {
      abort.abort();
      return { status: 'failed', code: 'timeout', message: messageFor('timeout', s, timeoutMs, ''), detail: 'No answer before the deadline', elapsed_ms: elapsed() };
    }
    return { status: 'success', code: 'ok', message: messageFor('ok', s, timeoutMs, ''), detail: '', elapsed_ms: elapsed() };
  } catch (err) {
    if (err instanceof DriverUnavailableError) throw err;
    const errs = chain(err);
    const code = driver.classify(err) ?? networkCode(errs) ?? 'error';
    const detail = detailOf(errs);
    return { status: 'failed', code, message: messageFor(code, s, timeoutMs, detail), detail, elapsed_ms: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}
