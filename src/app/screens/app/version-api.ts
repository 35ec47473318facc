/**
 * What the version tab needs from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-version-api.ts). The default is the real API (src/api/apps.ts).
 */
import { createContext, useContext } from 'react';
import type { AppDraft, AppPublishInput, AppVersion, AppVersionDetail, DraftSaved, DraftSaveInput } from '../../../../schemas/app';
import type { MemberRole } from '../../../../schemas/workspace';
import { deleteAppVersion, getAppDraft, getAppVersion, listAppVersions, publishApp, saveAppDraft } from '../../../api/apps';
import { getWorkspace } from '../../../api/workspaces';
import type { PagedAnswer } from '../../../kit/schema-table';
import { prefetchDraft } from './draft-prefetch';

export interface VersionApi {
  list(appId: string, workspaceId: string, q: { page: number; page_size: number }): Promise<PagedAnswer<AppVersion>>;
  publish(appId: string, workspaceId: string, body: AppPublishInput): Promise<AppVersion>;
  get(appId: string, workspaceId: string, versionId: string): Promise<AppVersionDetail>;
  remove(appId: string, workspaceId: string, versionId: string): Promise<unknown>;
  /** The draft as stored now (its revision is the base of a restore). */
  draft(appId: string, workspaceId: string): Promise<AppDraft>;
  /** The normal draft save (PUT /apps/workflow): a stale base revision answers 409 CONFLICT-1000. */
  saveDraft(workspaceId: string, body: DraftSaveInput): Promise<DraftSaved>;
  /** The caller's role in the project space (publish and delete are for owner and admin). */
  role(workspaceId: string): Promise<MemberRole | null>;
  /** After a restore: the canvas must not open on a draft prefetched before it (draft-prefetch.ts). */
  restored?(appId: string, workspaceId: string): void;
}

// Forms and the restore flow show their own errors (silent); the rest toast through the request layer.
export const apiVersionApi: VersionApi = {
  list: (appId, workspaceId, q) => listAppVersions(workspaceId, appId, q),
  publish: (appId, workspaceId, body) => publishApp(workspaceId, appId, body, { reaction: 'silent' }),
  get: (appId, workspaceId, versionId) => getAppVersion(workspaceId, appId, versionId),
  remove: (appId, workspaceId, versionId) => deleteAppVersion(workspaceId, appId, versionId),
  draft: (appId, workspaceId) => getAppDraft(workspaceId, appId),
  saveDraft: (workspaceId, body) => saveAppDraft(workspaceId, body, { reaction: 'silent' }),
  role: async (workspaceId) => (await getWorkspace(workspaceId)).role_type ?? null,
  // Replaces a prefetched draft (from opening the editor) by the restored one.
  restored: (appId, workspaceId) => prefetchDraft({ id: appId, workspace_id: workspaceId }),
};

export const VersionApiContext = createContext<VersionApi>(apiVersionApi);
export const useVersionApi = () => useContext(VersionApiContext);
