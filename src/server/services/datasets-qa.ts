import { and, desc, eq } from 'drizzle-orm';
import type { QaGeneration } from '../../../schemas/knowledge';
import type { ServerContext } from '../context';
import { datasetTasks } from '../db/schema';
import { badRequest } from '../errors';
import { enqueueTask, queuePosition } from '../knowledge/queue';
import { assertCanEdit, assertCanRead, loadDocument } from './datasets';
import { getDefault } from './models';
import type { Scope } from './workspace-resources';

/**
 * Q&A generation of a unit (spec 3 "add Q&A pairs", issue 7): a `faq` task on the knowledge queue in
 * which the tenant's default chat model writes Q&A pairs from the unit's segments
 * (../knowledge/handlers.ts faqHandler). Started by an editor once the unit's vector analysis
 * succeeded and the tenant has a default chat model; stopped like any task (tasks/{task_id}/stop).
 */

type TaskRow = typeof datasetTasks.$inferSelect;

const ACTIVE = ['queued', 'running', 'cancelling'];

async function latestTask(ctx: ServerContext, documentId: string): Promise<TaskRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(datasetTasks)
    .where(and(eq(datasetTasks.documentId, documentId), eq(datasetTasks.type, 'faq')))
    .orderBy(desc(datasetTasks.createdAt), desc(datasetTasks.id))
    .limit(1);
  return row;
}

async function toView(ctx: ServerContext, t: TaskRow): Promise<QaGeneration> {
  return {
    task_id: t.id,
    status: t.status,
    progress: t.progress === null ? null : Math.round(t.progress * 1000) / 10,
    queue_position: t.status === 'queued' ? await queuePosition(ctx, t.id) : null,
    error: t.error,
    created_at: t.createdAt.toISOString(),
    finished_at: t.finishedAt ? t.finishedAt.toISOString() : null,
  };
}

/** The unit's latest Q&A generation, or null when none was started. */
export async function qaGeneration(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<QaGeneration | null> {
  await assertCanRead(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  const t = await latestTask(ctx, doc.id);
  return t ? toView(ctx, t) : null;
}

/** Queues a Q&A generation of the unit (answers the one already queued or running, if any). */
export async function startQaGeneration(ctx: ServerContext, s: Scope, datasetId: string, documentId: string): Promise<QaGeneration> {
  await assertCanEdit(ctx, s);
  const doc = await loadDocument(ctx, s, datasetId, documentId);
  if (doc.status !== 'completed') throw badRequest('Q&A generation needs the unit’s vector analysis to succeed first');
  const current = await latestTask(ctx, doc.id);
  if (current && ACTIVE.includes(current.status)) return toView(ctx, current);
  if (!(await getDefault(ctx, doc.tenantId, 'llm'))) {
    throw badRequest('Q&A generation needs a default chat model (LLM) in this tenant; set one in model management');
  }
  const task = await enqueueTask(ctx, { tenantId: doc.tenantId, workspaceId: s.workspaceId, datasetId: doc.datasetId, documentId: doc.id, type: 'faq', createdBy: s.caller.userId });
  return toView(ctx, task);
}
