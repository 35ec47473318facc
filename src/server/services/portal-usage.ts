import { and, asc, count, desc, eq, isNull, ne } from 'drizzle-orm';
import type { Caller, ServerContext } from '../context';
import { UUID_RE } from '../context';
import { apps, nodeExecutions, runs } from '../db/schema';
import { notFoundOrForeign } from '../errors';
import type { UsageRecord, WebRun } from '../../../schemas/portal';

/**
 * What the portal shows of runs: the user's usage records (every run they started, from every
 * source, single-node runs left out; personal center, page size 10) and their workflow runs of an
 * app with each run's steps (titles and states only: end users do not see a node's data). Always the
 * caller's own runs in the caller's tenant; anyone else's run answers VALIDATION-1000. Readable after
 * the user lost access to the app (their own history).
 */

const usageOf = (r: { promptTokens: number; completionTokens: number; totalTokens: number }) => ({
  promptTokens: r.promptTokens,
  completionTokens: r.completionTokens,
  totalTokens: r.totalTokens,
});

const own = (caller: Caller) => and(eq(runs.tenantId, caller.tenantId), eq(runs.createdBy, caller.userId));

/** GET /usage-records (and the legacy /usage-record/list): newest first. */
export async function listUsageRecords(ctx: ServerContext, caller: Caller, q: { app_id?: string; page: number; page_size: number }) {
  const where = and(own(caller), ne(runs.source, 'single-node'), q.app_id ? eq(runs.appId, q.app_id) : undefined);
  const [{ total }] = await ctx.db.select({ total: count() }).from(runs).where(where);
  const rows = await ctx.db
    .select({ r: runs, appName: apps.name, appMode: apps.type })
    .from(runs)
    .innerJoin(apps, eq(apps.id, runs.appId))
    .where(where)
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  const list = rows.map(
    ({ r, appName, appMode }): UsageRecord => ({
      id: r.id,
      app_id: r.appId,
      app_name: appName,
      app_mode: appMode,
      source: r.source,
      conversation_id: r.conversationId,
      status: r.status,
      query: r.query,
      usage: usageOf(r),
      elapsed_ms: r.elapsedMs,
      created_at: r.createdAt.toISOString(),
    }),
  );
  return { list, total: Number(total), page: q.page, page_size: q.page_size };
}

type RunRow = typeof runs.$inferSelect;

function toWebRun(r: RunRow, steps: WebRun['steps']): WebRun {
  return {
    id: r.id,
    app_id: r.appId,
    status: r.status,
    inputs: r.inputs,
    outputs: r.outputs,
    error: r.error ?? null,
    elapsed_ms: r.elapsedMs,
    usage: usageOf(r),
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
    steps,
  };
}

const portalRunsOf = (caller: Caller, appId: string) => and(own(caller), eq(runs.appId, appId), eq(runs.source, 'portal'));

/** GET /portal/{portal_id}/runs: the user's portal runs of the app, newest first (steps left out of the list). */
export async function listWebRuns(ctx: ServerContext, caller: Caller, appId: string, q: { page: number; page_size: number }) {
  if (!UUID_RE.test(appId)) throw notFoundOrForeign('App', appId);
  const where = portalRunsOf(caller, appId);
  const [{ total }] = await ctx.db.select({ total: count() }).from(runs).where(where);
  const rows = await ctx.db
    .select()
    .from(runs)
    .where(where)
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return { list: rows.map((r) => toWebRun(r, [])), total: Number(total), page: q.page, page_size: q.page_size };
}

/** GET /portal/{portal_id}/runs/{run_id}: one of the user's runs with its top-level steps in order. */
export async function getWebRun(ctx: ServerContext, caller: Caller, appId: string, runId: string): Promise<WebRun> {
  if (!UUID_RE.test(appId) || !UUID_RE.test(runId)) throw notFoundOrForeign('Run', runId);
  const [row] = await ctx.db
    .select()
    .from(runs)
    .where(and(eq(runs.id, runId), portalRunsOf(caller, appId)));
  if (!row) throw notFoundOrForeign('Run', runId);
  const nodes = await ctx.db
    .select({ nodeId: nodeExecutions.nodeId, title: nodeExecutions.title, kind: nodeExecutions.kind, status: nodeExecutions.status, elapsedMs: nodeExecutions.elapsedMs })
    .from(nodeExecutions)
    .where(and(eq(nodeExecutions.runId, row.id), isNull(nodeExecutions.parentId)))
    .orderBy(asc(nodeExecutions.seq));
  return toWebRun(
    row,
    nodes.map((n) => ({ node_id: n.nodeId, title: n.title, kind: n.kind, status: n.status, elapsed_ms: n.elapsedMs })),
  );
}
