import { and, eq, inArray, sql } from 'drizzle-orm';
import type { McpExposure } from '../../../schemas/app-api';
import { requireMembership, type Caller, type ServerContext } from '../context';
import { apps, appVersions, mcpExposures } from '../db/schema';
import { badRequest } from '../errors';

/**
 * A project space's MCP endpoint (schemas/app-api.ts McpExposure): which of its published workflow
 * apps are offered as tools at `/v1/mcp/{workspace_id}`. Every member reads it; only the owner
 * changes it. An app offered must be a workflow of this space with a published version; an app that
 * later goes (deleted, inactive) simply stops being offered.
 */

export const mcpEndpoint = (workspaceId: string) => `/v1/mcp/${workspaceId}`;

async function read(ctx: ServerContext, workspaceId: string): Promise<McpExposure> {
  const [row] = await ctx.db.select().from(mcpExposures).where(eq(mcpExposures.workspaceId, workspaceId));
  return { enabled: row?.enabled ?? false, app_ids: row?.appIds ?? [], endpoint: mcpEndpoint(workspaceId) };
}

export async function getExposure(ctx: ServerContext, caller: Caller, workspaceId: string): Promise<McpExposure> {
  await requireMembership(ctx.db, caller, workspaceId);
  return read(ctx, workspaceId);
}

/** The owner: on or off, and the apps offered (each a published workflow of this space; otherwise VALIDATION-1000). */
export async function putExposure(ctx: ServerContext, caller: Caller, workspaceId: string, body: { enabled: boolean; app_ids: string[] }): Promise<McpExposure> {
  await requireMembership(ctx.db, caller, workspaceId, ['owner']);
  const ids = [...new Set(body.app_ids)];
  const ok = ids.length
    ? await ctx.db
        .select({ id: apps.id })
        .from(apps)
        .where(
          and(
            inArray(apps.id, ids),
            eq(apps.workspaceId, workspaceId),
            eq(apps.tenantId, caller.tenantId),
            eq(apps.type, 'workflow'),
            sql`exists (select 1 from ${appVersions} v where v.app_id = ${apps.id})`,
          ),
        )
    : [];
  const good = new Set(ok.map((r) => r.id));
  const issues = ids.map((id, i) => ({ id, i })).filter((x) => !good.has(x.id)).map((x) => ({ path: `body/app_ids/${x.i}`, message: 'is not a published workflow app of this project space' }));
  if (issues.length) throw badRequest(`Parameter error: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
  const values = { workspaceId, tenantId: caller.tenantId, enabled: body.enabled, appIds: ids, updatedBy: caller.userId, updatedAt: new Date() };
  await ctx.db.insert(mcpExposures).values(values).onConflictDoUpdate({ target: mcpExposures.workspaceId, set: { enabled: values.enabled, appIds: values.appIds, updatedBy: values.updatedBy, updatedAt: values.updatedAt } });
  return read(ctx, workspaceId);
}

/** What the MCP endpoint offers now (enabled, and the apps chosen), for the endpoint itself. */
export async function offeredApps(ctx: ServerContext, workspaceId: string): Promise<{ enabled: boolean; appIds: string[] }> {
  const e = await read(ctx, workspaceId);
  return { enabled: e.enabled, appIds: e.app_ids };
}
