import { and, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { tools, toolFunctions } from '../db/schema';
import { workflowToolVersion } from './workflow-version';
import type { ParamRow } from '../../../schemas/parameter';
import { startFieldRows, WORKFLOW_FUNCTION } from './workflow';

/**
 * A workflow tool's parameters follow the version it runs (./workflow-version.ts: the distributed
 * one, or the latest published): when that version's start form differs, the `run` function's rows
 * are rewritten from it (on read, so the detail never shows stale inputs). Draft edits do not show
 * until the app is published (and, for a distributed tool, the distribution moved).
 */
export async function syncWorkflowParams(ctx: ServerContext, toolId: string, appId: string): Promise<void> {
  const [tool] = await ctx.db.select({ tenantId: tools.tenantId, workspaceId: tools.workspaceId }).from(tools).where(eq(tools.id, toolId));
  if (!tool) return;
  const { version } = await workflowToolVersion(ctx, tool, toolId, appId);
  if (!version) return;
  const rows: ParamRow[] = startFieldRows(version.document);
  const [fn] = await ctx.db.select().from(toolFunctions).where(and(eq(toolFunctions.toolId, toolId), eq(toolFunctions.name, WORKFLOW_FUNCTION)));
  if (!fn || JSON.stringify(fn.params) === JSON.stringify(rows)) return;
  await ctx.db.update(toolFunctions).set({ params: rows, updatedAt: new Date() }).where(eq(toolFunctions.id, fn.id));
}
