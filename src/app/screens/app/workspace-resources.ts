/**
 * The lists the flow inspector's pickers offer, loaded from the API of the app's project space:
 * credentials, databases, prompts, knowledge bases, tools with their functions (custom, workflow
 * and the built-in ones) and MCP servers with their switched-on tools. Each list loads when a
 * picker opens. The mapping from API rows to picker rows is pure and exported for tests.
 */
import type { BuiltinToolsAnswer, Tool, ToolDetail, ToolFunction } from '../../../../schemas/tool';
import type { ParamRow } from '../../../../schemas/parameter';
import { listCredentials } from '../../../api/credentials';
import { listDatabases } from '../../../api/databases';
import { listDatasets } from '../../../api/datasets';
import { listPrompts } from '../../../api/prompts';
import { getTool, listBuiltinTools, listTools } from '../../../api/tools';
import type { McpServerOption, ToolFunctionOption, ToolOption, ToolParameterOption, WorkspaceResources } from '../../../canvas/widgets';

/** The provider id tool nodes use for the built-in tools (plugins/tool/builtin.ts). */
export const BUILTIN_PROVIDER = 'builtin';

const TYPES: Record<string, string> = { integer: 'integer', long: 'integer', timestamp: 'integer', decimal: 'number', boolean: 'boolean', object: 'object' };

function rowParameter(row: ParamRow): ToolParameterOption {
  const base = TYPES[row.data_type] ?? 'string';
  const description = [row.param_name && row.param_name !== row.param_key ? row.param_name : '', row.description ?? ''].filter(Boolean).join(': ');
  return {
    name: row.param_key,
    type: row.is_array ? `array[${base}]` : base,
    required: Boolean(row.is_not_null) && !row.default_value,
    ...(description ? { description } : {}),
  };
}

/**
 * What a caller of a custom or workflow tool function fills in, as the runtime reads it
 * (src/server/tools/runtime.ts `functionParameters`): query and path rows, `{name}` placeholders
 * in header values, and the body's rows unless the method sends none (a json body whose only row
 * is the object `data` gives that object's fields).
 */
export function functionParameters(fn: Pick<ToolFunction, 'method' | 'params' | 'headers' | 'body' | 'body_subtype'>): ToolParameterOption[] {
  const body =
    fn.body_subtype === 'json' && fn.body.length === 1 && fn.body[0].param_key === 'data' && fn.body[0].data_type === 'object' ? (fn.body[0].children ?? []) : fn.body;
  const headerInputs: ParamRow[] = [];
  for (const h of fn.headers) for (const m of (h.param_value ?? '').matchAll(/\{([\w.-]+)\}/g)) headerInputs.push({ param_key: m[1], data_type: 'string', is_not_null: true } as ParamRow);
  const rows = [...fn.params, ...headerInputs, ...(fn.method === 'GET' || fn.method === 'HEAD' ? [] : body)];
  const seen = new Set<string>();
  return rows.filter((r) => r.param_key && !seen.has(r.param_key) && seen.add(r.param_key)).map(rowParameter);
}

/** The properties of a JSON Schema object (built-in and MCP tools) as parameters. */
export function schemaParameters(schema: Record<string, unknown> | undefined): ToolParameterOption[] {
  const props = schema && typeof schema.properties === 'object' && schema.properties ? (schema.properties as Record<string, Record<string, unknown>>) : {};
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  return Object.entries(props).map(([name, p]) => {
    const items = p?.items as Record<string, unknown> | undefined;
    const type = p?.type === 'array' && typeof items?.type === 'string' ? `array[${items.type}]` : typeof p?.type === 'string' ? p.type : 'string';
    return { name, type, required: required.has(name), ...(typeof p?.description === 'string' && p.description ? { description: p.description } : {}) };
  });
}

/** A custom or workflow tool with its switched-on functions (the runtime refuses switched-off ones). */
export function toolOption(tool: Pick<ToolDetail, 'id' | 'name' | 'intro' | 'functions'>): ToolOption {
  return {
    id: tool.id,
    name: tool.name,
    ...(tool.intro ? { description: tool.intro } : {}),
    functions: tool.functions
      .filter((f) => f.enabled)
      .map((f): ToolFunctionOption => ({ id: f.id, name: f.name, ...(f.description ? { description: f.description } : {}), parameters: functionParameters(f) })),
  };
}

/** The built-in tools as one tool whose functions are named by their names (`toolId: 'builtin'`). */
export function builtinToolOption(answer: BuiltinToolsAnswer, name: string): ToolOption {
  return {
    id: BUILTIN_PROVIDER,
    name,
    functions: answer.tools.map((t) => ({ id: t.name, name: t.name, ...(t.description ? { description: t.description } : {}), parameters: schemaParameters(t.parameters) })),
  };
}

/** An MCP tool (a server) with the server tools switched on; their parameters are known only once the server is asked. */
export function mcpServerOption(tool: Pick<Tool, 'id' | 'name' | 'intro' | 'mcp_enabled'>): McpServerOption {
  return { id: tool.id, name: tool.name, ...(tool.intro ? { description: tool.intro } : {}), tools: tool.mcp_enabled.map((n) => ({ id: n, name: n })) };
}

/** Tools that have functions a tool node can call: custom and workflow (MCP tools are servers). */
export const isFunctionTool = (t: Pick<Tool, 'type'>) => t.type === 'custom' || t.type === 'workflow';

export interface WorkspaceResourceTexts {
  /** The name of the built-in tools' entry. */
  builtinTools: string;
}

const PAGE = { page_size: 1000 };

/** The real lists for one project space (the flow page's `WorkspaceResourcesContext`). */
export function workspaceResources(workspaceId: string, texts: WorkspaceResourceTexts): WorkspaceResources {
  const opts = (signal: AbortSignal) => ({ signal, workspaceId, reaction: 'silent' as const });
  return {
    credentials: {
      list: async ({ signal }) => (await listCredentials(PAGE, opts(signal))).items.map((c) => ({ id: c.id, name: c.identifier, description: c.description })),
    },
    databases: {
      list: async ({ signal }) => (await listDatabases(PAGE, opts(signal))).items.map((d) => ({ id: d.id, name: d.name, description: d.type })),
    },
    prompts: {
      list: async ({ signal }) => (await listPrompts(PAGE, opts(signal))).items.map((p) => ({ id: p.id, name: p.name, description: p.description })),
    },
    knowledgeBases: {
      list: async ({ signal }) => (await listDatasets(PAGE, opts(signal))).items.map((d) => ({ id: d.id, name: d.name, ...(d.description ? { description: d.description } : {}) })),
    },
    tools: {
      list: async ({ signal }) => {
        const [page, builtin] = await Promise.all([
          listTools(PAGE, opts(signal)),
          // The built-in tools are a bonus: the list still opens without them.
          listBuiltinTools(opts(signal)).catch(() => null),
        ]);
        const details = await Promise.all(
          page.items.filter(isFunctionTool).map((t) => (t.function_count > 0 ? getTool(t.id, opts(signal)).then(toolOption) : Promise.resolve(toolOption({ ...t, functions: [] })))),
        );
        return [...details, ...(builtin && builtin.tools.length ? [builtinToolOption(builtin, texts.builtinTools)] : [])];
      },
    },
    mcpServers: {
      list: async ({ signal }) => (await listTools({ ...PAGE, type: 'mcp' }, opts(signal))).items.map(mcpServerOption),
    },
  };
}
