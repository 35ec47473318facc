/**
 * What the app list needs from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-app-api.ts). The default is the real API (src/api/apps.ts).
 */
import { createContext, useContext } from 'react';
import type { App, AppIcon, AppStatus, AppType } from '../../../../schemas/app';
import type { Workspace } from '../../../../schemas/workspace';
import type { AppImportResult } from '../../../../schemas/app-import';
import { createApp, deleteApp, importApp, listApps, setAppStatus, updateApp, type AppListParams } from '../../../api/apps';
import { setDigitalHuman } from '../../../api/digital-humans';
import { uploadFile } from '../../../api/files';
import { getWorkspace } from '../../../api/workspaces';

export interface AppPage {
  items: App[];
  total: number;
  page: number;
  page_size: number;
}

export interface AppFields {
  name: string;
  description: string;
  icon: AppIcon;
}

export interface AppApi {
  /** The project space, for the caller's role (spec 6: only owner and admin delete apps). */
  getWorkspace(workspaceId: string): Promise<Workspace>;
  listApps(workspaceId: string, q: AppListParams): Promise<AppPage>;
  createApp(workspaceId: string, body: AppFields & { type: AppType }): Promise<App>;
  updateApp(workspaceId: string, id: string, body: Partial<AppFields>): Promise<App>;
  deleteApp(workspaceId: string, id: string): Promise<unknown>;
  setStatus(workspaceId: string, id: string, status: AppStatus): Promise<App>;
  /** Makes a new app a digital human of a kind (its character is chosen on its digital-human page). Absent: not offered. */
  makeDigitalHuman?: (workspaceId: string, appId: string, kind: 'conversation' | 'broadcast') => Promise<unknown>;
  /** A new app from a flow file's text (Dify DSL or ours). Absent: no "Create from file". */
  importApp?: (workspaceId: string, content: string) => Promise<AppImportResult>;
  /**
   * Stores an uploaded icon image. Absent: the icon picker offers only the 7 colours and 9 icons.
   * The real API stores it as an 'icon' file, shown through the public icon route (an <img> sends no bearer).
   */
  uploadIcon?: (file: File) => Promise<{ iconPath: string; iconId?: string }>;
}

export const apiAppApi: AppApi = {
  getWorkspace: (id) => getWorkspace(id),
  listApps: (id, q) => listApps(id, q),
  // The dialog shows these failures itself (a taken name on the name field).
  createApp: (id, body) => createApp(id, body, { reaction: 'silent' }),
  updateApp: (id, appId, body) => updateApp(id, { id: appId, ...body }, { reaction: 'silent' }),
  deleteApp: (id, appId) => deleteApp(id, appId),
  setStatus: (id, appId, status) => setAppStatus(id, appId, status),
  makeDigitalHuman: (workspaceId, appId, kind) => setDigitalHuman(appId, { kind, character_id: null }, { workspaceId }),
  // The dialog shows why a file cannot be imported.
  importApp: (id, content) => importApp(id, { content }, { reaction: 'silent' }),
  uploadIcon: async (file) => {
    const f = await uploadFile(file, 'icon');
    return { iconPath: iconUrl(f.id), iconId: f.id };
  },
};

/** Where an uploaded icon is served (public: icons are shown in <img>, which sends no bearer token). */
export const iconUrl = (fileId: string) => `/api/v1/common/files/${encodeURIComponent(fileId)}/icon`;

export const AppApiContext = createContext<AppApi>(apiAppApi);

export const useAppApi = () => useContext(AppApiContext);
