/** CONSOLE apps group (spec 7.5 "apps"): apps of a project space and their draft flow. */
import { z } from 'zod';
import { page } from '../../schemas/common';
import {
  App,
  AppCreateBody,
  AppDetail,
  AppDraft,
  AppListQuery,
  AppUpdateBody,
  AppVersion,
  AppVersionDetail,
  DraftSaved,
  type AppPublishInput,
  type AppStatus,
  type DraftSaveInput,
} from '../../schemas/app';
import { AppImportResult, type AppImportBody } from '../../schemas/app-import';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/apps';
export const appEndpoints = {
  list: { method: 'GET', url: base, name: 'apps.list' },
  create: { method: 'POST', url: base, name: 'apps.create' },
  update: { method: 'PUT', url: base, name: 'apps.update' },
  saveDraft: { method: 'PUT', url: `${base}/workflow`, name: 'apps.saveDraft' },
  get: { method: 'GET', url: `${base}/:app_id`, name: 'apps.get' },
  draft: { method: 'GET', url: `${base}/:app_id/workflow`, name: 'apps.draft' },
  remove: { method: 'DELETE', url: `${base}/:app_id`, name: 'apps.remove' },
  setStatus: { method: 'PUT', url: `${base}/:app_id/status/:status`, name: 'apps.setStatus' },
  versions: { method: 'GET', url: `${base}/:app_id/publish`, name: 'apps.versions' },
  publish: { method: 'POST', url: `${base}/:app_id/publish`, name: 'apps.publish' },
  version: { method: 'GET', url: `${base}/:app_id/publish/:version_id`, name: 'apps.version' },
  removeVersion: { method: 'DELETE', url: `${base}/:app_id/publish/:version_id`, name: 'apps.removeVersion' },
  import: { method: 'POST', url: `${base}/import`, name: 'apps.import' },
  importInto: { method: 'POST', url: `${base}/:app_id/import`, name: 'apps.importInto' },
} as const satisfies Record<string, Endpoint>;

export type AppListParams = Partial<z.input<typeof AppListQuery>>;
export type AppCreateInput = z.input<typeof AppCreateBody>;
export type AppUpdateInput = z.input<typeof AppUpdateBody>;

/**
 * Apps of the project space `workspace_id` (sent as X-Workspace-Id), newest first; `name` filters by
 * substring (any case). Spec 9: 20 a page by default.
 */
export const listApps = (workspace_id: string, q: AppListParams = {}, opts?: Opts) =>
  call(page(App), appEndpoints.list, { page: 1, page_size: 20, ...q }, { workspaceId: workspace_id, ...opts });

/** Creates an app (any member); name, description, type and icon are required (spec 5). */
export const createApp = (workspace_id: string, body: AppCreateInput, opts?: Opts) =>
  call(App, appEndpoints.create, body, { workspaceId: workspace_id, ...opts });

/**
 * A new app from a flow file's text (a Dify DSL file or one exported here), with the import's report.
 * A file that cannot be imported: VALIDATION-1000 with `data.errors` (keys of the `dsl` namespace).
 */
export const importApp = (workspace_id: string, body: AppImportBody, opts?: Opts) => call(AppImportResult, appEndpoints.import, body, { workspaceId: workspace_id, ...opts });

/**
 * Replaces an app's draft with a flow file's flow (the editor's import; a new draft revision), with
 * the same report. A file of another mode answers APP-1001; one that cannot be imported
 * VALIDATION-1000 with `data.errors`. Nothing changes on a refusal.
 */
export const importIntoApp = (workspace_id: string, app_id: string, body: AppImportBody, opts?: Opts) =>
  call(AppImportResult, appEndpoints.importInto, { app_id, ...body }, { workspaceId: workspace_id, ...opts });

/** Changes name, description or icon (any member); `id` plus the fields to change. The type never changes. */
export const updateApp = (workspace_id: string, body: AppUpdateInput, opts?: Opts) =>
  call(App, appEndpoints.update, body, { workspaceId: workspace_id, ...opts });

/**
 * One app with its draft. Without `workspace_id` no X-Workspace-Id is sent and the server uses the
 * app's own project space (the app guard); members only, otherwise 400 VALIDATION-1000.
 */
export const getApp = (app_id: string, workspace_id?: string | null, opts?: Opts) =>
  call(AppDetail, appEndpoints.get, { app_id }, { workspaceId: workspace_id ?? null, ...opts });

/** The draft flow document and its revision. */
export const getAppDraft = (workspace_id: string, app_id: string, opts?: Opts) =>
  call(AppDraft, appEndpoints.draft, { app_id }, { workspaceId: workspace_id, ...opts });

/**
 * Saves the draft. A stale `base_revision` answers 409 CONFLICT-1000 with the stored revision in the
 * error's `data` (schemas/app.ts DraftConflict); re-send with that revision to overwrite.
 */
export const saveAppDraft = (workspace_id: string, body: DraftSaveInput, opts?: Opts) =>
  call(DraftSaved, appEndpoints.saveDraft, { ...body }, { workspaceId: workspace_id, ...opts });

/** Deletes an app and its draft (owner and admin only; others get 403). */
export const deleteApp = (workspace_id: string, app_id: string, opts?: Opts) =>
  call(z.null(), appEndpoints.remove, { app_id }, { workspaceId: workspace_id, ...opts });

/** Sets an app's status, active or inactive (any member). */
export const setAppStatus = (workspace_id: string, app_id: string, status: AppStatus, opts?: Opts) =>
  call(App, appEndpoints.setStatus, { app_id, status }, { workspaceId: workspace_id, ...opts });

/** The app's published versions, newest first (any member); 20 a page by default. */
export const listAppVersions = (workspace_id: string, app_id: string, q: { page?: number; page_size?: number } = {}, opts?: Opts) =>
  call(page(AppVersion), appEndpoints.versions, { app_id, page: 1, page_size: 20, ...q }, { workspaceId: workspace_id, ...opts });

/**
 * Publishes the current draft as `version` (owner and admin). A taken number answers VALIDATION-1001;
 * a draft that cannot run VALIDATION-1000 with the problems in the message and `data`.
 */
export const publishApp = (workspace_id: string, app_id: string, body: AppPublishInput, opts?: Opts) =>
  call(AppVersion, appEndpoints.publish, { app_id, ...body }, { workspaceId: workspace_id, ...opts });

/** One version with its flow document (to restore it into the draft). */
export const getAppVersion = (workspace_id: string, app_id: string, version_id: string, opts?: Opts) =>
  call(AppVersionDetail, appEndpoints.version, { app_id, version_id }, { workspaceId: workspace_id, ...opts });

/** Deletes a published version (owner and admin). */
export const deleteAppVersion = (workspace_id: string, app_id: string, version_id: string, opts?: Opts) =>
  call(z.null(), appEndpoints.removeVersion, { app_id, version_id }, { workspaceId: workspace_id, ...opts });
