/**
 * What the distribute tab needs from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-distribute-api.ts). The default is the real API
 * (src/api/distribution.ts, src/api/apps.ts).
 */
import { createContext, useContext } from 'react';
import type { AppVersion } from '../../../../schemas/app';
import type { DistributionCreateBody, DistributionList, DistributionUpdateBody } from '../../../../schemas/distribution';
import { listAppVersions } from '../../../api/apps';
import { cancelDistribution, distributeApp, listDistribution, moveDistribution } from '../../../api/distribution';

/** How many published versions the version choice offers (the newest ones). */
export const VERSION_CHOICES = 100;

export interface DistributeApi {
  list(appId: string, workspaceId: string): Promise<DistributionList>;
  /** The published versions, newest first (at most {@link VERSION_CHOICES}). */
  versions(appId: string, workspaceId: string): Promise<AppVersion[]>;
  distribute(appId: string, workspaceId: string, body: DistributionCreateBody): Promise<DistributionList>;
  move(appId: string, workspaceId: string, body: DistributionUpdateBody): Promise<DistributionList>;
  cancel(appId: string, workspaceId: string, distributionId: string): Promise<DistributionList>;
}

// Failures toast through the request layer (a refused write is PERMISSION-1000, VALIDATION-1001…).
export const apiDistributeApi: DistributeApi = {
  list: (appId, workspaceId) => listDistribution(workspaceId, appId),
  versions: async (appId, workspaceId) => (await listAppVersions(workspaceId, appId, { page: 1, page_size: VERSION_CHOICES })).items,
  distribute: (appId, workspaceId, body) => distributeApp(workspaceId, appId, body),
  move: (appId, workspaceId, body) => moveDistribution(workspaceId, appId, body),
  cancel: (appId, workspaceId, id) => cancelDistribution(workspaceId, appId, id),
};

export const DistributeApiContext = createContext<DistributeApi>(apiDistributeApi);
export const useDistributeApi = () => useContext(DistributeApiContext);
