import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** Server settings, read once from the environment. */
export const Settings = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(3000),
  dataDir: z.string().default('./.weft'),
  databaseUrl: z.string().optional(),
  /**
   * The embedded database's shared buffers (PostgreSQL's shared_buffers: a number and kB, MB or GB),
   * taken by the process at start. Searches of a large knowledge base read its indexes through
   * them: what does not fit is read from the data directory again on every search.
   */
  pgSharedBuffers: z.string().regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'a size such as 128MB or 1GB').default('128MB'),
  /**
   * Memory, in MB, that vector search may keep: each searched unit's segment vectors, quantised (the
   * built-in embedding's take 276 bytes a segment). Searches whose vectors outgrow it, or all with
   * 0, run in the database instead (exact, or pgvector's HNSW index on a server that has one).
   */
  vectorCacheMb: z.coerce.number().int().min(0).max(1_000_000).default(256),
  adminUser: z.string().trim().min(2).max(64).default('admin'),
  adminPassword: z.string().min(8).max(128).optional(),
  /** Access-token lifetime in seconds. */
  accessTokenTtl: z.coerce.number().int().min(10).default(15 * 60),
  /** Refresh-token lifetime in seconds. */
  refreshTokenTtl: z.coerce.number().int().min(60).default(30 * 24 * 3600),
  /** Upload limits shown by the client (spec: templated). */
  uploadMaxCount: z.coerce.number().int().min(1).default(10),
  uploadMaxMb: z.coerce.number().min(1).default(50),
  /** Directory of the built client; served when present. */
  clientDir: z.string().default(path.resolve('dist')),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Let nodes and tools request private, loopback and link-local addresses (intranet deployments). */
  httpAllowPrivate: z.stringbool().default(false),
  /**
   * The code sandbox (QuickJS in worker threads): workers, i.e. code runs at once in the whole
   * server. One is always kept for tenants that run nothing, so a tenant's own runs share the rest.
   */
  sandboxWorkers: z.coerce.number().int().min(1).max(64).default(Math.max(2, os.availableParallelism())),
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
});
export type Settings = z.infer<typeof Settings>;

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return Settings.parse({
    host: env.WEFT_HOST || env.HOST || undefined,
    port: env.WEFT_PORT || env.PORT || undefined,
    dataDir: env.WEFT_DATA_DIR || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    pgSharedBuffers: env.WEFT_PG_SHARED_BUFFERS || undefined,
    vectorCacheMb: env.WEFT_VECTOR_CACHE_MB || undefined,
    adminUser: env.WEFT_ADMIN_USER || undefined,
    adminPassword: env.WEFT_ADMIN_PASSWORD || undefined,
    accessTokenTtl: env.WEFT_ACCESS_TOKEN_TTL || undefined,
    refreshTokenTtl: env.WEFT_REFRESH_TOKEN_TTL || undefined,
    uploadMaxCount: env.WEFT_UPLOAD_MAX_COUNT || undefined,
    uploadMaxMb: env.WEFT_UPLOAD_MAX_MB || undefined,
    clientDir: env.WEFT_CLIENT_DIR || undefined,
    logLevel: env.WEFT_LOG_LEVEL || undefined,
    httpAllowPrivate: env.WEFT_HTTP_ALLOW_PRIVATE || undefined,
    sandboxWorkers: env.WEFT_SANDBOX_WORKERS || undefined,
    sandboxTenantConcurrency: env.WEFT_SANDBOX_TENANT_CONCURRENCY || undefined,
    sandboxUserConcurrency: env.WEFT_SANDBOX_USER_CONCURRENCY || undefined,
    sandboxQueueTimeoutMs: env.WEFT_SANDBOX_QUEUE_TIMEOUT_MS || undefined,
    sandboxMaxTimeoutMs: env.WEFT_SANDBOX_MAX_TIMEOUT_MS || undefined,
    sandboxMemoryMb: env.WEFT_SANDBOX_MEMORY_MB || undefined,
  });
}
