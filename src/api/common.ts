/** COMMON group (spec 7.6): public tenant info, the app configuration, the platform switcher. */
import { z } from 'zod';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { SwitchAppEntry } from '../../schemas/org';
import { PublicTenant } from '../../schemas/tenant';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

/**
 * GET /config.json (spec 7.3), read before the app renders. Only the local auth mode exists so far
 * (spec 7.2 mode 1). Missing fields take the spec's defaults (all-zero tenant, 5 s refresh leeway).
 */
export const AppConfig = z.object({
  authMode: z.enum(['local']).default('local'),
  defaultTenantId: z.string().min(1).default(DEFAULT_TENANT_ID),
  upload: z.object({ maxCount: z.number().int().positive(), maxMb: z.number().positive() }),
  tokenRefreshLeewaySeconds: z.number().min(0).default(5),
  /** The longest code runs on this server (WEFT_SANDBOX_MAX_TIMEOUT_MS): a code node's timeout is cut to it. */
  sandbox: z.object({ maxTimeoutSeconds: z.number().int().positive() }).default({ maxTimeoutSeconds: 60 }),
  version: z.string().default(''),
});
export type AppConfig = z.infer<typeof AppConfig>;

export const commonEndpoints = {
  config: { method: 'GET', url: '/config.json', name: 'common.config' },
  defaultTenant: { method: 'GET', url: '/api/v1/common/tenants/default/info', name: 'common.tenants.default' },
  tenants: { method: 'GET', url: '/api/v1/common/tenants/default/list', name: 'common.tenants.list' },
  switchAppConfig: { method: 'GET', url: '/api/v1/common/switch-app-config', name: 'common.switchAppConfig' },
} as const satisfies Record<string, Endpoint>;

const publicCall: Opts = { auth: false, tenantId: null, workspaceId: null };

/** The app configuration (not an envelope). Silent: start-up shows its own failure. */
export const getAppConfig = (opts?: Opts) =>
  call(AppConfig, commonEndpoints.config, undefined, { ...publicCall, reaction: 'silent', ...opts });

/** The default tenant (no token needed; the sign-in page). */
export const getDefaultTenant = (opts?: Opts) => call(PublicTenant, commonEndpoints.defaultTenant, undefined, { ...publicCall, ...opts });

/** Enabled tenants one can sign in to, the default first (no token needed). */
export const listLoginTenants = (opts?: Opts) => call(z.array(PublicTenant), commonEndpoints.tenants, undefined, { ...publicCall, ...opts });

/** Entries of the platform switcher (console, portal, and system admin for admins). */
export const getSwitchAppConfig = (opts?: Opts) => call(z.array(SwitchAppEntry), commonEndpoints.switchAppConfig, undefined, opts);
