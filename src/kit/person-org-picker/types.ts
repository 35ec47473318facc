/**
 * Types of the person and organisation picker (spec 3 "Picker user", "Picker org"; spec 4 tri-state;
 * spec 9 constants). The picker never calls the API directly: it asks a {@link PickerDataSource}.
 */
import type { PickerOrg, PickerUser, SelectionState } from '../../../schemas/org';

export type { PickerOrg, PickerUser };

/** State of an organisation's checkbox: all, half (some) or none of what is under it is checked. */
export type TriState = SelectionState;

/** What can be picked: people, organisations, or both. */
export type SelectionType = 'user' | 'org' | 'both';

/** One item or many. */
export type SelectionMode = 'single' | 'multiple';

/** Spec 9 constants of the picker. */
export const PICKER_DEFAULTS = {
  /** Search box debounce. */
  searchDebounceMs: 500,
  /** users-ensure-status calls are gathered for this long, then sent as one. */
  batchDelayMs: 50,
  /** Users per page ('load more'). */
  pageSize: 80,
  /** Selected items a compact trigger shows before '+N'. */
  chipsShown: 5,
  /** Tree row height (px). */
  rowHeight: 36,
} as const;

/** The all-zero root organisation id (spec 9): never shown, never selected, never sent. */
export { ROOT_ORG_ID } from '../../../schemas/common';

export interface PickerPage<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

/** Direct child organisations (or matching organisations) and one page of users. */
export interface OrgsAndUsersPage {
  orgs: PickerOrg[];
  users: PickerPage<PickerUser>;
}

export interface PickerCallOptions {
  signal?: AbortSignal;
}

/** One entry of a users-ensure-status request. */
export interface EnsureStatusEntry {
  orgId: string;
  userIds: string[];
}

/**
 * Everything the picker needs from the server. The default implementation
 * ({@link apiPickerSource}) calls src/api; stories and tests pass an in-memory one
 * ({@link createMemoryPickerSource}).
 *
 * @example
 * const source: PickerDataSource = {
 *   roots: () => fetchRoots(),
 *   children: (orgId, page, pageSize) => fetchChildren(orgId, page, pageSize),
 *   search: (nameLike, page, pageSize) => fetchSearch(nameLike, page, pageSize),
 *   usersByIds: (ids) => fetchUsers(ids),
 *   orgsByIds: (ids) => fetchOrgs(ids),
 *   ensureStatus: (entries) => fetchStatus(entries),
 * };
 */
export interface PickerDataSource {
  /** The top of the caller's organisation tree (usually the tenant's root organisation). */
  roots(opts?: PickerCallOptions): Promise<PickerOrg[]>;
  /** The direct child organisations of `orgId` and one page of its direct users. */
  children(orgId: string, page: number, pageSize: number, opts?: PickerCallOptions): Promise<OrgsAndUsersPage>;
  /** Organisations and a page of users whose names contain `nameLike`. */
  search(nameLike: string, page: number, pageSize: number, opts?: PickerCallOptions): Promise<OrgsAndUsersPage>;
  /** Users by id (unknown ids left out). */
  usersByIds(ids: string[], opts?: PickerCallOptions): Promise<PickerUser[]>;
  /** Organisations by id (unknown ids left out). */
  orgsByIds(ids: string[], opts?: PickerCallOptions): Promise<PickerOrg[]>;
  /** Per organisation: are all, some or none of its users (sub-organisations included) in `userIds`? */
  ensureStatus(entries: EnsureStatusEntry[], opts?: PickerCallOptions): Promise<Record<string, TriState>>;
}

/** A selected item. Ids of users and organisations are UUIDs, so one id list can hold both. */
export type PickerItem = { kind: 'user'; id: string; user: PickerUser } | { kind: 'org'; id: string; org: PickerOrg };

/** Display name of an item. */
export const itemName = (item: PickerItem) => (item.kind === 'user' ? item.user.name : item.org.name);
