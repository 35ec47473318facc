import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { toolFunctions, tools, toolVersions } from '../db/schema';
import { badRequest, exists } from '../errors';
import { contains, isUniqueViolation, lockNames, MANAGERS, nothingToChange, page, type Scope, type Tx } from '../services/workspace-resources';
import { DEFAULT_TOOL_ICON, type McpConfigDocument, type ToolAuth, type ToolInstallMethod, type ToolListQuery, type ToolVersion } from '../../../schemas/tool';
import type { AppIcon } from '../../../schemas/app';
import { syncWorkflowParams } from './workflow-sync';
import { assertMcpConfigAllowed } from './mcp-stdio-policy';
import { assertAuthUsable, functionCountSql, referenceCountSql, toFunction, toolInScope, toolRow, toTool, unmaskMcpConfig, wsOf } from './rows';

/**
 * Tools of a workspace (spec 3, 7.5 "tools: CRUD; publish and unpublish; publish versions").
 * Every member reads; owner and admin write. Names are unique per workspace (any case).
 * A tool that apps still use (reference count above 0) is not deleted: the answer says how many use
 * it, so the builder removes it from those flows first (a silent delete would break them at run time).
 */

export async function assertToolNameFree(tx: Tx, s: Scope, name: string, exceptId?: string) {
  await lockNames(tx, 'tool', s.workspaceId);
  const conds: SQL[] = [eq(tools.workspaceId, s.workspaceId), sql`lower(${tools.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(tools.id, exceptId));
  const [hit] = await tx.select({ id: tools.id }).from(tools).where(and(...conds)).limit(1);
  if (hit) throw exists(`A tool named '${name}' already exists in this project space`);
}

export const duplicateTool = (e: unknown): never => {
  if (isUniqueViolation(e)) throw exists('A tool or function with this name already exists');
  throw e;
};

const columns = { tool: tools, functionCount: functionCountSql, referenceCount: referenceCountSql };

export async function toolView(ctx: ServerContext, s: Scope, id: string) {
  const row = await toolRow(ctx, wsOf(s), id);
  const [r] = await ctx.db.select(columns).from(tools).where(eq(tools.id, row.id));
  return toTool(r.tool, r.functionCount, r.referenceCount, await ctx.outbound.stdioCommands());
}

export async function listTools(ctx: ServerContext, s: Scope, q: ToolListQuery) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const conds: SQL[] = [toolInScope(wsOf(s))!];
  if (q.name) conds.push(ilike(tools.name, contains(q.name)));
  if (q.type) conds.push(eq(tools.type, q.type));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(tools).where(where);
  const rows = await ctx.db
    .select(columns)
    .from(tools)
    .where(where)
    .orderBy(desc(tools.createdAt), desc(tools.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  const stdioAllowed = await ctx.outbound.stdioCommands();
  return page(
    rows.map((r) => toTool(r.tool, r.functionCount, r.referenceCount, stdioAllowed)),
    total,
    q,
  );
}

export async function getToolDetail(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const tool = await toolView(ctx, s, id);
  if (tool.type === 'workflow' && tool.workflow_app_id) await syncWorkflowParams(ctx, tool.id, tool.workflow_app_id);
  const fns = await ctx.db.select().from(toolFunctions).where(eq(toolFunctions.toolId, tool.id)).orderBy(asc(toolFunctions.createdAt), asc(toolFunctions.name));
  return { ...tool, functions: fns.map(toFunction) };
}

export interface NewTool {
  type: 'custom' | 'mcp' | 'workflow';
  name: string;
  intro: string;
  icon?: AppIcon;
  auth?: ToolAuth;
  mcpConfig?: McpConfigDocument;
  workflowAppId?: string;
  /** Default: `manual` for a custom tool, else its type (schemas/tool.ts ToolInstallMethod). */
  installMethod?: ToolInstallMethod;
}

/** Inserts a tool (and, through `more`, its first functions) in one transaction. Managers only; the caller checks the role. */
export async function insertTool(ctx: ServerContext, s: Scope, t: NewTool, more?: (tx: Tx, toolId: string) => Promise<void>): Promise<string> {
  await assertAuthUsable(ctx, wsOf(s), t.auth);
  const id = randomUUID();
  await ctx.db
    .transaction(async (tx) => {
      await assertToolNameFree(tx, s, t.name);
      await tx.insert(tools).values({
        id,
        tenantId: s.caller.tenantId,
        workspaceId: s.workspaceId,
        type: t.type,
        name: t.name,
        intro: t.intro,
        icon: t.icon ?? { ...DEFAULT_TOOL_ICON },
        auth: t.auth ?? { type: 'none' },
        mcpConfig: t.mcpConfig ?? null,
        workflowAppId: t.workflowAppId ?? null,
        installMethod: t.installMethod ?? (t.type === 'custom' ? 'manual' : t.type),
        createdBy: s.caller.userId,
      });
      await more?.(tx, id);
    })
    .catch(duplicateTool);
  return id;
}

export async function createTool(ctx: ServerContext, s: Scope, input: { name: string; intro: string; icon?: AppIcon; auth: ToolAuth }) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const id = await insertTool(ctx, s, { type: 'custom', ...input });
  return toolView(ctx, s, id);
}

export async function updateTool(
  ctx: ServerContext,
  s: Scope,
  input: { id: string; name?: string; intro?: string; icon?: AppIcon; auth?: ToolAuth; mcp_config?: McpConfigDocument },
) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await toolRow(ctx, wsOf(s), input.id);
  const { name, intro, icon, auth, mcp_config } = input;
  if ([name, intro, icon, auth, mcp_config].every((v) => v === undefined)) throw nothingToChange();
  if (mcp_config !== undefined && row.type !== 'mcp') throw badRequest('Only an MCP tool has a server config', { path: 'mcp_config' });
  const mcpConfig = mcp_config && unmaskMcpConfig(mcp_config, row.mcpConfig as McpConfigDocument | null);
  if (mcpConfig) await assertMcpConfigAllowed(ctx, mcpConfig);
  await assertAuthUsable(ctx, wsOf(s), auth);
  await ctx.db
    .transaction(async (tx) => {
      if (name !== undefined) await assertToolNameFree(tx, s, name, row.id);
      await tx
        .update(tools)
        .set({ name, intro, icon, auth, mcpConfig, updatedAt: new Date() })
        .where(and(eq(tools.id, row.id), toolInScope(wsOf(s))));
    })
    .catch(duplicateTool);
  return toolView(ctx, s, row.id);
}

export async function deleteTool(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const tool = await toolView(ctx, s, id);
  if (tool.reference_count > 0) {
    throw badRequest(`The tool is used by ${tool.reference_count} app(s); remove it from their flows first`, { reference_count: tool.reference_count });
  }
  await ctx.db.delete(tools).where(and(eq(tools.id, tool.id), toolInScope(wsOf(s))));
}

/** Publishes the tool: a new numbered version with a snapshot of its fields and functions. */
export async function publishTool(ctx: ServerContext, s: Scope, id: string, note: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const detail = await getToolDetail(ctx, s, id);
  if (detail.type === 'custom' && detail.functions.length === 0) throw badRequest('Add at least one function before publishing the tool', { reason: 'tool_no_functions' });
  await ctx.db.transaction(async (tx) => {
    // Row lock: two publishes at once get consecutive numbers.
    const [locked] = await tx.select({ v: tools.publishedVersion }).from(tools).where(eq(tools.id, detail.id)).for('update');
    const [{ max }] = await tx.select({ max: sql<number>`coalesce(max(${toolVersions.version}), 0)::int` }).from(toolVersions).where(eq(toolVersions.toolId, detail.id));
    const version = Math.max(Number(max), locked.v) + 1;
    const { reference_count: _r, function_count: _f, mcp_policy: _p, ...snapshot } = detail;
    await tx.insert(toolVersions).values({ id: randomUUID(), toolId: detail.id, version, note, snapshot, createdBy: s.caller.userId });
    await tx.update(tools).set({ status: 'published', publishedVersion: version, updatedAt: new Date() }).where(eq(tools.id, detail.id));
  });
  return toolView(ctx, s, detail.id);
}

export async function unpublishTool(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await toolRow(ctx, wsOf(s), id);
  if (row.status !== 'published') throw badRequest('The tool is not published');
  await ctx.db.update(tools).set({ status: 'draft', updatedAt: new Date() }).where(eq(tools.id, row.id));
  return toolView(ctx, s, row.id);
}

export async function listVersions(ctx: ServerContext, s: Scope, id: string): Promise<ToolVersion[]> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await toolRow(ctx, wsOf(s), id);
  const rows = await ctx.db.select().from(toolVersions).where(eq(toolVersions.toolId, row.id)).orderBy(desc(toolVersions.version));
  return rows.map((v) => ({ id: v.id, tool_id: v.toolId, version: v.version, note: v.note, created_by: v.createdBy, created_at: v.createdAt.toISOString() }));
}
