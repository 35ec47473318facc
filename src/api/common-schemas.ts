/**
 * The answers of the COMMON group's calls (./common.ts), as zod schemas, loaded with the first call:
 * zod stays out of a page's first load (issue 21).
 */
import { z } from 'zod';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { SwitchAppEntry } from '../../schemas/org';
import { PublicTenant } from '../../schemas/tenant';

export { PublicTenant };

/**
 * GET /config.json (spec 7.3), read before the app renders. Only the local auth mode exists so far
 * (spec 7.2 mode 1). Missing fields take the spec's defaults (all-zero tenant, 5 s refresh leeway).
 */
export const AppConfig = z.object({
  authMode: z.enum(['local', 'sso', 'keycloak']).default('local'),
  /**
   * Single sign-on modes (2 and 3): the provider's name for the login page's button, the appCode of
   * the get-auth-URL call, and whether account and password stay for super admins (break-glass).
   */
  sso: z.object({ providerName: z.string().default(''), appCode: z.string().default('weft'), localLogin: z.enum(['super_admin', 'off']).default('super_admin') }).optional(),
  /** Verification-code sign-in: the channels the server can send codes by (the login page's phone and email tabs). */
  codeLogin: z.array(z.enum(['email', 'sms'])).default([]),
  defaultTenantId: z.string().min(1).default(DEFAULT_TENANT_ID),
  upload: z.object({ maxCount: z.number().int().positive(), maxMb: z.number().positive() }),
  tokenRefreshLeewaySeconds: z.number().min(0).default(5),
  /** The longest code runs on this server (WEFT_SANDBOX_MAX_TIMEOUT_MS): a code node's timeout is cut to it. */
  sandbox: z.object({ maxTimeoutSeconds: z.number().int().positive() }).default({ maxTimeoutSeconds: 60 }),
  version: z.string().default(''),
});

export const PublicTenants = z.array(PublicTenant);
export const SwitchAppEntries = z.array(SwitchAppEntry);
