/** COMMON group (spec 7.6): public tenant info, the app configuration, the platform switcher. */
import type { z } from 'zod';
import type { PublicTenant } from '../../schemas/tenant';
import type { SwitchAppEntry } from '../../schemas/org';
import type { AppConfig as AppConfigSchema } from './common-schemas';
import { guard } from './guard';
import { answerSchemas } from './guard-schemas';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

/** GET /config.json (spec 7.3): see ./common-schemas.ts. */
export type AppConfig = z.infer<typeof AppConfigSchema>;

// Checked by guards made from the answers' zod schemas: zod is not in a page's first load (issues 21, 28).
const appConfig = guard<AppConfig>(answerSchemas.appConfig);
const publicTenant = guard<z.output<typeof PublicTenant>>(answerSchemas.publicTenant);
const publicTenants = guard<z.output<typeof PublicTenant>[]>(answerSchemas.publicTenants);
const switchAppEntries = guard<SwitchAppEntry[]>(answerSchemas.switchAppEntries);

export const commonEndpoints = {
  config: { method: 'GET', url: '/config.json', name: 'common.config' },
  defaultTenant: { method: 'GET', url: '/api/v1/common/tenants/default/info', name: 'common.tenants.default' },
  tenants: { method: 'GET', url: '/api/v1/common/tenants/default/list', name: 'common.tenants.list' },
  switchAppConfig: { method: 'GET', url: '/api/v1/common/switch-app-config', name: 'common.switchAppConfig' },
} as const satisfies Record<string, Endpoint>;

const publicCall: Opts = { auth: false, tenantId: null, workspaceId: null };

/** The app configuration (not an envelope). Silent: start-up shows its own failure. */
export const getAppConfig = (opts?: Opts) =>
  call(appConfig, commonEndpoints.config, undefined, { ...publicCall, reaction: 'silent', ...opts });

/** The default tenant (no token needed; the sign-in page). */
export const getDefaultTenant = (opts?: Opts) => call(publicTenant, commonEndpoints.defaultTenant, undefined, { ...publicCall, ...opts });

/** Enabled tenants one can sign in to, the default first (no token needed). */
export const listLoginTenants = (opts?: Opts) => call(publicTenants, commonEndpoints.tenants, undefined, { ...publicCall, ...opts });

/** Entries of the platform switcher (console, portal, and system admin for admins). */
export const getSwitchAppConfig = (opts?: Opts) => call(switchAppEntries, commonEndpoints.switchAppConfig, undefined, opts);
