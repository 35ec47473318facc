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
  /**
   * Deprecated (use outboundAllow): opens the private ranges (RFC 1918, CGNAT, unique local IPv6)
   * to every outbound channel; never loopback, link-local or cloud metadata. A warning at start.
   */
  httpAllowPrivate: z.stringbool().default(false),
  /**
   * WEFT_OUTBOUND_ALLOW: the non-public destinations the server may connect to for users (host,
   * host:port, *.suffix, CIDR, CIDR:port; IPv6 in brackets), besides the super admin's list.
   */
  outboundAllow: list(OutboundAllowEntry),
  /** WEFT_MCP_STDIO_COMMANDS: the commands stdio MCP servers may start (exact names or paths). */
  mcpStdioCommands: list(McpStdioCommand),
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
    outboundAllow: env.WEFT_OUTBOUND_ALLOW || undefined,
    mcpStdioCommands: env.WEFT_MCP_STDIO_COMMANDS || undefined,
  });
}
