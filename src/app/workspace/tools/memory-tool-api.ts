/**
 * An in-memory {@link ToolApi} for stories and tests: the server's main rules (owner and admin
 * change; names unique; publish numbers versions; MCP switches) and its failures as ApiErrors.
 */
import type { FunctionTestResult, McpToolItem, Tool, ToolDetail, ToolFunction, ToolVersion } from '../../../../schemas/tool';
import type { MemberRole, Workspace } from '../../../../schemas/workspace';
import { ApiError } from '../../../api/request';
import type { ToolApi } from './tool-api';

export interface MemoryToolOptions {
  role?: MemberRole;
  tools?: (Partial<Tool> & { name: string; functions?: Partial<ToolFunction>[] })[];
  mcpTools?: Omit<McpToolItem, 'enabled'>[];
  mcpFails?: string;
  latencyMs?: number;
  listFails?: boolean;
  /** The demo stdio MCP server's command is not allowed on this server (mcp_policy). */
  mcpNotAllowed?: boolean;
}

export interface MemoryToolApi extends ToolApi {
  workspaceId: string;
  stored: ToolDetail[];
  calls: { method: string; args: unknown[] }[];
}

const WS = '0c000000-0000-4000-8000-0000000000d1';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const denied = () => new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Permission denied' });
const missing = () => new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Tool does not exist or you have no permission' });

export function createMemoryToolApi(opts: MemoryToolOptions = {}): MemoryToolApi {
  const role = opts.role ?? 'owner';
  const canChange = role === 'owner' || role === 'admin';
  const calls: MemoryToolApi['calls'] = [];
  let n = 0;
  const now = () => new Date(Date.parse('2025-05-01T08:00:00Z') + n * 3_600_000).toISOString();
  const newId = () => `0f000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  const fnOf = (toolId: string, f: Partial<ToolFunction>): ToolFunction => ({
    id: newId(),
    tool_id: toolId,
    name: 'fn',
    description: '',
    method: 'GET',
    url: 'https://api.example.com',
    auth: { type: 'none' },
    params: [],
    headers: [],
    body: [],
    body_subtype: 'json',
    response: [],
    enabled: true,
    created_at: now(),
    updated_at: now(),
    ...f,
  });
  const stored: ToolDetail[] = (opts.tools ?? []).map((x) => {
    const id = x.id ?? newId();
    const functions = (x.functions ?? []).map((f) => fnOf(id, f));
    return {
      workspace_id: WS,
      icon: { icon: 'wrench', iconColor: '#CCFBF1' },
      intro: '',
      type: 'custom',
      status: 'draft',
      reference_count: 0,
      auth: { type: 'none' },
      mcp_config: null,
      mcp_enabled: [],
      mcp_policy: x.type === 'mcp' ? { allowed: true, reason: null } : null,
      workflow_app_id: null,
      install_method: x.type === 'mcp' || x.type === 'workflow' ? x.type : 'manual',
      published_version: 0,
      created_by: WS,
      created_at: now(),
      updated_at: now(),
      ...x,
      id,
      function_count: x.type === 'mcp' ? (x.mcp_enabled ?? []).length : functions.length,
      functions,
    } as ToolDetail;
  });
  const versions = new Map<string, ToolVersion[]>();
  const step = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
  };
  const find = (id: string) => {
    const t = stored.find((x) => x.id === id);
    if (!t) throw missing();
    return t;
  };
  const plain = ({ functions: _f, ...t }: ToolDetail): Tool => ({ ...t, function_count: t.type === 'mcp' ? t.mcp_enabled.length : _f.length });
  const write = () => {
    if (!canChange) throw denied();
  };
  const add = (t: Partial<ToolDetail> & { name: string }): Tool => {
    if (stored.some((x) => x.name.toLowerCase() === t.name.toLowerCase())) throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: `A tool named '${t.name}' already exists` });
    const tool = { ...stored[0], id: newId(), workspace_id: WS, icon: { icon: 'wrench', iconColor: '#CCFBF1' }, intro: '', type: 'custom', status: 'draft', reference_count: 0, auth: { type: 'none' }, mcp_config: null, mcp_enabled: [], mcp_policy: t.type === 'mcp' ? { allowed: true, reason: null } : null, workflow_app_id: null, install_method: t.type === 'mcp' || t.type === 'workflow' ? t.type : 'manual', published_version: 0, created_by: WS, created_at: now(), updated_at: now(), functions: [], function_count: 0, ...t } as ToolDetail;
    stored.push(tool);
    return plain(tool);
  };

  const api: MemoryToolApi = {
    workspaceId: WS,
    stored,
    calls,
    async getWorkspace(id) {
      await step('getWorkspace', [id]);
      return { id, name: 'Demo space', description: '', icon: null, role_type: role, created_at: now(), updated_at: now() } as unknown as Workspace;
    },
    async list(_ws, q) {
      await step('list', [q]);
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Server error' });
      const name = (q.name ?? '').toLowerCase();
      const rows = stored.filter((x) => x.name.toLowerCase().includes(name) && (!q.type || x.type === q.type)).reverse();
      const size = Number(q.page_size ?? 20);
      const page = Number(q.page ?? 1);
      return { items: rows.slice((page - 1) * size, page * size).map(plain), total: rows.length };
    },
    async get(_ws, id) {
      await step('get', [id]);
      const t = find(id);
      return { ...plain(t), functions: t.functions };
    },
    async builtin() {
      await step('builtin', []);
      return {
        provider: 'builtin',
        tools: [
          { name: 'current_time', description: 'The current date and time in a time zone', parameters: { type: 'object' } },
          { name: 'calculator', description: 'Evaluates an arithmetic expression', parameters: { type: 'object' } },
          { name: 'webpage_reader', description: 'Fetches a web page and returns its readable text', parameters: { type: 'object' } },
        ],
      };
    },
    async create(_ws, body) {
      await step('create', [body]);
      write();
      return add({ name: body.name, intro: body.intro ?? '' });
    },
    async update(_ws, body) {
      await step('update', [body]);
      write();
      const t = find(String(body.id));
      Object.assign(t, { ...body, updated_at: now() });
      return plain(t);
    },
    async remove(_ws, id) {
      await step('remove', [id]);
      write();
      stored.splice(stored.indexOf(find(id)), 1);
      return null;
    },
    async importOpenApi(_ws, body) {
      await step('importOpenApi', [body]);
      write();
      if (!/openapi|swagger/.test(body.document)) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Only OpenAPI 3.x and Swagger 2.0 documents can be imported' });
      const tool = add({ name: body.name ?? 'Imported API' });
      find(tool.id).functions.push(fnOf(tool.id, { name: 'imported_operation' }));
      return plain(find(tool.id));
    },
    async createMcp(_ws, body) {
      await step('createMcp', [body]);
      write();
      return add({ name: Object.keys(body.config.mcpServers)[0], type: 'mcp', mcp_config: body.config as Tool['mcp_config'], intro: body.intro ?? '' });
    },
    async createWorkflow(_ws, body) {
      await step('createWorkflow', [body]);
      write();
      return add({ name: body.name ?? 'Workflow tool', type: 'workflow', workflow_app_id: body.app_id });
    },
    async workflowApps() {
      await step('workflowApps', []);
      return [
        { id: '0a000000-0000-4000-8000-000000000001', name: 'Translate flow', version: 'v1.0.0' },
        { id: '0a000000-0000-4000-8000-000000000002', name: 'Unpublished flow', version: null },
      ];
    },
    async credentials() {
      await step('credentials', []);
      return [{ id: '0e000000-0000-4000-8000-000000000001', name: 'weather-key' }];
    },
    async publish(_ws, id, note) {
      await step('publish', [id, note]);
      write();
      const t = find(id);
      const list = versions.get(id) ?? [];
      const version = list.length + 1;
      versions.set(id, [{ id: newId(), tool_id: id, version, note, created_by: WS, created_at: now() }, ...list]);
      Object.assign(t, { status: 'published', published_version: version });
      return plain(t);
    },
    async unpublish(_ws, id) {
      await step('unpublish', [id]);
      write();
      const t = find(id);
      t.status = 'draft';
      return plain(t);
    },
    async versions(_ws, id) {
      await step('versions', [id]);
      return versions.get(id) ?? [];
    },
    async getFunction(_ws, toolId, id) {
      await step('getFunction', [toolId, id]);
      const f = find(toolId).functions.find((x) => x.id === id);
      if (!f) throw missing();
      return f;
    },
    async createFunction(_ws, toolId, body) {
      await step('createFunction', [toolId, body]);
      write();
      const f = fnOf(toolId, body as Partial<ToolFunction>);
      find(toolId).functions.push(f);
      return f;
    },
    async updateFunction(_ws, toolId, body) {
      await step('updateFunction', [toolId, body]);
      write();
      const f = find(toolId).functions.find((x) => x.id === body.id);
      if (!f) throw missing();
      Object.assign(f, body, { updated_at: now() });
      return f;
    },
    async removeFunction(_ws, toolId, id) {
      await step('removeFunction', [toolId, id]);
      write();
      const t = find(toolId);
      t.functions = t.functions.filter((x) => x.id !== id);
      return null;
    },
    async testFunction(_ws, toolId, id, inputs): Promise<FunctionTestResult> {
      await step('testFunction', [toolId, id, inputs]);
      const f = find(toolId).functions.find((x) => x.id === id);
      if (!f) throw missing();
      const query = new URLSearchParams(Object.entries(inputs).map(([k, v]) => [k, String(v)])).toString();
      return {
        ok: true,
        request: { method: f.method, url: `${f.url}${query ? `?${query}` : ''}` },
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ received: inputs, temperature: 21.5, unit: 'C' }),
        elapsed_ms: 42,
        error: null,
      };
    },
    async mcpTools(_ws, id) {
      await step('mcpTools', [id]);
      if (opts.mcpFails) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: opts.mcpFails });
      const t = find(id);
      return { tools: (opts.mcpTools ?? []).map((x) => ({ ...x, enabled: t.mcp_enabled.includes(x.name) })) };
    },
    async toggleMcpTool(_ws, id, name, enabled) {
      await step('toggleMcpTool', [id, name, enabled]);
      write();
      const t = find(id);
      t.mcp_enabled = enabled ? [...new Set([...t.mcp_enabled, name])].sort() : t.mcp_enabled.filter((x) => x !== name);
      return plain(t);
    },
  };
  return api;
}

/** Demo data for stories and screen tests: a custom HTTP tool, an MCP server and a workflow tool. */
export const DEMO_TOOL_IDS = { weather: '0d000000-0000-4000-8000-000000000001', mcp: '0d000000-0000-4000-8000-000000000002', workflow: '0d000000-0000-4000-8000-000000000003' };
export const DEMO_FUNCTION_ID = '0d000000-0000-4000-8000-0000000000f1';

export function demoToolOptions(extra: MemoryToolOptions = {}): MemoryToolOptions {
  return {
    tools: [
      {
        id: DEMO_TOOL_IDS.workflow,
        name: 'Translate flow',
        intro: 'The translation workflow offered as a tool',
        type: 'workflow',
        icon: { icon: 'workflow', iconColor: '#DBEAFE' },
        functions: [{ name: 'run', method: 'POST', url: '', params: [{ param_key: 'text', data_type: 'string', request_type: 'query_params', is_not_null: true }] }],
      },
      {
        id: DEMO_TOOL_IDS.mcp,
        name: 'Filesystem',
        intro: 'Files on the build server over MCP',
        type: 'mcp',
        status: 'published',
        icon: { icon: 'globe', iconColor: '#E0E7FF' },
        mcp_config: { mcpServers: { Filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/data'], env: {} } } },
        mcp_enabled: ['read_file'],
        mcp_policy: extra.mcpNotAllowed ? { allowed: false, reason: 'command' } : { allowed: true, reason: null },
        reference_count: 1,
      },
      {
        id: DEMO_TOOL_IDS.weather,
        name: 'Weather API',
        intro: 'Current weather and forecasts for a city',
        status: 'published',
        reference_count: 3,
        functions: [
          {
            id: DEMO_FUNCTION_ID,
            name: 'get_weather',
            description: 'Current weather of a city',
            method: 'GET',
            url: 'https://api.weather.example.com/v1/current/{city}',
            auth: { type: 'api_key', location: 'query', key: 'appid', credential_id: '0e000000-0000-4000-8000-000000000001' },
            params: [
              { param_key: 'city', param_name: 'City', data_type: 'string', request_type: 'query_path', is_not_null: true, description: 'City name' },
              { param_key: 'units', data_type: 'string', request_type: 'query_params', optional_values: 'metric,imperial', default_value: 'metric' },
            ],
            response: [
              { param_key: 'temperature', data_type: 'decimal', is_array: false },
              { param_key: 'unit', data_type: 'string', is_array: false },
            ],
          },
          { name: 'get_forecast', description: 'Five-day forecast', method: 'GET', url: 'https://api.weather.example.com/v1/forecast' },
        ],
      },
    ],
    mcpTools: [
      { name: 'read_file', description: 'Read a file', input_schema: { type: 'object' } },
      { name: 'write_file', description: 'Write a file', input_schema: { type: 'object' } },
      { name: 'list_directory', description: 'List a directory', input_schema: { type: 'object' } },
    ],
    ...extra,
  };
}
