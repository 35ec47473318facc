/**
 * What the store manager's item page needs from the server, behind a context so stories and tests pass
 * an in-memory implementation (as src/app/store/store-api.ts does for the store pages).
 */
import { createContext, useContext } from 'react';
import type { AdminStoreDetail, StoreItemType, StoreSegmentPage } from '../../../../schemas/store';
import { getAdminStoreItem, listAdminStoreSegments, rejectStoreItem, releaseStoreItem, takeStoreItemOffline } from '../../../api/store';

type Signal = { signal?: AbortSignal };

export interface SystemStoreApi {
  get(type: StoreItemType, id: string, opts?: Signal): Promise<AdminStoreDetail>;
  segments(id: string, documentId: string, q: { page: number; page_size: number }): Promise<StoreSegmentPage>;
  release(type: StoreItemType, id: string): Promise<AdminStoreDetail>;
  /** Fails silently (the dialog shows the reason under the field). */
  reject(type: StoreItemType, id: string, reason: string): Promise<AdminStoreDetail>;
  offline(type: StoreItemType, id: string, reason: string): Promise<AdminStoreDetail>;
}

export const apiSystemStoreApi: SystemStoreApi = {
  get: (type, id, opts) => getAdminStoreItem(type, id, opts),
  segments: (id, doc, q) => listAdminStoreSegments(id, doc, q),
  release: (type, id) => releaseStoreItem(type, id),
  reject: (type, id, reason) => rejectStoreItem(type, id, reason, { reaction: 'silent' }),
  offline: (type, id, reason) => takeStoreItemOffline(type, id, reason),
};

export const SystemStoreApiContext = createContext<SystemStoreApi>(apiSystemStoreApi);
export const useSystemStoreApi = () => useContext(SystemStoreApiContext);
