import { z } from 'zod';

/**
 * System › Resources (`/operation/system/resource`, super admins): what this server holds and how
 * busy it is, read when asked. Sizes in bytes, times in seconds. Counts over every tenant.
 */
export const SystemResource = z.object({
  database: z.object({
    /** `embedded` (PGlite in the process) or `server` (DATABASE_URL). */
    kind: z.enum(['embedded', 'server']),
    size_bytes: z.number(),
  }),
  files: z.object({ count: z.number(), size_bytes: z.number() }),
  knowledge_queue: z.object({
    queued: z.number(),
    running: z.number(),
    failed: z.number(),
    /** Server processes working on a task now (holding a live lease). */
    busy_workers: z.number(),
  }),
  sandbox: z.object({ running: z.number(), waiting: z.number(), workers: z.number() }),
  /** Model providers with credentials, and in how many tenants. */
  model_providers: z.array(z.object({ provider: z.string(), tenants: z.number() })),
  plugins: z.object({ installed: z.number(), active: z.number(), failed: z.number() }),
  process: z.object({
    uptime_seconds: z.number(),
    rss_bytes: z.number(),
    heap_used_bytes: z.number(),
    heap_total_bytes: z.number(),
    node_version: z.string(),
    cpus: z.number(),
    load_average: z.array(z.number()),
    system_memory_bytes: z.number(),
    system_free_bytes: z.number(),
  }),
  checked_at: z.string(),
});
export type SystemResource = z.infer<typeof SystemResource>;
