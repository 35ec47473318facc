/**
 * What the api tab needs from the server, behind a context so stories and tests can pass an in-memory
 * implementation (memory-api-tab-api.ts). The default is the real API (src/api/app-api.ts, apps.ts).
 */
import { createContext, useContext } from 'react';
import type { ApiKey, ApiKeyCreated, McpExposure } from '../../../../../schemas/app-api';
import type { FlowDocument } from '../../../../../schemas/flow';
import type { MemberRole } from '../../../../../schemas/workspace';
import { createApiKey, createMcpKey, getMcpExposure, listApiKeys, listMcpKeys, revokeApiKey, revokeMcpKey, setMcpExposure } from '../../../../api/app-api';
import { getAppVersion, listAppVersions } from '../../../../api/apps';
import { getWorkspace } from '../../../../api/workspaces';

/** The version the docs describe: the newest published one (the public API never runs the draft). */
export interface PublishedDoc {
  version: string;
  document: FlowDocument;
}

/** One list of keys (an app's, or a space's MCP keys) as the keys table uses it. */
export interface KeySource {
  list(): Promise<ApiKey[]>;
  create(body: { name: string; rate_limit_per_minute: number | null }): Promise<ApiKeyCreated>;
  revoke(keyId: string): Promise<unknown>;
}

export interface ApiTabApi {
  listKeys(appId: string, workspaceId: string): Promise<ApiKey[]>;
  createKey(appId: string, workspaceId: string, body: { name: string; rate_limit_per_minute: number | null }): Promise<ApiKeyCreated>;
  revokeKey(appId: string, workspaceId: string, keyId: string): Promise<unknown>;
  /** Null when the app has no published version yet. */
  published(appId: string, workspaceId: string): Promise<PublishedDoc | null>;
  /** The space's MCP exposure (workflow apps); null when it cannot be read. */
  mcp(workspaceId: string): Promise<McpExposure | null>;
  /** Sets the space's exposure (the space's owner). */
  setMcp(workspaceId: string, body: { enabled: boolean; app_ids: string[] }): Promise<McpExposure>;
  /** The keys of the space's MCP endpoint (any member lists; the owner creates and revokes). */
  listSpaceKeys(workspaceId: string): Promise<ApiKey[]>;
  createSpaceKey(workspaceId: string, body: { name: string; rate_limit_per_minute: number | null }): Promise<ApiKeyCreated>;
  revokeSpaceKey(workspaceId: string, keyId: string): Promise<unknown>;
  /** The caller's role in the project space (keys are created and revoked by owner and admin). */
  role(workspaceId: string): Promise<MemberRole | null>;
}

// Dialogs show their own errors (silent); the list and revoke toast through the request layer.
export const apiApiTabApi: ApiTabApi = {
  listKeys: (appId, workspaceId) => listApiKeys(workspaceId, appId),
  createKey: (appId, workspaceId, body) => createApiKey(workspaceId, appId, body, { reaction: 'silent' }),
  revokeKey: (appId, workspaceId, keyId) => revokeApiKey(workspaceId, appId, keyId),
  published: async (appId, workspaceId) => {
    const newest = (await listAppVersions(workspaceId, appId, { page: 1, page_size: 1 }, { reaction: 'silent' })).items[0];
    if (!newest) return null;
    const detail = await getAppVersion(workspaceId, appId, newest.id, { reaction: 'silent' });
    return { version: detail.version, document: detail.document };
  },
  mcp: (workspaceId) => getMcpExposure(workspaceId, { reaction: 'silent' }).catch(() => null),
  setMcp: (workspaceId, body) => setMcpExposure(workspaceId, body),
  listSpaceKeys: (workspaceId) => listMcpKeys(workspaceId),
  createSpaceKey: (workspaceId, body) => createMcpKey(workspaceId, body, { reaction: 'silent' }),
  revokeSpaceKey: (workspaceId, keyId) => revokeMcpKey(workspaceId, keyId),
  role: async (workspaceId) => (await getWorkspace(workspaceId, { reaction: 'silent' })).role_type ?? null,
};

/** The app's keys as a {@link KeySource}. */
export const appKeys = (api: ApiTabApi, appId: string, workspaceId: string): KeySource => ({
  list: () => api.listKeys(appId, workspaceId),
  create: (body) => api.createKey(appId, workspaceId, body),
  revoke: (keyId) => api.revokeKey(appId, workspaceId, keyId),
});

/** The space's MCP keys as a {@link KeySource}. */
export const spaceKeys = (api: ApiTabApi, workspaceId: string): KeySource => ({
  list: () => api.listSpaceKeys(workspaceId),
  create: (body) => api.createSpaceKey(workspaceId, body),
  revoke: (keyId) => api.revokeSpaceKey(workspaceId, keyId),
});

export const ApiTabApiContext = createContext<ApiTabApi>(apiApiTabApi);
export const useApiTabApi = () => useContext(ApiTabApiContext);
