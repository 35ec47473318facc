import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { McpStdioCommand, OutboundAllowEntry } from '../../schemas/network-policy';

/** A comma- or space-separated list from the environment (an array passes as it is). */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : v), z.array(item)).default([]);

/** Server settings, read once from the environment. */
export const Settings = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(3000),
  dataDir: z.string().default('./.weft'),
  databaseUrl: z.string().optional(),
  /**
   * The embedded database's shared buffers (PostgreSQL's shared_buffers: a number and kB, MB or GB),
   * taken by the process at start. Searches of a large knowledge base read its indexes through
   * them: what does not fit is read from the data directory again (through the system's file cache,
   * which the process does not hold). PostgreSQL writes all of them at start, so each MB is resident
   * from then on: 16MB sizes an idle studio (issue 32: with `npm run bench:start` 16MB measured about
   * 18 MB less idle RSS than 32MB, which measured about 100 MB less than 128MB); the README says
   * when to raise it.
   */
  pgSharedBuffers: z.string().regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'a size such as 128MB or 1GB').default('16MB'),
  /**
   * The embedded database in a worker thread of its own (WEFT_PG_WORKER, default true): its
   * queries never take the event loop. false runs PGlite on the main thread, as before issue 34.
   */
  pgWorker: z.stringbool().default(true),
  /**
   * Memory, in MB, that vector search may keep: each searched unit's segment vectors, quantised (the
   * built-in embedding's take 276 bytes a segment). Searches whose vectors outgrow it, or all with
   * 0, run in the database instead (exact, or pgvector's HNSW index on a server that has one).
   */
  vectorCacheMb: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /**
   * Background jobs on pg-boss (src/server/jobs): how often an idle worker of this process asks the
   * database for knowledge tasks (ms; a task queued by this process starts at once), the lease of a
   * running task (s: a process that died loses its tasks to another after it, plus the maintenance
   * interval), how often pg-boss's maintenance runs (s, in one process at a time), and the tasks of
   * each type (normal, graphic, faq, index) this process runs at once. `jobsWork` false: this process
   * queues jobs but takes none (an API-only process beside worker processes).
   */
  jobsPollMs: z.coerce.number().int().min(500).max(60_000).default(2_000),
  jobsLeaseSeconds: z.coerce.number().int().min(2).max(3_600).default(60),
  jobsMaintenanceSeconds: z.coerce.number().int().min(1).max(3_600).default(30),
  knowledgeConcurrency: z.coerce.number().int().min(1).max(64).default(1),
  jobsWork: z.stringbool().default(true),
  /** Broadcast videos this process renders at once (each keeps ffmpeg and the frames thread busy). */
  renderConcurrency: z.coerce.number().int().min(1).max(16).default(1),
  adminUser: z.string().trim().min(2).max(64).default('admin'),
  adminPassword: z.string().min(8).max(128).optional(),
  /** Access-token lifetime in seconds. */
  accessTokenTtl: z.coerce.number().int().min(10).default(15 * 60),
  /** Refresh-token lifetime in seconds. */
  refreshTokenTtl: z.coerce.number().int().min(60).default(30 * 24 * 3600),
  /** Upload limits shown by the client (spec: templated). */
  uploadMaxCount: z.coerce.number().int().min(1).default(10),
  uploadMaxMb: z.coerce.number().min(1).default(50),
  /** GBI: how long one query of a data source may run (ms) before it is cancelled (issue 30). */
  gbiQueryTimeoutMs: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** Directory of the built client; served when present. */
  clientDir: z.string().default(path.resolve('dist')),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Deprecated (use outboundAllow): opens the private ranges (RFC 1918, CGNAT, unique local IPv6)
   * to every outbound channel; never loopback, link-local or cloud metadata. A warning at start.
   */
  httpAllowPrivate: z.stringbool().default(false),
  /**
   * Sign-in limits (security/login-limits.ts): failed sign-ins of one account from one address
   * before it is locked there; of one account from all addresses (each address counting with its
   * first `loginMaxFailures`); of one address on any accounts. Locks last `loginLockSeconds`, double
   * with each further failure, and stop growing at `loginMaxLockSeconds`.
   */
  loginMaxFailures: z.coerce.number().int().min(1).max(10_000).default(5),
  loginAccountMaxFailures: z.coerce.number().int().min(1).max(100_000).default(20),
  loginAddressMaxFailures: z.coerce.number().int().min(1).max(1_000_000).default(50),
  loginLockSeconds: z.coerce.number().int().min(1).max(86_400).default(60),
  loginMaxLockSeconds: z.coerce.number().int().min(1).max(86_400).default(900),
  /**
   * Fastify's trustProxy: whether the client address (the sign-in limits' address) is read from
   * X-Forwarded-For. Off by default: without a proxy that sets it, anyone could claim any address.
   * 'true' trusts every hop, a number that many hops, else a comma-separated list of proxy addresses
   * or CIDR ranges.
   */
  trustProxy: z
    .string()
    .trim()
    .optional()
    .transform((v): boolean | number | string => {
      if (v === undefined || v === '' || v === 'false') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) return Number(v);
      return v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .join(',');
    }),
  /**
   * The code sandbox (QuickJS in worker threads): workers, i.e. code runs at once in the whole
   * server. One is always kept for tenants that run nothing, so a tenant's own runs share the rest;
   * twice the cores (at least 4) by default, so that one tenant still runs several at once (code runs
   * are short, and the threads share the cores fairly).
   */
  sandboxWorkers: z.coerce.number().int().min(1).max(64).default(Math.max(4, 2 * os.availableParallelism())),
  /** Code runs one tenant may have at once (default: workers − 1, at least 1). */
  sandboxTenantConcurrency: z.coerce.number().int().min(1).max(64).optional(),
  /** Code runs one user may have at once (default: half the tenant's, rounded up). */
  sandboxUserConcurrency: z.coerce.number().int().min(1).max(64).optional(),
  /** Longest wait for a free sandbox, ms; past it the code node fails with SANDBOX-QUEUE-TIMEOUT. */
  sandboxQueueTimeoutMs: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** The longest a code node may run, ms: a node's own (longer) timeout is cut to it. */
  sandboxMaxTimeoutMs: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** Memory of one code run, MB: its whole QuickJS heap (WASM memory), at most 2048 (wasm32's module limit here). */
  sandboxMemoryMb: z.coerce.number().int().min(16).max(2048).default(128),
  /**
   * WEFT_OUTBOUND_ALLOW: the non-public destinations the server may connect to for users (host,
   * host:port, *.suffix, CIDR, CIDR:port; IPv6 in brackets), besides the super admin's list.
   */
  outboundAllow: list(OutboundAllowEntry),
  /** WEFT_MCP_STDIO_COMMANDS: the commands stdio MCP servers may start (exact names or paths). */
  mcpStdioCommands: list(McpStdioCommand),
  /**
   * Requests a minute one public-API key may make when the key sets no limit of its own
   * (security/rate-limit.ts: counted across every server process on the database).
   */
  apiRateLimit: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /**
   * WEFT_AUTH_MODE (spec 7.2): 'local' (account and password), 'sso' (the identity provider's
   * get-auth-URL and ticket) or 'keycloak' (a Keycloak realm): both single sign-on modes sign in
   * through an OpenID Connect provider (sso/oidc.ts), authorization code with PKCE, state and nonce.
   */
  authMode: z.enum(['local', 'sso', 'keycloak']).default('local'),
  /** WEFT_OIDC_ISSUER: the provider's issuer URL (discovery at {issuer}/.well-known/openid-configuration). */
  oidcIssuer: z.url({ protocol: /^https?$/ }).optional(),
  /** WEFT_KEYCLOAK_URL and WEFT_KEYCLOAK_REALM: the issuer is then {url}/realms/{realm}. */
  keycloakUrl: z.url({ protocol: /^https?$/ }).optional(),
  keycloakRealm: z.string().trim().min(1).max(200).optional(),
  /** WEFT_OIDC_CLIENT_ID, WEFT_OIDC_CLIENT_SECRET (optional: a public client; PKCE is always used). */
  oidcClientId: z.string().trim().min(1).max(500).optional(),
  oidcClientSecret: z.string().min(1).max(2000).optional(),
  oidcScopes: z.string().trim().min(1).default('openid profile email'),
  /** The claim naming the user's tenant (its id or its name); a user without it cannot sign in. */
  oidcTenantClaim: z.string().trim().min(1).default('weft_tenant'),
  /** The claim naming the user's system role ('tenant_admin' or 'user'; anything else is 'user'). */
  oidcRoleClaim: z.string().trim().min(1).default('weft_role'),
  /** WEFT_OIDC_PROVIDER_NAME: shown on the login page's button ("Sign in with …"). */
  oidcProviderName: z.string().trim().max(64).default(''),
  /** WEFT_SSO_APP_CODE: the appCode of the get-auth-URL call (spec 7.2), sent to the provider as a parameter. */
  ssoAppCode: z.string().trim().min(1).max(100).default('weft'),
  /**
   * WEFT_PUBLIC_URL: the address browsers reach this server at (the provider's redirect URI is
   * {publicUrl}/api/v1/common/sso/callback); by default the request's own scheme and host.
   */
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * WEFT_LOCAL_LOGIN in the single sign-on modes: 'super_admin' keeps account and password sign-in
   * for super admins only (the break-glass path when the provider is down), 'off' turns it off.
   */
  localLogin: z.enum(['super_admin', 'off']).default('super_admin'),
  /**
   * Verification-code sign-in (login/codes.ts). WEFT_SMTP_URL (smtp:// or smtps://, user and
   * password in it) sends the email codes, from WEFT_SMTP_FROM; without it the email tab is hidden.
   */
  smtpUrl: z.url({ protocol: /^smtps?$/ }).optional(),
  smtpFrom: z.string().trim().min(3).max(200).default('Weft <no-reply@weft.local>'),
  /**
   * WEFT_SMS_SENDER: 'off' (the phone tab hidden), 'log' (the code written to the server's log: for
   * trying the studio out, never for real users) or 'http' (a JSON POST to WEFT_SMS_HTTP_URL, through
   * the outbound network policy, with WEFT_SMS_HTTP_TOKEN as a bearer token when set).
   */
  smsSender: z.enum(['off', 'log', 'http']).default('off'),
  smsHttpUrl: z.url({ protocol: /^https?$/ }).optional(),
  smsHttpToken: z.string().min(1).max(2000).optional(),
  /** How long a code signs in (5 min), how soon another may be sent to the same phone or email, wrong tries a code allows. */
  loginCodeTtlSeconds: z.coerce.number().int().min(30).max(3600).default(300),
  loginCodeResendSeconds: z.coerce.number().int().min(1).max(3600).default(60),
  loginCodeMaxAttempts: z.coerce.number().int().min(1).max(100).default(5),
  /**
   * Codes sent to one phone or email from one address before sending there is locked (then as the
   * sign-in limits: 1 min, doubling); to it from all addresses is twice that; from one address to any.
   */
  loginCodeTargetMaxSends: z.coerce.number().int().min(1).max(1000).default(5),
  loginCodeAddressMaxSends: z.coerce.number().int().min(1).max(100_000).default(20),
}).refine((s) => s.loginMaxLockSeconds >= s.loginLockSeconds, {
  message: 'WEFT_LOGIN_MAX_LOCK_SECONDS must be at least WEFT_LOGIN_LOCK_SECONDS',
  path: ['loginMaxLockSeconds'],
}).refine((s) => s.smsSender !== 'http' || s.smsHttpUrl !== undefined, {
  message: 'WEFT_SMS_SENDER http needs WEFT_SMS_HTTP_URL',
  path: ['smsHttpUrl'],
}).refine((s) => s.authMode === 'local' || (s.oidcClientId !== undefined && (s.authMode === 'keycloak' ? s.keycloakUrl && s.keycloakRealm : s.oidcIssuer || (s.keycloakUrl && s.keycloakRealm))), {
  message: 'WEFT_AUTH_MODE sso needs WEFT_OIDC_CLIENT_ID and WEFT_OIDC_ISSUER (or WEFT_KEYCLOAK_URL and WEFT_KEYCLOAK_REALM); keycloak needs WEFT_OIDC_CLIENT_ID, WEFT_KEYCLOAK_URL and WEFT_KEYCLOAK_REALM',
  path: ['authMode'],
});
export type Settings = z.infer<typeof Settings>;

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return Settings.parse({
    host: env.WEFT_HOST || env.HOST || undefined,
    port: env.WEFT_PORT || env.PORT || undefined,
    dataDir: env.WEFT_DATA_DIR || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    pgSharedBuffers: env.WEFT_PG_SHARED_BUFFERS || undefined,
    pgWorker: env.WEFT_PG_WORKER || undefined,
    vectorCacheMb: env.WEFT_VECTOR_CACHE_MB || undefined,
    jobsPollMs: env.WEFT_JOBS_POLL_MS || undefined,
    jobsLeaseSeconds: env.WEFT_JOBS_LEASE_SECONDS || undefined,
    jobsMaintenanceSeconds: env.WEFT_JOBS_MAINTENANCE_SECONDS || undefined,
    knowledgeConcurrency: env.WEFT_KNOWLEDGE_CONCURRENCY || undefined,
    jobsWork: env.WEFT_JOBS_WORK || undefined,
    renderConcurrency: env.WEFT_RENDER_CONCURRENCY || undefined,
    adminUser: env.WEFT_ADMIN_USER || undefined,
    adminPassword: env.WEFT_ADMIN_PASSWORD || undefined,
    accessTokenTtl: env.WEFT_ACCESS_TOKEN_TTL || undefined,
    refreshTokenTtl: env.WEFT_REFRESH_TOKEN_TTL || undefined,
    uploadMaxCount: env.WEFT_UPLOAD_MAX_COUNT || undefined,
    uploadMaxMb: env.WEFT_UPLOAD_MAX_MB || undefined,
    gbiQueryTimeoutMs: env.WEFT_GBI_QUERY_TIMEOUT_MS || undefined,
    clientDir: env.WEFT_CLIENT_DIR || undefined,
    logLevel: env.WEFT_LOG_LEVEL || undefined,
    httpAllowPrivate: env.WEFT_HTTP_ALLOW_PRIVATE || undefined,
    loginMaxFailures: env.WEFT_LOGIN_MAX_FAILURES || undefined,
    loginAccountMaxFailures: env.WEFT_LOGIN_ACCOUNT_MAX_FAILURES || undefined,
    loginAddressMaxFailures: env.WEFT_LOGIN_ADDRESS_MAX_FAILURES || undefined,
    loginLockSeconds: env.WEFT_LOGIN_LOCK_SECONDS || undefined,
    loginMaxLockSeconds: env.WEFT_LOGIN_MAX_LOCK_SECONDS || undefined,
    trustProxy: env.WEFT_TRUST_PROXY || undefined,
    sandboxWorkers: env.WEFT_SANDBOX_WORKERS || undefined,
    sandboxTenantConcurrency: env.WEFT_SANDBOX_TENANT_CONCURRENCY || undefined,
    sandboxUserConcurrency: env.WEFT_SANDBOX_USER_CONCURRENCY || undefined,
    sandboxQueueTimeoutMs: env.WEFT_SANDBOX_QUEUE_TIMEOUT_MS || undefined,
    sandboxMaxTimeoutMs: env.WEFT_SANDBOX_MAX_TIMEOUT_MS || undefined,
    sandboxMemoryMb: env.WEFT_SANDBOX_MEMORY_MB || undefined,
    outboundAllow: env.WEFT_OUTBOUND_ALLOW || undefined,
    mcpStdioCommands: env.WEFT_MCP_STDIO_COMMANDS || undefined,
    apiRateLimit: env.WEFT_API_RATE_LIMIT || undefined,
    authMode: env.WEFT_AUTH_MODE || undefined,
    oidcIssuer: env.WEFT_OIDC_ISSUER || undefined,
    keycloakUrl: env.WEFT_KEYCLOAK_URL || undefined,
    keycloakRealm: env.WEFT_KEYCLOAK_REALM || undefined,
    oidcClientId: env.WEFT_OIDC_CLIENT_ID || undefined,
    oidcClientSecret: env.WEFT_OIDC_CLIENT_SECRET || undefined,
    oidcScopes: env.WEFT_OIDC_SCOPES || undefined,
    oidcTenantClaim: env.WEFT_OIDC_TENANT_CLAIM || undefined,
    oidcRoleClaim: env.WEFT_OIDC_ROLE_CLAIM || undefined,
    oidcProviderName: env.WEFT_OIDC_PROVIDER_NAME || undefined,
    ssoAppCode: env.WEFT_SSO_APP_CODE || undefined,
    publicUrl: env.WEFT_PUBLIC_URL || undefined,
    localLogin: env.WEFT_LOCAL_LOGIN || undefined,
    smtpUrl: env.WEFT_SMTP_URL || undefined,
    smtpFrom: env.WEFT_SMTP_FROM || undefined,
    smsSender: env.WEFT_SMS_SENDER || undefined,
    smsHttpUrl: env.WEFT_SMS_HTTP_URL || undefined,
    smsHttpToken: env.WEFT_SMS_HTTP_TOKEN || undefined,
    loginCodeTtlSeconds: env.WEFT_LOGIN_CODE_TTL_SECONDS || undefined,
    loginCodeResendSeconds: env.WEFT_LOGIN_CODE_RESEND_SECONDS || undefined,
    loginCodeMaxAttempts: env.WEFT_LOGIN_CODE_MAX_ATTEMPTS || undefined,
    loginCodeTargetMaxSends: env.WEFT_LOGIN_CODE_TARGET_MAX_SENDS || undefined,
    loginCodeAddressMaxSends: env.WEFT_LOGIN_CODE_ADDRESS_MAX_SENDS || undefined,
  });
}
