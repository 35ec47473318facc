import { and, asc, eq, sql } from 'drizzle-orm';
import { NodeExecutionError, type McpService, type McpToolResult, type ToolDefinition, type ToolService } from '../../plugin-sdk/executor';
import { BUILTIN_TOOL_PROVIDER, createBuiltinToolService } from './builtin';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { toolFunctions, tools } from '../db/schema';
import { createGuardedHttpClient } from '../http';
import type { ParamRow } from '../../../schemas/parameter';
import type { ToolFunction } from '../../../schemas/tool';
import { runFunction } from './http-call';
import { findPluginTool, pluginToolDefinition, runPluginTool } from './plugin-tools';
import { McpClientPool, McpConnectError } from './mcp-client';
import { serverOf } from './mcp';
import { stdioGate, stdioRefusal } from './mcp-stdio-policy';
import { toFunction, toolInScope, type ToolRow, type WorkspaceScope } from './rows';
import { syncWorkflowParams } from './workflow-sync';
import { runWorkflowTool, WORKFLOW_RUN_ERRORS, type WorkflowToolCaller } from './workflow-run';

/**
 * The run-time side of tools, injected into the executors as `services.tools` and `services.mcp`
 * (src/plugin-sdk/executor.ts). Both are bound to one workspace: a flow reaches only the tools of
 * its own project space.
 *
 * - Tool nodes and agents name a tool by `provider` = tool id (or `builtin`, or an installed
 *   plugin's id) and `name` = the function's id or name (a plugin's tool name: ./plugin-tools.ts). Custom tools call their HTTP function; workflow tools run their app's
 *   flow in this process as a run of that app (./workflow-run.ts: recursion and depth guarded).
 * - MCP nodes and agents name `serverId` = the MCP tool's id and `name` = the server's tool name,
 *   which must be switched on. Clients are pooled per server config and closed after 5 idle
 *   minutes, or by {@link closeMcpClients} at shutdown.
 *
 * @example
 * const services: ExecutorServices = { ...others, tools: createToolService(ctx, scope), mcp: createMcpService(ctx, scope) };
 */

export const RUNTIME_ERRORS = {
  NOT_FOUND: 'TOOL-NOT-FOUND',
  HTTP_STATUS: 'TOOL-HTTP-STATUS',
  WORKFLOW: WORKFLOW_RUN_ERRORS.NO_RUN,
  MCP_DISABLED: 'MCP-TOOL-DISABLED',
  MCP_CONNECT: 'MCP-CONNECT-FAILED',
} as const;

const notFound = (what: string) => new NodeExecutionError(RUNTIME_ERRORS.NOT_FOUND, `The tool "${what}" cannot be found in this project space`);

async function findTool(ctx: ServerContext, w: WorkspaceScope, id: string): Promise<ToolRow | undefined> {
  if (!UUID_RE.test(id)) return undefined;
  const [row] = await ctx.db.select().from(tools).where(and(eq(tools.id, id), toolInScope(w)));
  return row;
}

async function findFunction(ctx: ServerContext, toolId: string, ref: string): Promise<ToolFunction | undefined> {
  const byId = UUID_RE.test(ref) ? eq(toolFunctions.id, ref) : sql`lower(${toolFunctions.name}) = lower(${ref})`;
  const [row] = await ctx.db.select().from(toolFunctions).where(and(eq(toolFunctions.toolId, toolId), byId)).orderBy(asc(toolFunctions.createdAt)).limit(1);
  return row && row.enabled ? toFunction(row) : undefined;
}

const JSON_TYPES: Record<string, string> = { integer: 'integer', long: 'integer', decimal: 'number', timestamp: 'integer', boolean: 'boolean', object: 'object', string: 'string', datetime: 'string' };

function rowSchema(row: ParamRow): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: JSON_TYPES[row.data_type] ?? 'string' };
  const description = [row.param_name !== row.param_key ? row.param_name : '', row.description].filter(Boolean).join(': ');
  if (description) schema.description = description;
  if (row.optional_values) schema.enum = row.optional_values.split(',').map((v) => v.trim()).filter(Boolean);
  if (row.data_type === 'object' && row.children?.length) Object.assign(schema, objectSchema(row.children));
  if (row.is_array) schema = { type: 'array', items: schema };
  return schema;
}

function objectSchema(rows: readonly ParamRow[]): { type: 'object'; properties: Record<string, unknown>; required: string[] } {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const r of rows) {
    properties[r.param_key] = rowSchema(r);
    if (r.is_not_null && !r.default_value) required.push(r.param_key);
  }
  return { type: 'object', properties, required };
}

/** The JSON Schema a model fills in: query, path and body parameters (a json body's `data` fields at the top). */
export function functionParameters(fn: ToolFunction): Record<string, unknown> {
  const body = fn.body_subtype === 'json' && fn.body.length === 1 && fn.body[0].param_key === 'data' && fn.body[0].data_type === 'object' ? (fn.body[0].children ?? []) : fn.body;
  const headerInputs: ParamRow[] = [];
  for (const h of fn.headers) for (const m of (h.param_value ?? '').matchAll(/\{([\w.-]+)\}/g)) headerInputs.push({ param_key: m[1], data_type: 'string', is_not_null: true });
  // query_string and path bodies travel in the URL, so GET and HEAD send them too (http-call.ts).
  const sent = fn.body_subtype === 'query_string' || fn.body_subtype === 'path' || (fn.method !== 'GET' && fn.method !== 'HEAD');
  return objectSchema([...fn.params, ...headerInputs, ...(sent ? body : [])]);
}

/**
 * `services.tools` for runs of one workspace. A run passes its app, member, workflow-tool chain and
 * deadline too (runs/services.ts), which workflow tools need; without them only custom and built-in
 * tools run.
 */
export function createToolService(ctx: ServerContext, scope: WorkflowToolCaller): ToolService {
  const builtin = createBuiltinToolService({ http: createGuardedHttpClient({ policy: ctx.outbound }) });
  async function resolve(ref: { provider: string; name: string }) {
    const tool = await findTool(ctx, scope, ref.provider);
    if (!tool) throw notFound(`${ref.provider}/${ref.name}`);
    if (tool.type !== 'custom' && tool.type !== 'workflow') throw new NodeExecutionError(RUNTIME_ERRORS.NOT_FOUND, `"${tool.name}" is an ${tool.type} tool: call it through its own node`);
    const fn = await findFunction(ctx, tool.id, ref.name);
    if (!fn) throw notFound(`${tool.name}/${ref.name}`);
    return { tool, fn };
  }
  return {
    async call(ref, args, { signal }) {
      if (ref.provider === BUILTIN_TOOL_PROVIDER) return builtin.call(ref, args, { signal });
      // Workspace tools have UUIDs: a provider shaped like one is always a workspace tool.
      const pluginTool = UUID_RE.test(ref.provider) ? undefined : findPluginTool(ctx, ref.provider, ref.name);
      if (pluginTool) return runPluginTool(ctx, scope, pluginTool, args, signal);
      const { tool, fn } = await resolve(ref);
      if (tool.type === 'workflow') return runWorkflowTool(ctx, scope, tool, args, signal);
      const r = await runFunction(ctx, scope, fn, args, { signal });
      if (r.error) throw new NodeExecutionError(r.error.code, r.error.message, { request: r.request });
      if (r.status >= 400) {
        throw new NodeExecutionError(RUNTIME_ERRORS.HTTP_STATUS, `${fn.name} answered with status ${r.status}`, { status: r.status, body: r.body.slice(0, 2000) });
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.body);
      } catch {
        parsed = undefined;
      }
      const json = parsed && typeof parsed === 'object' ? (Array.isArray(parsed) ? parsed.filter((x) => x && typeof x === 'object') : [parsed]) : [];
      return { text: r.body, files: [], json };
    },
    async describe(ref, opts): Promise<ToolDefinition | undefined> {
      if (ref.provider === BUILTIN_TOOL_PROVIDER) return builtin.describe!(ref, opts);
      const pluginTool = UUID_RE.test(ref.provider) ? undefined : findPluginTool(ctx, ref.provider, ref.name);
      if (pluginTool) return pluginToolDefinition(pluginTool);
      const tool = await findTool(ctx, scope, ref.provider);
      if (!tool || (tool.type !== 'custom' && tool.type !== 'workflow')) return undefined;
      // A model is offered the app's current start form.
      if (tool.type === 'workflow' && tool.workflowAppId) await syncWorkflowParams(ctx, tool.id, tool.workflowAppId);
      const fn = await findFunction(ctx, tool.id, ref.name);
      if (!fn) return undefined;
      if (tool.type === 'workflow') return { name: tool.name, description: tool.intro || fn.description || tool.name, parameters: functionParameters(fn) };
      return { name: fn.name, description: fn.description || `${fn.method} ${fn.url}`, parameters: functionParameters(fn) };
    },
  };
}

const pools = new WeakMap<ServerContext, McpClientPool>();

function poolOf(ctx: ServerContext): McpClientPool {
  let pool = pools.get(ctx);
  if (!pool) {
    pool = new McpClientPool({ policy: ctx.outbound, allowStdio: stdioGate(ctx), timeoutMs: 20_000 });
    pools.set(ctx, pool);
  }
  return pool;
}

/** Closes the pooled MCP clients of a server (call it when the server shuts down). */
export async function closeMcpClients(ctx: ServerContext): Promise<void> {
  await pools.get(ctx)?.closeAll();
}

/** `services.mcp` for runs of one workspace. */
export function createMcpService(ctx: ServerContext, scope: WorkspaceScope): McpService {
  async function server(serverId: string) {
    const tool = await findTool(ctx, scope, serverId);
    if (!tool || tool.type !== 'mcp') throw notFound(serverId);
    const config = serverOf(tool);
    // Checked on every call: the operator may have taken the command off the list since the
    // client was pooled (then the running process is stopped too).
    const refusal = stdioRefusal(config, await ctx.outbound.stdioCommands());
    if (refusal) {
      await poolOf(ctx).forget(config);
      await stdioGate(ctx)(config as Extract<typeof config, { command: string }>).catch((e: McpConnectError) => {
        throw new NodeExecutionError(e.code, `${tool.name}: ${e.message}`, e.data);
      });
    }
    return { tool, config };
  }
  const guard = <T>(p: Promise<T>) =>
    p.catch((e: unknown) => {
      if (e instanceof McpConnectError) throw new NodeExecutionError(e.code, e.message, e.data);
      throw e;
    });
  return {
    async callTool(ref, args, { signal }): Promise<McpToolResult> {
      const { tool, config } = await server(ref.serverId);
      if (!tool.mcpEnabled.includes(ref.name)) throw new NodeExecutionError(RUNTIME_ERRORS.MCP_DISABLED, `The tool "${ref.name}" of "${tool.name}" is not switched on`);
      const r = await guard(poolOf(ctx).with(config, (c) => c.callTool({ name: ref.name, arguments: args }, undefined, { signal, timeout: 120_000 })));
      return { content: (r.content ?? []) as McpToolResult['content'], structuredContent: r.structuredContent as Record<string, unknown> | undefined, isError: r.isError === true };
    },
    async describeTool(ref, { signal }) {
      const { tool, config } = await server(ref.serverId);
      if (!tool.mcpEnabled.includes(ref.name)) return undefined;
      const listed = await guard(poolOf(ctx).with(config, (c) => c.listTools({}, { signal, timeout: 20_000 })));
      const t = listed.tools.find((x) => x.name === ref.name);
      return t ? { name: t.name, description: t.description ?? '', parameters: (t.inputSchema as Record<string, unknown>) ?? { type: 'object' } } : undefined;
    },
  };
}
