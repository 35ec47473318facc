/**
 * CONSOLE app distribution (spec 7.5 "app distribution"; schemas/distribution.ts): where an app's
 * published versions reach their users (current project, portal, store, tool). Every member reads;
 * only the project space's owner distributes, moves and cancels (others: 403 PERMISSION-1000). Each
 * call answers the whole list as it stands after it.
 */
import { DistributionList, type DistributionCreateBody, type DistributionUpdateBody } from '../../schemas/distribution';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/apps/:app_id/distribution';
export const distributionEndpoints = {
  list: { method: 'GET', url: base, name: 'distribution.list' },
  distribute: { method: 'POST', url: base, name: 'distribution.distribute' },
  move: { method: 'PUT', url: base, name: 'distribution.move' },
  cancel: { method: 'DELETE', url: `${base}/:distribution_id`, name: 'distribution.cancel' },
} as const satisfies Record<string, Endpoint>;

/** Every platform's card (state, version, who and when, what blocks the caller), in platform order. */
export const listDistribution = (workspace_id: string, app_id: string, opts?: Opts) =>
  call(DistributionList, distributionEndpoints.list, { app_id }, { workspaceId: workspace_id, ...opts });

/**
 * Distributes the app on a platform (again, after a cancel), serving `version_id` (default: the
 * newest published version). Already distributed there: VALIDATION-1001.
 * @example await distributeApp(ws, appId, { platform: 'portal', version_id: v.id });
 */
export const distributeApp = (workspace_id: string, app_id: string, body: DistributionCreateBody, opts?: Opts) =>
  call(DistributionList, distributionEndpoints.distribute, { app_id, ...body }, { workspaceId: workspace_id, ...opts });

/** Moves a distribution (`id`) to another published version of the app. */
export const moveDistribution = (workspace_id: string, app_id: string, body: DistributionUpdateBody, opts?: Opts) =>
  call(DistributionList, distributionEndpoints.move, { app_id, ...body }, { workspaceId: workspace_id, ...opts });

/** Cancels a distribution; its record stays (who and when) and it can be distributed again. */
export const cancelDistribution = (workspace_id: string, app_id: string, distribution_id: string, opts?: Opts) =>
  call(DistributionList, distributionEndpoints.cancel, { app_id, distribution_id }, { workspaceId: workspace_id, ...opts });
