/**
 * What the store pages need from the server, behind a context so stories and tests can pass an
 * in-memory implementation. The default is the real API (src/api/store.ts).
 */
import { createContext, useContext } from 'react';
import type { SpaceStoreType, StoreItemType, StoreCopyAnswer, StoreCopyBody, StoreItemDetail, StoreListAnswer, StoreListQuery, StoreSegmentPage } from '../../../schemas/store';
import type { Workspace } from '../../../schemas/workspace';
import { listCredentials } from '../../api/credentials';
import { authorizeStoreTool, copyStoreItem, getStoreItem, listStore, listStoreSegments } from '../../api/store';
import { listWorkspaces } from '../../api/workspaces';

export interface StoreApi {
  list(type: StoreItemType, q: Partial<StoreListQuery>): Promise<StoreListAnswer>;
  get(type: StoreItemType, id: string): Promise<StoreItemDetail>;
  segments(id: string, documentId: string, q: { page: number; page_size: number }): Promise<StoreSegmentPage>;
  /** The caller's project spaces with their role (the copy dialog offers those where they may create). */
  spaces(): Promise<Workspace[]>;
  copy(type: SpaceStoreType, body: StoreCopyBody): Promise<StoreCopyAnswer>;
  /** A space's credentials (names only), for a copied tool's authorization. */
  credentials(workspaceId: string): Promise<{ id: string; name: string }[]>;
  /** Gives a copied tool a credential of its space (the store never carries one). */
  authorize(workspaceId: string, toolId: string, credentialId: string): Promise<void>;
}

export const apiStoreApi: StoreApi = {
  list: (type, q) => listStore(type, q),
  // The detail page shows "does not exist" itself.
  get: (type, id) => getStoreItem(type, id, { reaction: 'silent' }),
  segments: (id, doc, q) => listStoreSegments(id, doc, q),
  spaces: async () => (await listWorkspaces()).items,
  // The dialog reports failures itself.
  copy: (type, body) => copyStoreItem(type, body, { reaction: 'silent' }),
  credentials: async (workspaceId) => (await listCredentials({ page: 1, page_size: 100 }, { workspaceId })).items.map((c) => ({ id: c.id, name: c.identifier })),
  authorize: async (workspaceId, tool_id, credential_id) => {
    await authorizeStoreTool(workspaceId, { tool_id, credential_id }, { reaction: 'silent' });
  },
};

export const StoreApiContext = createContext<StoreApi>(apiStoreApi);
export const useStoreApi = () => useContext(StoreApiContext);
