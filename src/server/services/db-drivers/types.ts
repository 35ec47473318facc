import type { CheckCode, DatabaseType } from '../../../../schemas/database';

/** What a connection check needs (the password in plain text, decrypted by the caller). */
export interface ConnectionSettings {
  type: DatabaseType;
  host: string;
  port: number;
  account: string;
  password: string;
  database: string;
  sid: string;
}

/** Where a probe connects: the address the outbound policy checked, and the policy for redirects. */
export interface ProbeTarget {
  /** The checked IP address of `settings.host`: the driver connects there, never to the name. */
  address: string;
  /** Admits another host:port the database server sends the driver to (Oracle redirects, SQL Server routing). */
  admit(host: string, port: number): Promise<{ address: string }>;
}

export interface Driver {
  /**
   * Connects to `target.address` (the host name stays for TLS where the driver uses it) with a
   * connect timeout of `timeoutMs`, runs a trivial query and closes. Throws the driver's own error.
   * When `signal` aborts (the overall deadline), the connection is closed.
   */
  probe(s: ConnectionSettings, timeoutMs: number, signal: AbortSignal, target: ProbeTarget): Promise<void>;
  /** The check code of a driver error, or undefined to fall back to the network rules. */
  classify(err: unknown): CheckCode | undefined;
}

/** The npm driver of a database type cannot be loaded on this server. */
export class DriverUnavailableError extends Error {
  constructor(readonly type: DatabaseType, cause: unknown) {
    super(`Driver for ${type} is not available on this server`, { cause });
  }
}

/** Loads a driver package lazily (only when a check of that type runs). */
export async function loadDriver<T>(type: DatabaseType, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    throw new DriverUnavailableError(type, e);
  }
}

/** CommonJS packages seen through import(): the module object or its default export. */
export const cjs = <T>(mod: T | { default: T }): T => ((mod as { default?: T }).default ?? mod) as T;

export const errorCode = (err: unknown): string | undefined => {
  const c = (err as { code?: unknown } | null)?.code;
  return c === undefined || c === null ? undefined : String(c);
};

/** An IP address as the host of a connect string or URL: IPv6 in brackets. */
export const hostLiteral = (address: string) => (address.includes(':') ? `[${address}]` : address);

export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
