/**
 * Plugin packages (issue 24): the admin group (spec 7.4 admin plugins, super admins only) and what
 * editors load of the installed packages (console).
 */
import { z } from 'zod';
import { EditorPlugin, InstalledPlugin, PluginDetail, PluginUpgradeResult } from '../../schemas/plugin-package';
import { AdminTool, AdminToolDetail } from '../../schemas/admin-tools';
import { CredentialsSchemaAnswer, PluginCredentials, PluginCredentialsAnswer } from '../../schemas/plugin-credentials';
import { SystemResource } from '../../schemas/system-resource';
import { call, request, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

export const pluginEndpoints = {
  list: { method: 'GET', url: '/api/v1/admin/plugins', name: 'admin.plugins.list' },
  install: { method: 'POST', url: '/api/v1/admin/plugins/install', name: 'admin.plugins.install' },
  get: { method: 'GET', url: '/api/v1/admin/plugins/:plugin_id', name: 'admin.plugins.get' },
  upgrade: { method: 'POST', url: '/api/v1/admin/plugins/:plugin_id/upgrade', name: 'admin.plugins.upgrade' },
  remove: { method: 'DELETE', url: '/api/v1/admin/plugins/:plugin_id', name: 'admin.plugins.delete' },
  installed: { method: 'GET', url: '/api/v1/console/plugins/installed', name: 'console.plugins.installed' },
  browserBundle: { method: 'GET', url: '/api/v1/console/plugins/:plugin_id/browser.mjs', name: 'console.plugins.browserBundle' },
} as const satisfies Record<string, Endpoint>;

const packageForm = (file: Blob, name = 'plugin.tgz') => {
  const fd = new FormData();
  fd.append('source', 'upload');
  fd.append('file', file, name);
  return fd;
};

export const listPlugins = (opts?: Opts) => call(z.array(InstalledPlugin), pluginEndpoints.list, undefined, opts);
export const getPlugin = (plugin_id: string, opts?: Opts) => call(PluginDetail, pluginEndpoints.get, { plugin_id }, opts);
export const installPlugin = (file: Blob & { name?: string }, opts?: Opts) => call(InstalledPlugin, pluginEndpoints.install, packageForm(file, file.name), opts);
export const upgradePlugin = (plugin_id: string, file: Blob & { name?: string }, opts?: Opts) =>
  call(PluginUpgradeResult, pluginEndpoints.upgrade, packageForm(file, file.name), { ...opts, path: { plugin_id } });
export const deletePlugin = (plugin_id: string, force = false, opts?: Opts) => call(z.null(), pluginEndpoints.remove, { plugin_id, force: String(force) }, opts);
export const listInstalledForEditor = (opts?: Opts) => call(z.array(EditorPlugin), pluginEndpoints.installed, undefined, opts);
export const fetchBrowserBundle = (plugin_id: string, checksum: string, opts?: Opts) =>
  request(pluginEndpoints.browserBundle, { plugin_id, v: checksum }, { ...opts, responseType: 'blob' });
/** Installs the package of a released plugin store listing (`version`: default its newest); the server checks it as an upload. */
export const installPluginFromStore = (store_item_id: string, version?: string, opts?: Opts) => {
  const fd = new FormData();
  fd.append('source', 'store');
  fd.append('store_item_id', store_item_id);
  if (version) fd.append('version', version);
  return call(InstalledPlugin, pluginEndpoints.install, fd, opts);
};

// ------------------------------------------------------------------ credentials, tools, resources

export const pluginCredentialEndpoints = {
  schema: { method: 'GET', url: '/api/v1/console/plugins/:plugin_id/credentials-schema', name: 'console.plugins.credentialsSchema' },
  get: { method: 'GET', url: '/api/v1/console/plugins/:plugin_id/credentials', name: 'console.plugins.credentials.get' },
  create: { method: 'POST', url: '/api/v1/console/plugins/:plugin_id/credentials', name: 'console.plugins.credentials.create' },
  update: { method: 'PUT', url: '/api/v1/console/plugins/:plugin_id/credentials', name: 'console.plugins.credentials.update' },
  remove: { method: 'DELETE', url: '/api/v1/console/plugins/:plugin_id/credentials', name: 'console.plugins.credentials.delete' },
  tools: { method: 'GET', url: '/api/v1/admin/tools', name: 'admin.tools.list' },
  toolDetail: { method: 'GET', url: '/api/v1/admin/tools/detail', name: 'admin.tools.detail' },
  toolCredentials: { method: 'GET', url: '/api/v1/admin/tools/credentials', name: 'admin.tools.credentials.get' },
  toolCredentialsPut: { method: 'PUT', url: '/api/v1/admin/tools/credentials', name: 'admin.tools.credentials.put' },
  toolCredentialsDelete: { method: 'DELETE', url: '/api/v1/admin/tools/credentials', name: 'admin.tools.credentials.delete' },
  toolCredentialsSchema: { method: 'GET', url: '/api/v1/admin/tools/credentials-schema', name: 'admin.tools.credentialsSchema' },
  resource: { method: 'GET', url: '/api/v1/admin/system/resource', name: 'admin.system.resource' },
} as const satisfies Record<string, Endpoint>;

type CredentialValues = Record<string, string | number | boolean | null>;
const e = pluginCredentialEndpoints;

export const getPluginCredentials = (plugin_id: string, opts?: Opts) => call(PluginCredentialsAnswer, e.get, { plugin_id }, opts);
export const createPluginCredentials = (plugin_id: string, values: CredentialValues, opts?: Opts) => call(PluginCredentials, e.create, { values }, { ...opts, path: { plugin_id } });
export const updatePluginCredentials = (plugin_id: string, values: CredentialValues, opts?: Opts) => call(PluginCredentials, e.update, { values }, { ...opts, path: { plugin_id } });
export const deletePluginCredentials = (plugin_id: string, opts?: Opts) => call(z.null(), e.remove, { plugin_id }, opts);
export const getPluginCredentialsSchema = (plugin_id: string, opts?: Opts) => call(CredentialsSchemaAnswer, e.schema, { plugin_id }, opts);

export const listAdminTools = (opts?: Opts) => call(z.array(AdminTool), e.tools, undefined, opts);
export const getAdminTool = (tool_id: string, opts?: Opts) => call(AdminToolDetail, e.toolDetail, { tool_id }, opts);
export const getAdminToolCredentials = (tool_id: string, opts?: Opts) => call(PluginCredentialsAnswer, e.toolCredentials, { tool_id }, opts);
export const putAdminToolCredentials = (tool_id: string, values: CredentialValues, opts?: Opts) => call(PluginCredentials, e.toolCredentialsPut, { values }, { ...opts, query: { tool_id } });
export const deleteAdminToolCredentials = (tool_id: string, opts?: Opts) => call(z.null(), e.toolCredentialsDelete, { tool_id }, opts);
export const getAdminToolCredentialsSchema = (tool_id: string, opts?: Opts) => call(CredentialsSchemaAnswer, e.toolCredentialsSchema, { tool_id }, opts);

export const getSystemResource = (opts?: Opts) => call(SystemResource, e.resource, undefined, opts);
