import os from 'node:os';
import { countDistinct, sql } from 'drizzle-orm';
import type { SystemResource } from '../../../schemas/system-resource';
import type { ServerContext } from '../context';
import { datasetTasks, files, modelProviderCredentials } from '../db/schema';
import { rowsOf } from '../knowledge/queue';

/**
 * What System › Resources shows (super admins). Each figure is one cheap read: database and file
 * sizes from PostgreSQL and the files table (not a walk of the data directory), the knowledge queue
 * from dataset_tasks, the sandbox's load from this process, memory and uptime of this process.
 */
export async function systemResource(ctx: ServerContext): Promise<SystemResource> {
  const num = (v: unknown) => Number(v ?? 0) || 0;
  const [db] = rowsOf<{ size: unknown }>(await ctx.db.execute(sql`select pg_database_size(current_database()) as size`));
  const [stored] = await ctx.db.select({ count: sql<number>`count(*)`, size: sql<number>`coalesce(sum(${files.size}), 0)` }).from(files);
  const [queue] = await ctx.db
    .select({
      queued: sql<number>`count(*) filter (where ${datasetTasks.status} = 'queued')`,
      running: sql<number>`count(*) filter (where ${datasetTasks.status} = 'running')`,
      failed: sql<number>`count(*) filter (where ${datasetTasks.status} = 'failed')`,
      busy: sql<number>`count(distinct ${datasetTasks.lockedBy}) filter (where ${datasetTasks.status} = 'running' and ${datasetTasks.lockedUntil} > now())`,
    })
    .from(datasetTasks);
  const providers = await ctx.db
    .select({ provider: modelProviderCredentials.provider, tenants: countDistinct(modelProviderCredentials.tenantId) })
    .from(modelProviderCredentials)
    .groupBy(modelProviderCredentials.provider)
    .orderBy(modelProviderCredentials.provider);
  await ctx.plugins.sync();
  const packages = ctx.plugins.packages();
  const memory = process.memoryUsage();
  return {
    database: { kind: ctx.exclusiveDb ? 'embedded' : 'server', size_bytes: num(db?.size) },
    files: { count: num(stored?.count), size_bytes: num(stored?.size) },
    knowledge_queue: { queued: num(queue?.queued), running: num(queue?.running), failed: num(queue?.failed), busy_workers: num(queue?.busy) },
    sandbox: { running: ctx.sandbox.load.running, waiting: ctx.sandbox.load.waiting, workers: ctx.sandbox.limits.maxWorkers },
    model_providers: providers.map((p) => ({ provider: p.provider, tenants: num(p.tenants) })),
    plugins: { installed: packages.length, active: packages.filter((p) => p.state === 'active').length, failed: packages.filter((p) => p.state === 'failed').length },
    process: {
      uptime_seconds: Math.round(process.uptime()),
      rss_bytes: memory.rss,
      heap_used_bytes: memory.heapUsed,
      heap_total_bytes: memory.heapTotal,
      node_version: process.version,
      cpus: os.availableParallelism?.() ?? os.cpus().length,
      load_average: os.loadavg().map((n) => Math.round(n * 100) / 100),
      system_memory_bytes: os.totalmem(),
      system_free_bytes: os.freemem(),
    },
    checked_at: new Date().toISOString(),
  };
}
