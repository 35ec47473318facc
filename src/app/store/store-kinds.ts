/**
 * How the store's URLs name its types (spec 2: /operation/store/app, knowledge, prompt, tool, plugin)
 * and how a card shows its state. Pure; no React.
 */
import type { SpaceStoreType, StoreItemType, StoreReviewState } from '../../../schemas/store';
import type { BadgeVariant } from '../../ui/badge';

/** The route segment of each store (the API's type `dataset` is the route's `knowledge`). */
export const ROUTE_OF: Record<StoreItemType, string> = { app: 'app', dataset: 'knowledge', prompt: 'prompt', tool: 'tool', plugin: 'plugin' };

/** The store type of a route segment (null for anything else). */
export function typeOfRoute(segment: string | undefined): StoreItemType | null {
  const hit = (Object.entries(ROUTE_OF) as [StoreItemType, string][]).find(([, r]) => r === segment);
  return hit ? hit[0] : null;
}

/** /operation/store/{route}/{id}. */
export const detailPath = (type: StoreItemType, id: string) => `/operation/store/${ROUTE_OF[type]}/${encodeURIComponent(id)}`;

export const REVIEW_TONE: Record<StoreReviewState, BadgeVariant> = {
  in_approval: 'info',
  awaiting_release: 'warning',
  released: 'success',
  rejected: 'danger',
  offline: 'neutral',
};

/** Where a copy opens in its project space. */
export function copyPath(type: SpaceStoreType, workspaceId: string, id: string, mode?: string): string {
  const ws = `/operation/workspace/${encodeURIComponent(workspaceId)}`;
  if (type === 'app') return `/operation/app/${encodeURIComponent(id)}/${mode === 'agent_team' ? 'agent-team' : 'agent-flow'}`;
  if (type === 'dataset') return `${ws}/knowledge-unit?dataset_id=${encodeURIComponent(id)}`;
  if (type === 'prompt') return `${ws}/prompt-add/${encodeURIComponent(id)}`;
  return `${ws}/tool/${encodeURIComponent(id)}`;
}

/** Roles that may create each kind in a space (the server's rule: apps and knowledge any member; prompts and tools owner or admin). */
export const CREATOR_ROLES: Record<SpaceStoreType, readonly string[]> = {
  app: ['owner', 'admin', 'ordinary_member'],
  dataset: ['owner', 'admin', 'ordinary_member'],
  prompt: ['owner', 'admin'],
  tool: ['owner', 'admin'],
};
