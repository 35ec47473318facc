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

export interface Driver {
  /**
   * Connects with a connect timeout of `timeoutMs`, runs a trivial query and closes. Throws the
   * driver's own error. When `signal` aborts (the overall deadline), the connection is closed.
   */
  probe(s: ConnectionSettings, timeoutMs: number, signal: AbortSignal): Promise<void>;
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

export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
