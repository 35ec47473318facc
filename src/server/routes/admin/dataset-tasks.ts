import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import { AdminDatasetTask, AdminTaskListQuery, AdminTaskParams } from '../../../../schemas/knowledge';
import type { Caller, ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { UUID_RE } from '../../context';
import { datasetDocuments, datasets, datasetTasks, tenants, workspaces } from '../../db/schema';
import { badRequest, notFoundOrForeign } from '../../errors';
import { cancelQueued, queuePositions, requestStop } from '../../knowledge/queue';

const tags = ['admin: dataset tasks'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/** The caller's reach: a super admin sees every tenant, a tenant admin its own. */
const reach = (caller: Caller): SQL | undefined => (caller.role === 'super_admin' ? undefined : eq(datasetTasks.tenantId, caller.tenantId));

async function taskFor(ctx: ServerContext, caller: Caller, taskId: string) {
  if (!UUID_RE.test(taskId)) throw notFoundOrForeign('Task', taskId);
  const [row] = await ctx.db
    .select({ id: datasetTasks.id })
    .from(datasetTasks)
    .where(and(eq(datasetTasks.id, taskId), reach(caller)));
  if (!row) throw notFoundOrForeign('Task', taskId);
  return row;
}

/**
 * Dataset (knowledge) task management of the system area (spec 7.4): every task with its tenant,
 * project space, base and unit; stop a running task, take a queued one out of the queue.
 */
export const adminDatasetTaskRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const admin = (req: Parameters<typeof requirePermission>[0]) => requirePermission(req, 'datasetTasks.manage');
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    admin(req);
  });

  app.get(
    '/',
    { schema: { tags, summary: 'Knowledge tasks, newest first (status filter); tenant admins see their tenant', querystring: AdminTaskListQuery, response: { 200: ok(page(AdminDatasetTask)) } } },
    async (req) => {
      const caller = admin(req);
      const q = req.query;
      const where = and(reach(caller), q.status ? eq(datasetTasks.status, q.status) : undefined);
      const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(datasetTasks).where(where);
      const rows = await ctx.db
        .select({
          task: datasetTasks,
          tenant: tenants.name,
          workspace: workspaces.name,
          dataset: datasets.name,
          document: datasetDocuments.name,
        })
        .from(datasetTasks)
        .innerJoin(tenants, eq(tenants.id, datasetTasks.tenantId))
        .innerJoin(workspaces, eq(workspaces.id, datasetTasks.workspaceId))
        .innerJoin(datasets, eq(datasets.id, datasetTasks.datasetId))
        .innerJoin(datasetDocuments, eq(datasetDocuments.id, datasetTasks.documentId))
        .where(where)
        .orderBy(desc(datasetTasks.createdAt), desc(datasetTasks.id))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      const positions = await queuePositions(ctx, rows.filter((r) => r.task.status === 'queued').map((r) => r.task.id));
      const items: AdminDatasetTask[] = rows.map((r) => ({
        id: r.task.id,
        task_type: r.task.type,
        status: r.task.status,
        progress: r.task.progress === null ? null : Math.round(r.task.progress * 1000) / 10,
        queue_position: positions.get(r.task.id) ?? null,
        tenant_name: r.tenant,
        workspace_name: r.workspace,
        dataset_name: r.dataset,
        document_name: r.document,
        created_at: r.task.createdAt.toISOString(),
      }));
      return done({ items, total: Number(total), page: q.page, page_size: q.page_size });
    },
  );

  app.post(
    '/task/:task_id/stop',
    { schema: { tags, summary: 'Stop a task (queued: leaves the queue; running: ends cancelled)', params: AdminTaskParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      const t = await taskFor(ctx, admin(req), req.params.task_id);
      if (!(await requestStop(ctx, t.id))) throw badRequest('The task has already ended');
      return done(null);
    },
  );

  app.post(
    '/task/:task_id/cancel-queue',
    { schema: { tags, summary: 'Take a queued task out of the queue', params: AdminTaskParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      const t = await taskFor(ctx, admin(req), req.params.task_id);
      if (!(await cancelQueued(ctx, t.id))) throw badRequest('The task is not waiting in the queue');
      return done(null);
    },
  );
};
