/**
 * URL units refreshed every `update_frequency` days: their `next_refresh_at` is set when an ingestion
 * succeeds; a periodic check enqueues a `normal` task for each unit that is due (the task replaces its
 * segments). Units of any tenant, once each: the due row is moved forward in the same statement, so two
 * processes never both enqueue it. The check is a scheduled job (src/server/jobs/passes.ts).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { datasetDocuments, datasets } from '../db/schema';
import { enqueueTask, rowsOf } from './queue';

/** Enqueues the refresh of every URL unit that is due; answers how many. */
export async function refreshDueUnits(ctx: Pick<ServerContext, 'db'>, now = new Date()): Promise<number> {
  // Due, enabled, not already being processed; pushed an hour ahead at once (the task sets the real next time).
  const due = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`
      update dataset_documents d set next_refresh_at = ${now.toISOString()}::timestamptz + interval '1 hour'
      where d.source_url is not null and d.next_refresh_at is not null and d.next_refresh_at <= ${now.toISOString()}::timestamptz
        and d.enabled and d.status in ('completed', 'failed')
        and not exists (select 1 from dataset_tasks t where t.document_id = d.id and t.status in ('queued', 'running'))
      returning d.id`),
  );
  if (!due.length) return 0;
  const rows = await ctx.db
    .select({ doc: datasetDocuments, workspaceId: datasets.workspaceId })
    .from(datasetDocuments)
    .innerJoin(datasets, eq(datasets.id, datasetDocuments.datasetId))
    .where(inArray(datasetDocuments.id, due.map((d) => d.id)));
  for (const { doc, workspaceId } of rows) {
    await enqueueTask(ctx, { tenantId: doc.tenantId, workspaceId, datasetId: doc.datasetId, documentId: doc.id, type: 'normal', createdBy: doc.createdBy });
  }
  return rows.length;
}
