/**
 * CONSOLE calls of an app as a service (issue 22, schemas/app-api.ts): the app's API keys, its overview
 * figures per day, and the MCP exposure of a project space's workflow apps. The public API itself
 * (`/v1/...`) is called with an app key, never from the console: the api tab only documents it.
 */
import { z } from 'zod';
import { ApiKey, ApiKeyCreated, McpExposure, Overview, type ApiKeyCreateBody, type McpExposureBody, type OverviewQuery } from '../../schemas/app-api';

export type McpExposureInput = z.infer<typeof McpExposureBody>;
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const app = '/api/v1/console/apps/:app_id';
export const appApiEndpoints = {
  listKeys: { method: 'GET', url: `${app}/api-keys`, name: 'appApi.listKeys' },
  createKey: { method: 'POST', url: `${app}/api-keys`, name: 'appApi.createKey' },
  revokeKey: { method: 'DELETE', url: `${app}/api-keys/:key_id`, name: 'appApi.revokeKey' },
  overview: { method: 'GET', url: `${app}/overview`, name: 'appApi.overview' },
  mcp: { method: 'GET', url: '/api/v1/console/workspaces/:workspace_id/mcp', name: 'appApi.mcp' },
  setMcp: { method: 'PUT', url: '/api/v1/console/workspaces/:workspace_id/mcp', name: 'appApi.setMcp' },
  listMcpKeys: { method: 'GET', url: '/api/v1/console/workspaces/:workspace_id/mcp/keys', name: 'appApi.listMcpKeys' },
  createMcpKey: { method: 'POST', url: '/api/v1/console/workspaces/:workspace_id/mcp/keys', name: 'appApi.createMcpKey' },
  revokeMcpKey: { method: 'DELETE', url: '/api/v1/console/workspaces/:workspace_id/mcp/keys/:key_id', name: 'appApi.revokeMcpKey' },
} as const satisfies Record<string, Endpoint>;

/** The app's live keys, masked (`wk-abcd…wxyz`), newest first; any member of its space. */
export const listApiKeys = (workspace_id: string, app_id: string, opts?: Opts) => call(z.array(ApiKey), appApiEndpoints.listKeys, { app_id }, { workspaceId: workspace_id, ...opts });

/**
 * Creates a key (owner and admin). The answer is the only place its secret ever appears: show it once,
 * keep it nowhere.
 */
export const createApiKey = (workspace_id: string, app_id: string, body: z.input<typeof ApiKeyCreateBody>, opts?: Opts) =>
  call(ApiKeyCreated, appApiEndpoints.createKey, { app_id, ...body }, { workspaceId: workspace_id, ...opts });

/** Revokes a key at once (owner and admin): calls with it answer 401 from then on. */
export const revokeApiKey = (workspace_id: string, app_id: string, key_id: string, opts?: Opts) =>
  call(z.unknown(), appApiEndpoints.revokeKey, { app_id, key_id }, { workspaceId: workspace_id, ...opts });

/** The overview's figures per day over a log period (spec 9), days cut in `tz` (an IANA zone). */
export const getOverview = (workspace_id: string, app_id: string, q: Partial<OverviewQuery> = {}, opts?: Opts) =>
  call(Overview, appApiEndpoints.overview, { app_id, ...q }, { workspaceId: workspace_id, ...opts });

/** Which published workflow apps of the space its MCP server offers, and where (any member reads). */
export const getMcpExposure = (workspace_id: string, opts?: Opts) => call(McpExposure, appApiEndpoints.mcp, { workspace_id }, { workspaceId: workspace_id, ...opts });

/** Sets the space's MCP exposure (the space's owner). */
export const setMcpExposure = (workspace_id: string, body: McpExposureInput, opts?: Opts) =>
  call(McpExposure, appApiEndpoints.setMcp, { workspace_id, ...body }, { workspaceId: workspace_id, ...opts });

/** The keys of the space's MCP endpoint, masked, newest first (any member). */
export const listMcpKeys = (workspace_id: string, opts?: Opts) => call(z.array(ApiKey), appApiEndpoints.listMcpKeys, { workspace_id }, { workspaceId: workspace_id, ...opts });

/** Creates a key of the space's MCP endpoint (the owner); the secret is in this answer only. */
export const createMcpKey = (workspace_id: string, body: z.input<typeof ApiKeyCreateBody>, opts?: Opts) =>
  call(ApiKeyCreated, appApiEndpoints.createMcpKey, { workspace_id, ...body }, { workspaceId: workspace_id, ...opts });

/** Revokes a key of the space's MCP endpoint (the owner). */
export const revokeMcpKey = (workspace_id: string, key_id: string, opts?: Opts) =>
  call(z.unknown(), appApiEndpoints.revokeMcpKey, { workspace_id, key_id }, { workspaceId: workspace_id, ...opts });
