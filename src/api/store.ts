/**
 * CONSOLE stores and the ADMIN store manager (spec 7.5 app, dataset, prompt and tool store; issue 23;
 * schemas/store.ts). Every user of the tenant lists and reads released items; copying needs the right
 * to create that kind in the target space; publishing names the resource's space; the review is for
 * store managers (super admin, tenant admin of the tenant).
 */
import {
  AdminStoreDetail,
  AdminStoreList,
  StoreCopyAnswer,
  StoreItem,
  StoreItemDetail,
  StoreListAnswer,
  StoreSegmentPage,
  StoreSubmission,
  type AdminStoreListQuery,
  type SpaceStoreType,
  type StoreCopyBody,
  type StoreItemType,
  type StoreListQuery,
  type StorePublishBody,
  type StorePluginPublishBody,
} from '../../schemas/store';
import { ToolDetail } from '../../schemas/tool';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/store';
const admin = '/api/v1/admin/store';
/** The URL segment of each store. */
export const STORE_SEGMENT: Record<StoreItemType, string> = { app: 'apps', dataset: 'datasets', prompt: 'prompts', tool: 'tools', plugin: 'plugins' };

export const storeEndpoints = {
  list: { method: 'GET', url: `${base}/:segment`, name: 'store.list' },
  get: { method: 'GET', url: `${base}/:segment/:id`, name: 'store.get' },
  copy: { method: 'POST', url: `${base}/:segment/copy`, name: 'store.copy' },
  publish: { method: 'POST', url: `${base}/:segment/publish`, name: 'store.publish' },
  segments: { method: 'GET', url: `${base}/datasets/:id/document/:document_id/segments`, name: 'store.segments' },
  submission: { method: 'GET', url: `${base}/submission`, name: 'store.submission' },
  authorize: { method: 'POST', url: `${base}/tools/authorization`, name: 'store.authorizeTool' },
  adminList: { method: 'GET', url: admin, name: 'adminStore.list' },
  adminGet: { method: 'GET', url: `${admin}/:type/:id`, name: 'adminStore.get' },
  adminSegments: { method: 'GET', url: `${admin}/dataset/:id/document/:document_id/segments`, name: 'adminStore.segments' },
  release: { method: 'POST', url: `${admin}/:type/:id/release`, name: 'adminStore.release' },
  reject: { method: 'POST', url: `${admin}/:type/:id/reject`, name: 'adminStore.reject' },
  offline: { method: 'POST', url: `${admin}/:type/:id/offline`, name: 'adminStore.offline' },
  publishPlugin: { method: 'POST', url: `${admin}/plugins/publish`, name: 'adminStore.publishPlugin' },
} as const satisfies Record<string, Endpoint>;

/** Released items of one store: search, tag and kind filters, newest or most copied first. */
export const listStore = (type: StoreItemType, q: Partial<StoreListQuery> = {}, opts?: Opts) => call(StoreListAnswer, storeEndpoints.list, { segment: STORE_SEGMENT[type], ...q }, opts);

/** One released item with its snapshot (another tenant's or one not released: VALIDATION-1000). */
export const getStoreItem = (type: StoreItemType, id: string, opts?: Opts) => call(StoreItemDetail, storeEndpoints.get, { segment: STORE_SEGMENT[type], id }, opts);

/**
 * Copies a released item into a space (`dry_run`: the plan, nothing copied).
 * @example const plan = await copyStoreItem('app', { id, workspace_id, dry_run: true });
 */
export const copyStoreItem = (type: SpaceStoreType, body: StoreCopyBody, opts?: Opts) => call(StoreCopyAnswer, storeEndpoints.copy, { segment: STORE_SEGMENT[type], ...body }, opts);

/** Publishes (re-submits) a resource of `workspace_id` to its store. */
export const publishToStore = (workspace_id: string, type: SpaceStoreType, body: StorePublishBody, opts?: Opts) =>
  call(StoreSubmission, storeEndpoints.publish, { segment: STORE_SEGMENT[type], ...body }, { workspaceId: workspace_id, ...opts });

/** A resource's submission (state, reason) for its space's members; null when never published. */
export const getSubmission = (workspace_id: string, type: SpaceStoreType, source_id: string, opts?: Opts) =>
  call(StoreSubmission, storeEndpoints.submission, { type, source_id }, { workspaceId: workspace_id, ...opts });

/** One page of a released knowledge snapshot's document's segments. */
export const listStoreSegments = (id: string, document_id: string, q: { page?: number; page_size?: number } = {}, opts?: Opts) =>
  call(StoreSegmentPage, storeEndpoints.segments, { id, document_id, ...q }, opts);

/** Gives a tool copied from the store a credential of its space. */
export const authorizeStoreTool = (workspace_id: string, body: { tool_id: string; credential_id: string }, opts?: Opts) =>
  call(ToolDetail, storeEndpoints.authorize, body, { workspaceId: workspace_id, ...opts });

// ------------------------------------------------------------ the store manager

export const listAdminStore = (q: Partial<AdminStoreListQuery> = {}, opts?: Opts) => call(AdminStoreList, storeEndpoints.adminList, { ...q }, opts);
export const getAdminStoreItem = (type: StoreItemType, id: string, opts?: Opts) => call(AdminStoreDetail, storeEndpoints.adminGet, { type, id }, opts);
export const listAdminStoreSegments = (id: string, document_id: string, q: { page?: number; page_size?: number } = {}, opts?: Opts) =>
  call(StoreSegmentPage, storeEndpoints.adminSegments, { id, document_id, ...q }, opts);
export const releaseStoreItem = (type: StoreItemType, id: string, opts?: Opts) => call(AdminStoreDetail, storeEndpoints.release, { type, id }, opts);
export const rejectStoreItem = (type: StoreItemType, id: string, reason: string, opts?: Opts) => call(AdminStoreDetail, storeEndpoints.reject, { type, id, reason }, opts);
export const takeStoreItemOffline = (type: StoreItemType, id: string, reason = '', opts?: Opts) => call(AdminStoreDetail, storeEndpoints.offline, { type, id, reason }, opts);

/** A super admin publishes an installed plugin package to their tenant's plugin store (awaiting release). */
export const publishPluginToStore = (body: StorePluginPublishBody, opts?: Opts) => call(StoreItem, storeEndpoints.publishPlugin, { ...body }, opts);
