import { eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { tools } from '../db/schema';
import { AppError, badRequest } from '../errors';
import { MANAGERS, type Scope } from '../services/workspace-resources';
import { ErrorCode } from '../../../schemas/errors';
import type { AppIcon } from '../../../schemas/app';
import type { McpConfigDocument, McpServerConfig, McpToolItem } from '../../../schemas/tool';
import { toolRow, wsOf, type ToolRow } from './rows';
import { insertTool, toolView } from './service';
import { connectMcp, listTools, McpConnectError } from './mcp-client';
import { assertMcpConfigAllowed, stdioGate } from './mcp-stdio-policy';

/** MCP failures that are catalogue codes of their own (the policy's and the stdio rule's). */
const OWN_CODES = new Set<string>([ErrorCode.NETWORK_NOT_ALLOWED, ErrorCode.NETWORK_UNREACHABLE, ErrorCode.MCP_STDIO_NOT_ALLOWED]);

/** MCP tools: add a server by its config JSON, list its tools live, switch them on and off. */

export const serverOf = (row: ToolRow): McpServerConfig => {
  const doc = row.mcpConfig as McpConfigDocument | null;
  const server = doc ? Object.values(doc.mcpServers)[0] : undefined;
  if (!server) throw badRequest('The MCP tool has no server config');
  return server;
};

export async function createMcpTool(ctx: ServerContext, s: Scope, input: { config: McpConfigDocument; intro: string; icon?: AppIcon }) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  // A stdio server this server may not start is refused here, not stored to fail later.
  await assertMcpConfigAllowed(ctx, input.config);
  const [name] = Object.keys(input.config.mcpServers);
  const id = await insertTool(ctx, s, { type: 'mcp', name: name.trim(), intro: input.intro, icon: input.icon ?? { icon: 'globe', iconColor: '#E0E7FF' }, mcpConfig: input.config });
  return toolView(ctx, s, id);
}

/** A fresh connection each time (the screen's refresh must show what the server says now). */
export async function liveMcpTools(ctx: ServerContext, s: Scope, toolId: string): Promise<{ tools: McpToolItem[] }> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await toolRow(ctx, wsOf(s), toolId);
  if (row.type !== 'mcp') throw badRequest('The tool is not an MCP tool', { type: row.type });
  const server = serverOf(row);
  let client;
  try {
    client = await connectMcp(server, { policy: ctx.outbound, allowStdio: stdioGate(ctx), timeoutMs: 20_000 });
    const listed = await listTools(client, 20_000);
    const enabled = new Set(row.mcpEnabled);
    return { tools: listed.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema, enabled: enabled.has(t.name) })) };
  } catch (e) {
    // A catalogue code with the reason in msg and the MCP code in data: the screen shows it inline.
    const code = e instanceof McpConnectError ? e.code : 'MCP-LIST-FAILED';
    const data = { mcp_code: code, ...(e instanceof McpConnectError ? e.data : {}) };
    throw new AppError(400, OWN_CODES.has(code) ? (code as ErrorCode) : ErrorCode.PARAM, (e as Error).message, data);
  } finally {
    await client?.close().catch(() => undefined);
  }
}

export async function setMcpToolEnabled(ctx: ServerContext, s: Scope, toolId: string, name: string, enabled: boolean) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await toolRow(ctx, wsOf(s), toolId);
  if (row.type !== 'mcp') throw badRequest('The tool is not an MCP tool', { type: row.type });
  const set = new Set(row.mcpEnabled);
  if (enabled) set.add(name);
  else set.delete(name);
  await ctx.db.update(tools).set({ mcpEnabled: [...set].sort(), updatedAt: new Date() }).where(eq(tools.id, row.id));
  return toolView(ctx, s, row.id);
}
