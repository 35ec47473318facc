/**
 * Plugin packages (issue 24): the admin group (spec 7.4 admin plugins, super admins only) and what
 * editors load of the installed packages (console).
 */
import { z } from 'zod';
import { EditorPlugin, InstalledPlugin, PluginDetail, PluginUpgradeResult } from '../../schemas/plugin-package';
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
