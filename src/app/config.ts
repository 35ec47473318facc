import { getAppConfig, type AppConfig } from '../api/common';
import type { RequestOptions } from '../api/request';

export type { AppConfig };

/**
 * What {@link getConfig} answers before /config.json is loaded (stories, unit tests): the schema's
 * defaults with 10 files of 50 MB. Written out, not parsed at start-up (zod is not in the first load,
 * issue 21); config.test.ts checks it equals `AppConfig.parse({ upload: { maxCount: 10, maxMb: 50 } })`.
 */
export const DEFAULT_CONFIG: AppConfig = {
  authMode: 'local',
  codeLogin: [],
  defaultTenantId: '00000000-0000-0000-0000-000000000000',
  upload: { maxCount: 10, maxMb: 50 },
  tokenRefreshLeewaySeconds: 5,
  sandbox: { maxTimeoutSeconds: 60 },
  version: '',
};

let current: AppConfig | null = null;

/**
 * Loads GET /config.json, parses it (zod) and keeps it. main.tsx awaits this before rendering (spec 7.3);
 * a failure rejects with the ApiError.
 */
export async function loadConfig(opts?: Pick<RequestOptions, 'signal'>): Promise<AppConfig> {
  current = await getAppConfig(opts);
  return current;
}

/** The loaded configuration ({@link DEFAULT_CONFIG} until loaded). It does not change after start-up. */
export function getConfig(): AppConfig {
  return current ?? DEFAULT_CONFIG;
}

/** Whether /config.json has been loaded. */
export const isConfigLoaded = () => current !== null;

/** Replaces the configuration (tests and stories); `null` goes back to the defaults. */
export function setConfig(next: AppConfig | null): void {
  current = next;
}
