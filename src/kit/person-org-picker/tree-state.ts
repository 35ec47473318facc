/**
 * The picker's tree and selection rules as pure functions (no React, no I/O): the lazily loaded
 * organisation tree, its flattening into rows for the virtual list, and the tri-state of an
 * organisation's checkbox (spec 4). The store (picker-store.ts) owns the state and calls these.
 */
import { ROOT_ORG_ID, type PickerOrg, type PickerUser, type SelectionType, type TriState } from './types';

/** Whether an id is a real organisation (the all-zero root id is ignored, spec 9). */
export const isRealOrgId = (id: string | null | undefined): id is string => !!id && id !== ROOT_ORG_ID;

/** An organisation without its nested children and users (the tree keeps those itself). */
export function bareOrg(org: PickerOrg): PickerOrg {
  return { ...org, parentIds: org.parentIds.filter(isRealOrgId), children: [], empList: [] };
}

/** A user whose organisation lists do not mention the all-zero root. */
export function cleanUser(user: PickerUser): PickerUser {
  return { ...user, parentIdList: user.parentIdList.filter(isRealOrgId) };
}

/**
 * The organisations to show at the top: an organisation with the all-zero id is replaced by its
 * (nested) children, recursively; the others are kept.
 */
export function stripRoot(orgs: PickerOrg[]): PickerOrg[] {
  return orgs.flatMap((o) => (o.id === ROOT_ORG_ID ? stripRoot(o.children ?? []) : [o]));
}

/** One organisation in the tree. */
export interface OrgEntry {
  id: string;
  /** Parent in the displayed tree; null at the top. */
  parent: string | null;
  depth: number;
  /** Child organisation ids once loaded; null before. */
  childIds: string[] | null;
  /** Direct users loaded so far. */
  userIds: string[];
  /** Number of direct users (null until the first page arrived). */
  userTotal: number | null;
  /** Last page of direct users loaded (0: none). */
  page: number;
  loading: boolean;
  error: boolean;
}

export function newEntry(id: string, parent: string | null, depth: number): OrgEntry {
  return { id, parent, depth, childIds: null, userIds: [], userTotal: null, page: 0, loading: false, error: false };
}

/** A row of the virtual list. `key` is unique among the rows (a user can sit in several organisations). */
export type Row =
  | { kind: 'org'; key: string; id: string; parent: string | null; depth: number; expanded: boolean; expandable: boolean; loading: boolean }
  | { kind: 'user'; key: string; id: string; orgId: string | null; depth: number }
  | { kind: 'more'; key: string; orgId: string | null; depth: number; remaining: number; loading: boolean }
  | { kind: 'loading'; key: string; orgId: string | null; depth: number }
  | { kind: 'error'; key: string; orgId: string | null; depth: number }
  | { kind: 'header'; key: string; group: 'orgs' | 'users'; count: number };

export interface TreeView {
  rootIds: string[];
  entries: ReadonlyMap<string, OrgEntry>;
  orgs: ReadonlyMap<string, PickerOrg>;
  expanded: ReadonlySet<string>;
}

/** Whether the picker shows people (user or both). */
export const showsUsers = (type: SelectionType) => type !== 'org';

/** Whether an organisation can be opened (it has sub-organisations, or people when they are shown). */
export function isExpandable(org: PickerOrg | undefined, entry: OrgEntry | undefined, withUsers: boolean): boolean {
  if (entry && entry.childIds !== null && entry.userTotal !== null) {
    return entry.childIds.length > 0 || (withUsers && entry.userTotal > 0);
  }
  if (!org) return true;
  return org.hasOrgNum > 0 || (withUsers && org.hasEmpNum > 0);
}

/** The visible rows of the tree, depth first: an open organisation lists its sub-organisations, then its people. */
export function flattenTree(view: TreeView, withUsers: boolean): Row[] {
  const rows: Row[] = [];
  const visit = (id: string) => {
    const entry = view.entries.get(id);
    if (!entry) return;
    const expanded = view.expanded.has(id);
    rows.push({
      kind: 'org',
      key: `o:${id}`,
      id,
      parent: entry.parent,
      depth: entry.depth,
      expanded,
      expandable: isExpandable(view.orgs.get(id), entry, withUsers),
      loading: entry.loading,
    });
    if (!expanded) return;
    const depth = entry.depth + 1;
    if (entry.childIds === null) {
      rows.push(entry.error ? { kind: 'error', key: `e:${id}`, orgId: id, depth } : { kind: 'loading', key: `l:${id}`, orgId: id, depth });
      return;
    }
    for (const child of entry.childIds) visit(child);
    if (!withUsers) return;
    for (const userId of entry.userIds) rows.push({ kind: 'user', key: `u:${id}:${userId}`, id: userId, orgId: id, depth });
    const remaining = (entry.userTotal ?? 0) - entry.userIds.length;
    if (entry.error) rows.push({ kind: 'error', key: `e:${id}`, orgId: id, depth });
    else if (remaining > 0) rows.push({ kind: 'more', key: `m:${id}`, orgId: id, depth, remaining, loading: entry.loading });
  };
  for (const id of view.rootIds) visit(id);
  return rows;
}

/**
 * Every user under an organisation (sub-organisations included) when all of them are loaded;
 * null while some page or sub-organisation is missing.
 */
export function loadedUsersUnder(entries: ReadonlyMap<string, OrgEntry>, orgId: string, memo = new Map<string, Set<string> | null>()): Set<string> | null {
  if (memo.has(orgId)) return memo.get(orgId)!;
  const entry = entries.get(orgId);
  let out: Set<string> | null = null;
  if (entry && entry.childIds !== null && entry.userTotal !== null && entry.userIds.length >= entry.userTotal) {
    out = new Set(entry.userIds);
    for (const child of entry.childIds) {
      const under = loadedUsersUnder(entries, child, memo);
      if (under === null) {
        out = null;
        break;
      }
      for (const u of under) out.add(u);
    }
  }
  memo.set(orgId, out);
  return out;
}

const stateOf = (count: number, total: number): TriState => (count <= 0 ? 'none' : count >= total ? 'all' : 'half');

export interface UserTriStateInput {
  org: Pick<PickerOrg, 'id' | 'hasEmpNum'>;
  /** Checked user ids: the selection plus the disabled ones (e.g. existing members). */
  checked: ReadonlySet<string>;
  /** Users whose data is known (their `parentIdList` says which organisations they are under). */
  known: ReadonlyMap<string, PickerUser>;
  /** All users under the organisation when all are loaded (see {@link loadedUsersUnder}), else null. */
  loadedUnder: ReadonlySet<string> | null;
  /** users-ensure-status's answer for the current selection, when there is one. */
  confirmed?: TriState;
}

/**
 * Tri-state of an organisation when people are picked (spec 4):
 * 1. no users under it → none;
 * 2. all its users are loaded → counted exactly from what is loaded;
 * 3. the server confirmed a state for the current selection → that state;
 * 4. otherwise an estimate from the checked users whose organisations are known against
 *    `hasEmpNum`, to be confirmed by users-ensure-status (`needsConfirm`) when anything is checked.
 */
export function userTriState({ org, checked, known, loadedUnder, confirmed }: UserTriStateInput): { state: TriState; needsConfirm: boolean } {
  if (!isRealOrgId(org.id) || org.hasEmpNum <= 0) return { state: 'none', needsConfirm: false };
  if (loadedUnder) {
    let count = 0;
    for (const id of loadedUnder) if (checked.has(id)) count++;
    return { state: stateOf(count, loadedUnder.size), needsConfirm: false };
  }
  if (confirmed) return { state: confirmed, needsConfirm: false };
  let count = 0;
  let unknown = 0;
  for (const id of checked) {
    const user = known.get(id);
    if (!user) unknown++;
    else if (user.parentIdList.includes(org.id)) count++;
  }
  return { state: stateOf(count, org.hasEmpNum), needsConfirm: count + unknown > 0 };
}

/**
 * Tri-state of an organisation when organisations are picked: all when it is chosen, half when an
 * organisation below it is chosen, none otherwise.
 */
export function orgTriState(orgId: string, chosenOrgs: Iterable<PickerOrg>, chosen: (id: string) => boolean): TriState {
  if (chosen(orgId)) return 'all';
  for (const o of chosenOrgs) if (o.parentIds.includes(orgId)) return 'half';
  return 'none';
}

/**
 * Tri-state when both people and organisations are picked: all when the organisation itself is
 * chosen; half when anything below it is (an organisation, or some or all of its people); none otherwise.
 */
export function bothTriState(orgState: TriState, usersState: TriState): TriState {
  if (orgState === 'all') return 'all';
  return orgState === 'half' || usersState !== 'none' ? 'half' : 'none';
}

/** The user ids a users-ensure-status entry needs for one organisation: those under it or of unknown place. */
export function relevantUserIds(orgId: string, checked: Iterable<string>, known: ReadonlyMap<string, PickerUser>, max = 5000): string[] {
  const out: string[] = [];
  for (const id of checked) {
    const user = known.get(id);
    if (!user || user.parentIdList.includes(orgId)) out.push(id);
    if (out.length >= max) break;
  }
  return out;
}

/** Ids cleaned of the all-zero root and duplicates, order kept. */
export function cleanIds(ids: Iterable<string>): string[] {
  return [...new Set([...ids].filter(isRealOrgId))];
}
