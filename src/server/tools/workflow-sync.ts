import { and, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { appDrafts, toolFunctions } from '../db/schema';
import type { ParamRow } from '../../../schemas/parameter';
import { startFieldRows, WORKFLOW_FUNCTION } from './workflow';

/**
 * A workflow tool's parameters follow its app: when the app's start form changed since, the `run`
 * function's rows are rewritten from it (on read, so the detail never shows stale inputs).
 */
export async function syncWorkflowParams(ctx: ServerContext, toolId: string, appId: string): Promise<void> {
  const [draft] = await ctx.db.select({ document: appDrafts.document }).from(appDrafts).where(eq(appDrafts.appId, appId));
  if (!draft) return;
  const rows: ParamRow[] = startFieldRows(draft.document);
  const [fn] = await ctx.db.select().from(toolFunctions).where(and(eq(toolFunctions.toolId, toolId), eq(toolFunctions.name, WORKFLOW_FUNCTION)));
  if (!fn || JSON.stringify(fn.params) === JSON.stringify(rows)) return;
  await ctx.db.update(toolFunctions).set({ params: rows, updatedAt: new Date() }).where(eq(toolFunctions.id, fn.id));
}
