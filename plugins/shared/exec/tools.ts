import { NodeExecutionError, type ExecutorServices, type McpToolResult, type ToolDefinition, type VariableReader } from '../../../src/plugin-sdk';
import type { ToolParam } from '../tool-params';
import { toText } from './text';

/**
 * Calling tools from the tool, mcp and agent executors: arguments from the node's params, the two
 * services (`services.tools` for workspace and built-in tools, `services.mcp`), and results as
 * Dify's `text`, `files`, `json`. Executors hold no tool code of their own.
 */

export const TOOL_ERRORS = {
  TOOLS_UNAVAILABLE: 'TOOL-SERVICE-UNAVAILABLE',
  MCP_UNAVAILABLE: 'MCP-UNAVAILABLE',
  MCP_TOOL_ERROR: 'MCP-TOOL-ERROR',
  NOT_FOUND: 'TOOL-NOT-FOUND',
} as const;

/** A tool as nodes name it: a workspace tool (or `builtin`) and its function, or an MCP server's tool. */
export type ToolRef = { type: 'tool'; provider: string; name: string } | { type: 'mcp'; serverId: string; name: string };

/** The tool outputs every tool-calling node has. */
export interface ToolOutputs {
  text: string;
  files: unknown[];
  json: Record<string, unknown>[];
}

/** Each param by name: a variable's value, or its text rendered. */
export function resolveToolArgs(params: readonly ToolParam[], variables: VariableReader): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const p of params) {
    if (!p.name) continue;
    args[p.name] = p.source === 'variable' ? (variables.get(p.selector) ?? null) : variables.render(p.text);
  }
  return args;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFile = (v: unknown) => isPlainObject(v) && (typeof v.url === 'string' || typeof v.id === 'string') && ('mime_type' in v || 'filename' in v || 'transfer_method' in v);

/** Whatever a tool service returned, as the three outputs. */
export function toToolOutputs(result: unknown): ToolOutputs {
  if (isPlainObject(result) && typeof result.text === 'string' && ('json' in result || 'files' in result)) {
    // Already in the outputs' shape (a tool service that speaks it).
    const json = Array.isArray(result.json) ? result.json.filter(isPlainObject) : isPlainObject(result.json) ? [result.json] : [];
    return { text: result.text, files: Array.isArray(result.files) ? result.files : [], json };
  }
  if (Array.isArray(result)) {
    const files = result.filter(isFile);
    return { text: toText(result), files, json: result.filter((x) => isPlainObject(x) && !isFile(x)) as Record<string, unknown>[] };
  }
  if (isPlainObject(result)) return { text: toText(result), files: isFile(result) ? [result] : [], json: isFile(result) ? [] : [result] };
  return { text: toText(result), files: [], json: [] };
}

/** An MCP result as the outputs; a result the server flags as an error fails the node. */
export function mcpToToolOutputs(r: McpToolResult): ToolOutputs {
  const texts = r.content.filter((c): c is { type: 'text'; text: string } => c.type === 'text' && typeof c.text === 'string').map((c) => c.text);
  if (r.isError) throw new NodeExecutionError(TOOL_ERRORS.MCP_TOOL_ERROR, texts.join('\n') || 'The MCP tool reported an error');
  const json: Record<string, unknown>[] = r.structuredContent ? [r.structuredContent] : [];
  const files = r.content.filter((c) => c.type !== 'text');
  return { text: texts.join('\n'), files, json };
}

/** Calls a tool through the right service. */
export async function callTool(ref: ToolRef, args: Record<string, unknown>, services: ExecutorServices, signal: AbortSignal): Promise<ToolOutputs> {
  if (ref.type === 'mcp') {
    if (!services.mcp) throw new NodeExecutionError(TOOL_ERRORS.MCP_UNAVAILABLE, 'No MCP service is available to this run');
    return mcpToToolOutputs(await services.mcp.callTool({ serverId: ref.serverId, name: ref.name }, args, { signal }));
  }
  if (!services.tools) throw new NodeExecutionError(TOOL_ERRORS.TOOLS_UNAVAILABLE, 'No tool service is available to this run');
  return toToolOutputs(await services.tools.call({ provider: ref.provider, name: ref.name }, args, { signal }));
}

/** The description and parameters a model needs to call the tool; a clear error when unknown. */
export async function describeTool(ref: ToolRef, services: ExecutorServices, signal: AbortSignal): Promise<ToolDefinition> {
  let def: ToolDefinition | undefined;
  if (ref.type === 'mcp') {
    if (!services.mcp) throw new NodeExecutionError(TOOL_ERRORS.MCP_UNAVAILABLE, 'No MCP service is available to this run');
    def = await services.mcp.describeTool?.({ serverId: ref.serverId, name: ref.name }, { signal });
  } else {
    if (!services.tools) throw new NodeExecutionError(TOOL_ERRORS.TOOLS_UNAVAILABLE, 'No tool service is available to this run');
    def = await services.tools.describe?.({ provider: ref.provider, name: ref.name }, { signal });
  }
  const label = ref.type === 'mcp' ? `${ref.serverId}/${ref.name}` : `${ref.provider}/${ref.name}`;
  if (!def) throw new NodeExecutionError(TOOL_ERRORS.NOT_FOUND, `The tool "${label}" cannot be found`);
  return def;
}
