/**
 * What the tool screens need from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-tool-api.ts). The default is the real API (src/api/tools).
 */
import { createContext, useContext } from 'react';
import type { z } from 'zod';
import type { PageQuery } from '../../../../schemas/common';
import type {
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
  ToolType,
  ToolUpdateBody,
  ToolVersion,
  WorkflowToolCreateBody,
} from '../../../../schemas/tool';
import type { Workspace } from '../../../../schemas/workspace';
import * as api from '../../../api/tools';
import { listApps } from '../../../api/apps';
import { listCredentials } from '../../../api/credentials';
import { getWorkspace } from '../../../api/workspaces';
import type { PagedAnswer } from '../../../kit/schema-table';

export type ToolQuery = z.input<typeof PageQuery> & { name?: string; type?: ToolType | '' };
export interface Choice {
  id: string;
  name: string;
}

/** A workflow app for the workflow tool picker: `version` is its newest published version (null: never published). */
export interface WorkflowAppChoice extends Choice {
  version: string | null;
}

export interface ToolApi {
  getWorkspace(ws: string): Promise<Workspace>;
  list(ws: string, q: ToolQuery): Promise<PagedAnswer<Tool>>;
  get(ws: string, id: string): Promise<ToolDetail>;
  /** The built-in (inner) tools. */
  builtin(ws: string): Promise<BuiltinToolsAnswer>;
  create(ws: string, body: ToolCreateBody): Promise<Tool>;
  update(ws: string, body: ToolUpdateBody): Promise<Tool>;
  remove(ws: string, id: string): Promise<unknown>;
  importOpenApi(ws: string, body: OpenApiImportBody): Promise<Tool>;
  createMcp(ws: string, body: McpCreateBody): Promise<Tool>;
  createWorkflow(ws: string, body: WorkflowToolCreateBody): Promise<Tool>;
  /** Workflow-mode apps of the workspace (the workflow tool's source; only published ones can be picked). */
  workflowApps(ws: string): Promise<WorkflowAppChoice[]>;
  /** Credentials of the workspace (the auth's secret). */
  credentials(ws: string): Promise<Choice[]>;
  publish(ws: string, id: string, note: string): Promise<Tool>;
  unpublish(ws: string, id: string): Promise<Tool>;
  versions(ws: string, id: string): Promise<ToolVersion[]>;
  getFunction(ws: string, toolId: string, id: string): Promise<ToolFunction>;
  createFunction(ws: string, toolId: string, body: FunctionCreateBody): Promise<ToolFunction>;
  updateFunction(ws: string, toolId: string, body: FunctionUpdateBody): Promise<ToolFunction>;
  removeFunction(ws: string, toolId: string, id: string): Promise<unknown>;
  testFunction(ws: string, toolId: string, id: string, inputs: Record<string, unknown>): Promise<FunctionTestResult>;
  mcpTools(ws: string, id: string): Promise<McpToolsAnswer>;
  toggleMcpTool(ws: string, id: string, name: string, enabled: boolean): Promise<Tool>;
}

// Forms and the MCP list show their own errors (silent); the rest toast through the request layer.
export const apiToolApi: ToolApi = {
  getWorkspace: (id) => getWorkspace(id),
  list: (workspaceId, q) => api.listTools({ ...q, name: q.name || undefined, type: q.type || undefined }, { workspaceId }),
  get: (workspaceId, id) => api.getTool(id, { workspaceId, reaction: 'silent' }),
  builtin: (workspaceId) => api.listBuiltinTools({ workspaceId }),
  create: (workspaceId, body) => api.createTool(body, { workspaceId, reaction: 'silent' }),
  update: (workspaceId, body) => api.updateTool(body, { workspaceId, reaction: 'silent' }),
  remove: (workspaceId, id) => api.deleteTool(id, { workspaceId }),
  importOpenApi: (workspaceId, body) => api.importOpenApi(body, { workspaceId, reaction: 'silent' }),
  createMcp: (workspaceId, body) => api.createMcpTool(body, { workspaceId, reaction: 'silent' }),
  createWorkflow: (workspaceId, body) => api.createWorkflowTool(body, { workspaceId, reaction: 'silent' }),
  workflowApps: async (workspaceId) => (await listApps(workspaceId, { type: 'workflow', page_size: 1000 })).items.map((a) => ({ id: a.id, name: a.name, version: a.latest_version ?? null })),
  credentials: async (workspaceId) => (await listCredentials({ page_size: 1000 }, { workspaceId })).items.map((c) => ({ id: c.id, name: c.identifier })),
  publish: (workspaceId, id, note) => api.publishTool(id, note, { workspaceId }),
  unpublish: (workspaceId, id) => api.unpublishTool(id, { workspaceId }),
  // Silent: a side list of the detail page, whose own load already reports a missing tool (one toast).
  versions: (workspaceId, id) => api.listToolVersions(id, { workspaceId, reaction: 'silent' }),
  getFunction: (workspaceId, toolId, id) => api.getFunction(toolId, id, { workspaceId, reaction: 'silent' }),
  createFunction: (workspaceId, toolId, body) => api.createFunction(toolId, body, { workspaceId, reaction: 'silent' }),
  updateFunction: (workspaceId, toolId, body) => api.updateFunction(toolId, body, { workspaceId, reaction: 'silent' }),
  removeFunction: (workspaceId, toolId, id) => api.deleteFunction(toolId, id, { workspaceId }),
  testFunction: (workspaceId, toolId, id, inputs) => api.testFunction(toolId, id, inputs, { workspaceId }),
  mcpTools: (workspaceId, id) => api.listMcpTools(id, { workspaceId, reaction: 'silent' }),
  toggleMcpTool: (workspaceId, id, name, enabled) => api.toggleMcpTool(id, name, enabled, { workspaceId }),
};

export const ToolApiContext = createContext<ToolApi>(apiToolApi);
export const useToolApi = () => useContext(ToolApiContext);
