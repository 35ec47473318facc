import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Tool, ToolFunction } from '../../../../schemas/tool';
import { replaceExports } from '../../../../tests/unit/replace-exports';
import * as datasetsApi from '../../../api/datasets';
import * as toolsApi from '../../../api/tools';
import { builtinToolOption, functionParameters, mcpServerOption, schemaParameters, toolOption, workspaceResources } from './workspace-resources';

const api = { listTools: vi.fn(), getTool: vi.fn(), listBuiltinTools: vi.fn(), listDatasets: vi.fn() };
beforeAll(() => {
  replaceExports(toolsApi, { listTools: api.listTools, getTool: api.getTool, listBuiltinTools: api.listBuiltinTools });
  replaceExports(datasetsApi, { listDatasets: api.listDatasets });
});

afterEach(() => vi.clearAllMocks());

const fn = (over: Partial<ToolFunction>): ToolFunction => ({
  id: 'f1',
  tool_id: 't1',
  name: 'search',
  description: '',
  method: 'GET',
  url: 'https://example.com/search',
  auth: { type: 'none' },
  params: [],
  headers: [],
  body: [],
  body_subtype: 'json',
  response: [],
  enabled: true,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
  ...over,
});

const tool = (over: Partial<Tool>): Tool => ({
  id: 't1',
  workspace_id: 'w1',
  icon: { icon: 'wrench', iconColor: '#CCFBF1' },
  name: 'Search',
  intro: '',
  type: 'custom',
  status: 'draft',
  function_count: 1,
  reference_count: 0,
  auth: { type: 'none' },
  mcp_config: null,
  mcp_enabled: [],
  mcp_policy: null,
  workflow_app_id: null,
  install_method: 'manual',
  published_version: 0,
  created_by: 'u1',
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
  ...over,
});

describe('tool function parameters', () => {
  it('are the query and path rows, header placeholders and the body unless the method sends none', () => {
    const f = fn({
      method: 'POST',
      params: [
        { param_key: 'q', param_name: 'Query', description: 'What to find', data_type: 'string', is_not_null: true, request_type: 'query_params' },
        { param_key: 'page', data_type: 'integer', is_not_null: true, default_value: '1', request_type: 'query_params' },
      ],
      headers: [{ param_key: 'X-Tenant', param_value: 'tenant-{tenant}', data_type: 'string' }],
      body: [
        {
          param_key: 'data',
          data_type: 'object',
          request_type: 'body',
          children: [
            { param_key: 'tags', data_type: 'string', is_array: true, request_type: 'body' },
            { param_key: 'exact', data_type: 'boolean', request_type: 'body' },
          ],
        },
      ],
    });
    expect(functionParameters(f)).toEqual([
      { name: 'q', type: 'string', required: true, description: 'Query: What to find' },
      // A default value makes a parameter optional.
      { name: 'page', type: 'integer', required: false },
      { name: 'tenant', type: 'string', required: true },
      { name: 'tags', type: 'array[string]', required: false },
      { name: 'exact', type: 'boolean', required: false },
    ]);
    expect(functionParameters({ ...f, method: 'GET' }).map((p) => p.name)).toEqual(['q', 'page', 'tenant']);
  });

  it('of a JSON Schema (built-in and MCP tools)', () => {
    expect(
      schemaParameters({ type: 'object', properties: { url: { type: 'string', description: 'Page address' }, ids: { type: 'array', items: { type: 'number' } } }, required: ['url'] }),
    ).toEqual([
      { name: 'url', type: 'string', required: true, description: 'Page address' },
      { name: 'ids', type: 'array[number]', required: false },
    ]);
    expect(schemaParameters(undefined)).toEqual([]);
  });
});

describe('picker rows', () => {
  it('a tool lists its switched-on functions by id with their parameters', () => {
    const opt = toolOption({
      id: 't1',
      name: 'Search',
      intro: 'Finds things',
      functions: [fn({ params: [{ param_key: 'q', data_type: 'string', request_type: 'query_params' }] }), fn({ id: 'f2', name: 'off', enabled: false })],
    });
    expect(opt).toEqual({ id: 't1', name: 'Search', description: 'Finds things', functions: [{ id: 'f1', name: 'search', parameters: [{ name: 'q', type: 'string', required: false }] }] });
  });

  it('an MCP server lists its switched-on tools; the built-in tools are one tool named by function name', () => {
    expect(mcpServerOption(tool({ id: 'm1', name: 'files', type: 'mcp', mcp_enabled: ['read_file'] }))).toEqual({ id: 'm1', name: 'files', tools: [{ id: 'read_file', name: 'read_file' }] });
    const builtin = builtinToolOption(
      { provider: 'builtin', tools: [{ name: 'current_time', description: 'Now', parameters: { type: 'object', properties: { timezone: { type: 'string' } } } }] },
      'Built-in tools',
    );
    expect(builtin).toEqual({ id: 'builtin', name: 'Built-in tools', functions: [{ id: 'current_time', name: 'current_time', description: 'Now', parameters: [{ name: 'timezone', type: 'string', required: false }] }] });
  });
});

describe('workspaceResources', () => {
  const signal = new AbortController().signal;

  it('loads custom and workflow tools with their functions, then the built-in tools; MCP tools as servers', async () => {
    api.listTools.mockImplementation(async (q: { type?: string }) =>
      q.type === 'mcp'
        ? { items: [tool({ id: 'm1', name: 'files', type: 'mcp', mcp_enabled: ['read_file'] })] }
        : {
            items: [
              tool({ id: 't1', name: 'Search' }),
              tool({ id: 't2', name: 'Empty', function_count: 0 }),
              tool({ id: 'w1', name: 'Report', type: 'workflow' }),
              tool({ id: 'm1', name: 'files', type: 'mcp' }),
            ],
          },
    );
    api.getTool.mockImplementation(async (id: string) => ({ ...tool({ id }), name: id === 'w1' ? 'Report' : 'Search', functions: [fn({ id: `${id}-f`, name: id === 'w1' ? 'run' : 'search' })] }));
    api.listBuiltinTools.mockResolvedValue({ provider: 'builtin', tools: [{ name: 'calculator', description: '', parameters: {} }] });
    const r = workspaceResources('w1', { builtinTools: 'Built-in tools' });
    const tools = await r.tools!.list({ signal });
    expect(tools.map((t) => [t.id, t.name, t.functions.map((f) => f.id)])).toEqual([
      ['t1', 'Search', ['t1-f']],
      ['t2', 'Empty', []],
      ['w1', 'Report', ['w1-f']],
      ['builtin', 'Built-in tools', ['calculator']],
    ]);
    // One detail call per tool that has functions, in the app's project space.
    expect(api.getTool.mock.calls.map((c) => c[0])).toEqual(['t1', 'w1']);
    expect(api.getTool.mock.calls[0][1]).toMatchObject({ workspaceId: 'w1', signal });
    expect(await r.mcpServers!.list({ signal })).toEqual([{ id: 'm1', name: 'files', tools: [{ id: 'read_file', name: 'read_file' }] }]);
    expect(api.listTools).toHaveBeenLastCalledWith({ page_size: 1000, type: 'mcp' }, expect.objectContaining({ workspaceId: 'w1' }));
  });

  it('still lists the workspace tools when the built-in list fails, and loads knowledge bases', async () => {
    api.listTools.mockResolvedValue({ items: [tool({ function_count: 0 })] });
    api.listBuiltinTools.mockRejectedValue(new Error('down'));
    api.listDatasets.mockResolvedValue({ items: [{ id: 'd1', name: 'Manual', description: '' }, { id: 'd2', name: 'FAQ', description: 'Questions' }] });
    const r = workspaceResources('w1', { builtinTools: 'Built-in tools' });
    expect((await r.tools!.list({ signal })).map((t) => t.id)).toEqual(['t1']);
    expect(await r.knowledgeBases!.list({ signal })).toEqual([
      { id: 'd1', name: 'Manual' },
      { id: 'd2', name: 'FAQ', description: 'Questions' },
    ]);
    expect(api.listDatasets).toHaveBeenCalledWith({ page_size: 1000 }, expect.objectContaining({ workspaceId: 'w1', reaction: 'silent' }));
  });
});
