import { and, eq, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { appDrafts, apps, credentials, toolFunctions, tools } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { decryptSecret } from '../security/secrets';
import type { Scope } from '../services/workspace-resources';
import type { ParamRow } from '../../../schemas/parameter';
import { maskSecret } from '../../../schemas/credential';
import { mcpPolicyOf } from './mcp-stdio-policy';
import type { McpConfigDocument, Tool, ToolAuth, ToolFunction } from '../../../schemas/tool';

/** Row mapping and lookups shared by the tool services and the runtime. */

export type ToolRow = typeof tools.$inferSelect;
export type FunctionRow = typeof toolFunctions.$inferSelect;

/** A tool as one workspace sees it (by tenant and workspace, never by id alone). */
export interface WorkspaceScope {
  tenantId: string;
  workspaceId: string;
}
export const wsOf = (s: Scope): WorkspaceScope => ({ tenantId: s.caller.tenantId, workspaceId: s.workspaceId });

export const toolInScope = (w: WorkspaceScope) => and(eq(tools.workspaceId, w.workspaceId), eq(tools.tenantId, w.tenantId));

/** The tool of this workspace, or VALIDATION-1000 (missing, malformed or another workspace's). */
export async function toolRow(ctx: ServerContext, w: WorkspaceScope, id: string): Promise<ToolRow> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Tool', id);
  const [row] = await ctx.db.select().from(tools).where(and(eq(tools.id, id), toolInScope(w)));
  if (!row) throw notFoundOrForeign('Tool', id);
  return row;
}

export async function functionRow(ctx: ServerContext, tool: ToolRow, id: string): Promise<FunctionRow> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Function', id);
  const [row] = await ctx.db.select().from(toolFunctions).where(and(eq(toolFunctions.id, id), eq(toolFunctions.toolId, tool.id)));
  if (!row) throw notFoundOrForeign('Function', id);
  return row;
}

/**
 * How many apps of the workspace use the tool in their draft: a tool node naming it (`toolId`), an
 * MCP node naming it as server (`serverId`), or an agent listing it among its tools.
 */
export const referenceCountSql = sql<number>`(
  select count(*)::int from ${appDrafts} d join ${apps} a on a.id = d.app_id
  where a.workspace_id = "tools"."workspace_id"
    and jsonb_path_exists(d.document,
      '$.nodes[*] ? ((@.kind == "tool" && @.config.toolId == $id) || (@.kind == "mcp" && @.config.serverId == $id) || (@.kind == "agent" && exists(@.config.tools[*] ? (@.providerId == $id))))',
      jsonb_build_object('id', "tools"."id"::text))
)`;

/** Functions of a custom or workflow tool; the switched-on server tools of an MCP tool. */
// Outer columns written out in full: drizzle renders a column without its table inside sql``.
export const functionCountSql = sql<number>`(case when "tools"."type" = 'mcp' then jsonb_array_length("tools"."mcp_enabled")
  else (select count(*)::int from ${toolFunctions} f where f.tool_id = "tools"."id") end)`;

/** `stdioAllowed`: the commands stdio MCP servers may start here (ctx.outbound.stdioCommands()). */
export function toTool(r: ToolRow, functionCount: number, referenceCount: number, stdioAllowed: ReadonlySet<string>): Tool {
  return {
    id: r.id,
    workspace_id: r.workspaceId,
    icon: r.icon,
    name: r.name,
    intro: r.intro,
    type: r.type,
    status: r.status,
    function_count: Number(functionCount),
    reference_count: Number(referenceCount),
    auth: r.auth as ToolAuth,
    mcp_config: maskMcpConfig((r.mcpConfig as McpConfigDocument | null) ?? null),
    mcp_enabled: r.mcpEnabled,
    mcp_policy: r.type === 'mcp' ? mcpPolicyOf(r.mcpConfig as McpConfigDocument | null, stdioAllowed) : null,
    workflow_app_id: r.workflowAppId,
    install_method: r.installMethod,
    published_version: r.publishedVersion,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function toFunction(r: FunctionRow): ToolFunction {
  return {
    id: r.id,
    tool_id: r.toolId,
    name: r.name,
    description: r.description,
    method: r.method as ToolFunction['method'],
    url: r.url,
    auth: r.auth as ToolAuth,
    params: r.params as ParamRow[],
    headers: r.headers as ParamRow[],
    body: r.body as ParamRow[],
    body_subtype: r.bodySubtype as ToolFunction['body_subtype'],
    response: r.response as ParamRow[],
    enabled: r.enabled,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** A credential's AK and plain SK, for a function's auth; VALIDATION-1000 when it is not this workspace's. */
export async function credentialSecret(ctx: ServerContext, w: WorkspaceScope, id: string): Promise<{ ak: string; sk: string }> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Credential', id);
  const [row] = await ctx.db
    .select()
    .from(credentials)
    .where(and(eq(credentials.id, id), eq(credentials.workspaceId, w.workspaceId), eq(credentials.tenantId, w.tenantId)));
  if (!row) throw notFoundOrForeign('Credential', id);
  // The same binding as services/credentials.ts uses when it encrypts.
  return { ak: row.ak, sk: decryptSecret(ctx.secretKey, row.skEnc, `credential.sk:${row.id}`) };
}

/** Checks that an auth names a credential of the workspace (before saving it). */
export async function assertAuthUsable(ctx: ServerContext, w: WorkspaceScope, auth: ToolAuth | undefined) {
  if (!auth || auth.type === 'none') return;
  try {
    await credentialSecret(ctx, w, auth.credential_id);
  } catch {
    throw badRequest('The credential of the auth does not exist in this project space', { path: 'auth.credential_id' });
  }
}

type Secrets = Record<string, string>;
const mapValues = (o: Secrets | undefined, f: (k: string, v: string) => string): Secrets | undefined => (o ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(k, v)])) : o);

/**
 * An MCP config as answers show it: env and header values masked (they usually hold keys), like a
 * credential's SK. Sending a masked value back on update keeps the stored one ({@link unmaskMcpConfig}).
 */
export function maskMcpConfig(doc: McpConfigDocument | null): McpConfigDocument | null {
  if (!doc) return doc;
  const servers = Object.fromEntries(
    Object.entries(doc.mcpServers).map(([name, c]) => [name, 'command' in c ? { ...c, env: mapValues(c.env, (_k, v) => maskSecret(v))! } : { ...c, headers: mapValues(c.headers, (_k, v) => maskSecret(v))! }]),
  );
  return { mcpServers: servers } as McpConfigDocument;
}

/** A config sent back with masked values: each value equal to the stored one's mask keeps the stored value. */
export function unmaskMcpConfig(next: McpConfigDocument, stored: McpConfigDocument | null): McpConfigDocument {
  const old = stored ? Object.values(stored.mcpServers)[0] : undefined;
  const oldSecrets: Secrets = old ? ('command' in old ? old.env : old.headers) ?? {} : {};
  const keep = (k: string, v: string) => (k in oldSecrets && v === maskSecret(oldSecrets[k]) ? oldSecrets[k] : v);
  const servers = Object.fromEntries(
    Object.entries(next.mcpServers).map(([name, c]) => [name, 'command' in c ? { ...c, env: mapValues(c.env, keep)! } : { ...c, headers: mapValues(c.headers, keep)! }]),
  );
  return { mcpServers: servers } as McpConfigDocument;
}
