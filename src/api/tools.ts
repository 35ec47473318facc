/** CONSOLE tools group (spec 3 "Tool", "Tool function"; 7.5 tools): tools, functions, publishing, MCP servers, workflow tools. */
import { z } from 'zod';
import { page } from '../../schemas/common';
import {
  BuiltinToolsAnswer,
  FunctionCreateBody,
  FunctionTestResult,
  FunctionUpdateBody,
  McpCreateBody,
  McpToolsAnswer,
  OpenApiImportBody,
  Tool,
  ToolCreateBody,
  ToolDetail,
  ToolFunction,
  ToolListQuery,
  ToolUpdateBody,
  ToolVersion,
  WorkflowToolCreateBody,
} from '../../schemas/tool';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/tools';
export const toolEndpoints = {
  list: { method: 'GET', url: base, name: 'tools.list' },
  create: { method: 'POST', url: base, name: 'tools.create' },
  update: { method: 'PUT', url: base, name: 'tools.update' },
  builtin: { method: 'GET', url: `${base}/builtin`, name: 'tools.builtin' },
  get: { method: 'GET', url: `${base}/:tool_id`, name: 'tools.get' },
  remove: { method: 'DELETE', url: `${base}/:tool_id`, name: 'tools.remove' },
  importOpenApi: { method: 'POST', url: `${base}/import-openapi`, name: 'tools.importOpenApi' },
  createMcp: { method: 'POST', url: `${base}/mcp`, name: 'tools.createMcp' },
  createWorkflow: { method: 'POST', url: `${base}/workflow`, name: 'tools.createWorkflow' },
  publish: { method: 'POST', url: `${base}/:tool_id/publish`, name: 'tools.publish' },
  unpublish: { method: 'POST', url: `${base}/:tool_id/unpublish`, name: 'tools.unpublish' },
  versions: { method: 'GET', url: `${base}/:tool_id/versions`, name: 'tools.versions' },
  createFunction: { method: 'POST', url: `${base}/:tool_id/functions`, name: 'tools.createFunction' },
  updateFunction: { method: 'PUT', url: `${base}/:tool_id/functions`, name: 'tools.updateFunction' },
  getFunction: { method: 'GET', url: `${base}/:tool_id/functions/:function_id`, name: 'tools.getFunction' },
  removeFunction: { method: 'DELETE', url: `${base}/:tool_id/functions/:function_id`, name: 'tools.removeFunction' },
  testFunction: { method: 'POST', url: `${base}/:tool_id/functions/:function_id/test`, name: 'tools.testFunction' },
  mcpTools: { method: 'GET', url: `${base}/:tool_id/mcp-tools`, name: 'tools.mcpTools' },
  toggleMcpTool: { method: 'PUT', url: `${base}/:tool_id/mcp-tools/:name`, name: 'tools.toggleMcpTool' },
} as const satisfies Record<string, Endpoint>;

export type ToolListParams = Partial<z.input<typeof ToolListQuery>>;

export const listTools = (q: ToolListParams = {}, opts?: Opts) => call(page(Tool), toolEndpoints.list, { ...q }, opts);
export const createTool = (body: z.input<typeof ToolCreateBody>, opts?: Opts) => call(Tool, toolEndpoints.create, body, opts);
export const updateTool = (body: z.input<typeof ToolUpdateBody>, opts?: Opts) => call(Tool, toolEndpoints.update, body, opts);
export const getTool = (tool_id: string, opts?: Opts) => call(ToolDetail, toolEndpoints.get, { tool_id }, opts);
/** Refused (VALIDATION-1000, data.reference_count) while apps use the tool. */
export const deleteTool = (tool_id: string, opts?: Opts) => call(z.null(), toolEndpoints.remove, { tool_id }, opts);
export const importOpenApi = (body: z.input<typeof OpenApiImportBody>, opts?: Opts) => call(Tool, toolEndpoints.importOpenApi, body, opts);
export const createMcpTool = (body: z.input<typeof McpCreateBody>, opts?: Opts) => call(Tool, toolEndpoints.createMcp, body, opts);
export const createWorkflowTool = (body: z.input<typeof WorkflowToolCreateBody>, opts?: Opts) => call(Tool, toolEndpoints.createWorkflow, body, opts);
export const publishTool = (tool_id: string, note = '', opts?: Opts) => call(Tool, toolEndpoints.publish, { tool_id, note }, opts);
export const unpublishTool = (tool_id: string, opts?: Opts) => call(Tool, toolEndpoints.unpublish, { tool_id }, opts);
export const listToolVersions = (tool_id: string, opts?: Opts) => call(z.array(ToolVersion), toolEndpoints.versions, { tool_id }, opts);
export const createFunction = (tool_id: string, body: z.input<typeof FunctionCreateBody>, opts?: Opts) => call(ToolFunction, toolEndpoints.createFunction, { ...body, tool_id }, opts);
export const updateFunction = (tool_id: string, body: z.input<typeof FunctionUpdateBody>, opts?: Opts) => call(ToolFunction, toolEndpoints.updateFunction, { ...body, tool_id }, opts);
export const getFunction = (tool_id: string, function_id: string, opts?: Opts) => call(ToolFunction, toolEndpoints.getFunction, { tool_id, function_id }, opts);
export const deleteFunction = (tool_id: string, function_id: string, opts?: Opts) => call(z.null(), toolEndpoints.removeFunction, { tool_id, function_id }, opts);
/** Calls the function with sample inputs; a failed call comes back as a result with `error`. */
export const testFunction = (tool_id: string, function_id: string, inputs: Record<string, unknown>, opts?: Opts) =>
  call(FunctionTestResult, toolEndpoints.testFunction, { tool_id, function_id, inputs }, opts);
/** Connects to the MCP server now; a failure is VALIDATION-1000 with the reason in msg. */
export const listMcpTools = (tool_id: string, opts?: Opts) => call(McpToolsAnswer, toolEndpoints.mcpTools, { tool_id }, opts);
export const toggleMcpTool = (tool_id: string, name: string, enabled: boolean, opts?: Opts) => call(Tool, toolEndpoints.toggleMcpTool, { tool_id, name, enabled }, opts);
/** The built-in (inner) tools every workspace has. */
export const listBuiltinTools = (opts?: Opts) => call(BuiltinToolsAnswer, toolEndpoints.builtin, {}, opts);
