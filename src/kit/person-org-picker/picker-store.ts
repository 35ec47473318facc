/**
 * The picker's state, framework-free: one store per open picker (`new PickerStore(opts)`), read by
 * React through `subscribe` / `getSnapshot` (useSyncExternalStore). It loads the organisation tree
 * lazily, keeps the selection, computes each organisation's tri-state (tree-state.ts) and has it
 * confirmed by users-ensure-status in 50 ms batches, and runs the debounced search.
 *
 * @example
 * const store = new PickerStore({ source: apiPickerSource, selectType: 'user', mode: 'multiple' });
 * store.start();
 * await store.setValue(['<user id>']);
 * store.toggleOrg('<org id>');            // picks every user under it
 * store.getSnapshot().orgStates.get(id);  // 'all' | 'half' | 'none'
 * store.stop();
 */
import { createBatcher, type Batcher } from './batcher';
import {
  bareOrg,
  bothTriState,
  cleanIds,
  cleanUser,
  flattenTree,
  isRealOrgId,
  loadedUsersUnder,
  newEntry,
  orgTriState,
  relevantUserIds,
  showsUsers,
  stripRoot,
  userTriState,
  type OrgEntry,
  type Row,
} from './tree-state';
import {
  PICKER_DEFAULTS,
  type PickerDataSource,
  type PickerItem,
  type PickerOrg,
  type PickerUser,
  type SelectionMode,
  type SelectionType,
  type TriState,
} from './types';

export interface PickerStoreOptions {
  source: PickerDataSource;
  /** Default 'user'. */
  selectType?: SelectionType;
  /** Default 'multiple'. */
  mode?: SelectionMode;
  /** Shown checked and not changeable (e.g. existing members). Never part of the value. */
  disabledIds?: Iterable<string>;
  /** Users per page. Default 80 (spec 9). */
  pageSize?: number;
  /** Default 50 ms (spec 9). */
  batchDelayMs?: number;
  /** Default 500 ms (spec 9). */
  searchDebounceMs?: number;
  /** Most users gathered when a whole organisation is checked. Default 5000 (the ensure-status limit). */
  maxCollect?: number;
  /** Gets failed loads (the request layer has already shown its message). */
  onError?: (error: unknown) => void;
}

export interface SearchState {
  /** The query that was (or is being) searched. */
  query: string;
  orgIds: string[];
  userIds: string[];
  /** Matching users in all. */
  total: number;
  /** Last page loaded (0: none yet). */
  page: number;
  loading: boolean;
  error: boolean;
}

export interface PickerSnapshot {
  selectType: SelectionType;
  mode: SelectionMode;
  rootsLoading: boolean;
  rootsError: boolean;
  /** The tree's visible rows. */
  rows: Row[];
  /** The text in the search box. */
  query: string;
  /** The active search (the box is not blank), else null: the tree shows. */
  search: SearchState | null;
  searchRows: Row[];
  /** Selected items in the order picked. */
  selected: PickerItem[];
  /** Whether initial ids are being resolved. */
  resolving: boolean;
  /** Tri-state of every organisation on screen. */
  orgStates: ReadonlyMap<string, TriState>;
  /** Organisations whose checkbox cannot be used. */
  orgDisabled: ReadonlySet<string>;
  /** Organisations whose users are being gathered (checking a whole organisation). */
  busy: ReadonlySet<string>;
  orgs: ReadonlyMap<string, PickerOrg>;
  users: ReadonlyMap<string, PickerUser>;
}

/** Page size when gathering all users of an organisation (the server's maximum). */
const COLLECT_PAGE = 1000;
/** Most organisations in one users-ensure-status call (the server's maximum). */
const ENSURE_MAX_ORGS = 500;

export class PickerStore {
  readonly selectType: SelectionType;
  readonly mode: SelectionMode;
  private readonly source: PickerDataSource;
  private readonly pageSize: number;
  private readonly searchDebounceMs: number;
  private readonly maxCollect: number;
  private readonly onError: (e: unknown) => void;
  private disabled: Set<string>;

  // Tree
  private rootIds: string[] | null = null;
  private rootsLoading = false;
  private rootsError = false;
  private entries = new Map<string, OrgEntry>();
  private expanded = new Set<string>();
  private orgs = new Map<string, PickerOrg>();
  private users = new Map<string, PickerUser>();

  // Selection
  private selected = new Map<string, PickerItem>();
  private selectionVersion = 0;
  private resolving = 0;
  /** users-ensure-status answers for the current selection version. */
  private confirmed = new Map<string, TriState>();
  /** Organisations asked about for the current selection version. */
  private requested = new Set<string>();
  private busy = new Set<string>();
  private batcher: Batcher<string>;

  // Search
  private query = '';
  private search: SearchState | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  private searchSeq = 0;

  /** Bumped by stop(): answers of an older generation are dropped. */
  private gen = 0;
  private listeners = new Set<() => void>();
  private snapshot: PickerSnapshot;

  constructor(opts: PickerStoreOptions) {
    this.source = opts.source;
    this.selectType = opts.selectType ?? 'user';
    this.mode = opts.mode ?? 'multiple';
    this.disabled = new Set(cleanIds(opts.disabledIds ?? []));
    this.pageSize = opts.pageSize ?? PICKER_DEFAULTS.pageSize;
    this.searchDebounceMs = opts.searchDebounceMs ?? PICKER_DEFAULTS.searchDebounceMs;
    this.maxCollect = opts.maxCollect ?? 5000;
    this.onError = opts.onError ?? (() => {});
    this.batcher = createBatcher((keys) => this.confirm(keys), opts.batchDelayMs ?? PICKER_DEFAULTS.batchDelayMs);
    this.snapshot = this.build().snapshot;
  }

  // ------------------------------------------------------------------------------------------
  // Subscription

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): PickerSnapshot => this.snapshot;

  private emit() {
    const { snapshot, toConfirm } = this.build();
    this.snapshot = snapshot;
    for (const id of toConfirm) {
      this.requested.add(id);
      this.batcher.add(id);
    }
    for (const l of [...this.listeners]) l();
  }

  // ------------------------------------------------------------------------------------------
  // Life cycle

  /** Loads the top of the tree (again, after a stop()). */
  start() {
    if (this.rootIds === null && !this.rootsLoading) void this.loadRoots();
    for (const id of this.expanded) {
      const e = this.entries.get(id);
      if (e && e.childIds === null && !e.loading) void this.loadChildren(id, 1);
    }
  }

  /** Drops timers and pending answers (unmount). start() resumes. */
  stop() {
    this.gen++;
    this.batcher.cancel();
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = null;
    this.rootsLoading = false;
    for (const [id, e] of this.entries) if (e.loading) this.entries.set(id, { ...e, loading: false });
    this.busy.clear();
    this.requested.clear();
    this.resolving = 0;
    if (this.search?.loading) this.search = { ...this.search, loading: false };
    this.snapshot = this.build().snapshot;
  }

  /** Changes the disabled ids (e.g. members loaded after the picker opened). */
  setDisabledIds(ids: Iterable<string>) {
    this.disabled = new Set(cleanIds(ids));
    for (const id of this.disabled) this.selected.delete(id);
    this.selectionChanged();
  }

  // ------------------------------------------------------------------------------------------
  // Tree

  private async loadRoots() {
    const gen = this.gen;
    this.rootsLoading = true;
    this.rootsError = false;
    this.emit();
    try {
      const list = stripRoot(await this.source.roots()).filter((o) => isRealOrgId(o.id));
      if (gen !== this.gen) return;
      for (const o of list) {
        this.orgs.set(o.id, bareOrg(o));
        if (!this.entries.has(o.id)) this.entries.set(o.id, newEntry(o.id, null, 0));
      }
      this.rootIds = list.map((o) => o.id);
      this.rootsLoading = false;
      if (list.length === 1) this.expand(list[0].id);
      else this.emit();
    } catch (e) {
      if (gen !== this.gen) return;
      this.rootsLoading = false;
      this.rootsError = true;
      this.onError(e);
      this.emit();
    }
  }

  private async loadChildren(orgId: string, page: number) {
    const entry = this.entries.get(orgId);
    if (!entry || entry.loading) return;
    const gen = this.gen;
    this.entries.set(orgId, { ...entry, loading: true, error: false });
    this.emit();
    try {
      const res = await this.source.children(orgId, page, this.pageSize);
      if (gen !== this.gen) return;
      const e = this.entries.get(orgId)!;
      let childIds = e.childIds;
      if (childIds === null || page === 1) {
        const kids = res.orgs.filter((o) => isRealOrgId(o.id) && o.id !== orgId);
        for (const o of kids) {
          this.orgs.set(o.id, bareOrg(o));
          if (!this.entries.has(o.id)) this.entries.set(o.id, newEntry(o.id, orgId, e.depth + 1));
        }
        childIds = kids.map((o) => o.id);
      }
      const pageIds = this.remember(res.users.items);
      const userIds = page === 1 ? pageIds : [...new Set([...e.userIds, ...pageIds])];
      this.entries.set(orgId, { ...e, childIds, userIds, userTotal: res.users.total, page, loading: false, error: false });
    } catch (err) {
      if (gen !== this.gen) return;
      this.entries.set(orgId, { ...this.entries.get(orgId)!, loading: false, error: true });
      this.onError(err);
    }
    this.emit();
  }

  private remember(users: PickerUser[]): string[] {
    return users.map((u) => {
      this.users.set(u.id, cleanUser(u));
      return u.id;
    });
  }

  expand(orgId: string) {
    const entry = this.entries.get(orgId);
    if (!entry) return;
    this.expanded.add(orgId);
    if (entry.childIds === null && !entry.loading) void this.loadChildren(orgId, 1);
    else this.emit();
  }

  collapse(orgId: string) {
    if (this.expanded.delete(orgId)) this.emit();
  }

  toggleExpand(orgId: string) {
    if (this.expanded.has(orgId)) this.collapse(orgId);
    else this.expand(orgId);
  }

  /** The next page of an organisation's users. */
  loadMore(orgId: string) {
    const e = this.entries.get(orgId);
    if (!e || e.loading || e.userTotal === null || e.userIds.length >= e.userTotal) return;
    void this.loadChildren(orgId, e.page + 1);
  }

  /** Retries what failed: the roots (null), an organisation, or the search ('search'). */
  retry(target: string | null) {
    if (target === null) {
      if (this.rootIds === null) void this.loadRoots();
      return;
    }
    if (target === 'search') {
      if (this.search) void this.runSearch(this.search.query, this.search.page + 1);
      return;
    }
    const e = this.entries.get(target);
    if (e) void this.loadChildren(target, e.childIds === null ? 1 : e.page + 1);
  }

  // ------------------------------------------------------------------------------------------
  // Selection

  isChecked = (id: string) => this.selected.has(id) || this.disabled.has(id);
  isDisabled = (id: string) => this.disabled.has(id);

  /** Whether organisation checkboxes are shown (not when one person is picked). */
  get orgsCheckable() {
    return this.selectType !== 'user' || this.mode === 'multiple';
  }

  private selectionChanged() {
    this.selectionVersion++;
    this.confirmed.clear();
    this.requested.clear();
    this.batcher.cancel();
    this.emit();
  }

  /** Replaces the selection with these ids, resolving unknown ones (users/by-userIds, then by-orgIds). */
  async setValue(ids: Iterable<string>): Promise<void> {
    const clean = cleanIds(ids).filter((id) => !this.disabled.has(id));
    const gen = this.gen;
    const need = clean.filter((id) => !this.users.has(id) && !this.orgs.has(id));
    if (need.length > 0) {
      this.resolving++;
      this.emit();
      try {
        if (showsUsers(this.selectType)) this.remember(await this.source.usersByIds(need));
        const rest = need.filter((id) => !this.users.has(id));
        if (this.selectType !== 'user' && rest.length > 0) {
          for (const o of await this.source.orgsByIds(rest)) this.orgs.set(o.id, bareOrg(o));
        }
      } catch (e) {
        this.onError(e);
      } finally {
        if (gen === this.gen) this.resolving--;
      }
      if (gen !== this.gen) return;
    }
    this.selected = new Map();
    for (const id of clean) {
      const item = this.itemFor(id);
      if (item) this.selected.set(id, item);
    }
    if (this.mode === 'single' && this.selected.size > 1) this.selected = new Map([[...this.selected][0]]);
    this.selectionChanged();
  }

  private itemFor(id: string): PickerItem | null {
    const user = showsUsers(this.selectType) ? this.users.get(id) : undefined;
    if (user) return { kind: 'user', id, user };
    const org = this.selectType !== 'user' ? this.orgs.get(id) : undefined;
    if (org) return { kind: 'org', id, org };
    return null;
  }

  /** Checks or unchecks a person. In single mode checking replaces the selection. */
  toggleUser(id: string) {
    if (this.disabled.has(id) || !showsUsers(this.selectType)) return;
    const user = this.users.get(id);
    if (this.selected.has(id)) this.selected.delete(id);
    else if (user) {
      if (this.mode === 'single') this.selected = new Map();
      this.selected.set(id, { kind: 'user', id, user });
    } else return;
    this.selectionChanged();
  }

  /**
   * Checks or unchecks an organisation. Picking organisations: chooses the organisation itself.
   * Picking people: 'all' unchecks everyone under it; otherwise gathers every user under it
   * (loading what is missing) and checks them.
   */
  async toggleOrg(orgId: string) {
    if (!this.orgsCheckable || !isRealOrgId(orgId) || this.snapshot.orgDisabled.has(orgId) || this.busy.has(orgId)) return;
    if (this.selectType !== 'user') {
      const org = this.orgs.get(orgId);
      if (this.selected.has(orgId)) this.selected.delete(orgId);
      else if (org) {
        if (this.mode === 'single') this.selected = new Map();
        this.selected.set(orgId, { kind: 'org', id: orgId, org });
      } else return;
      this.selectionChanged();
      return;
    }
    const state = this.snapshot.orgStates.get(orgId) ?? 'none';
    if (state === 'all') {
      const loaded = loadedUsersUnder(this.entries, orgId);
      for (const [id, item] of [...this.selected]) {
        if (item.kind === 'user' && (item.user.parentIdList.includes(orgId) || loaded?.has(id))) this.selected.delete(id);
      }
      this.selectionChanged();
      return;
    }
    const gen = this.gen;
    this.busy.add(orgId);
    this.emit();
    let users: PickerUser[] | null = null;
    try {
      users = await this.collectUsers(orgId, gen);
    } catch (e) {
      if (gen === this.gen) this.onError(e);
    }
    if (gen !== this.gen) return;
    this.busy.delete(orgId);
    if (!users) {
      this.emit();
      return;
    }
    for (const u of users) {
      if (!this.disabled.has(u.id) && !this.selected.has(u.id)) this.selected.set(u.id, { kind: 'user', id: u.id, user: u });
    }
    this.selectionChanged();
  }

  /** Every user under an organisation: from what is loaded when complete, else fetched page by page. */
  private async collectUsers(orgId: string, gen: number): Promise<PickerUser[] | null> {
    const loaded = loadedUsersUnder(this.entries, orgId);
    if (loaded) return [...loaded].flatMap((id) => (this.users.has(id) ? [this.users.get(id)!] : []));
    const found = new Map<string, PickerUser>();
    const queue = [orgId];
    const seen = new Set<string>();
    while (queue.length > 0 && found.size < this.maxCollect) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (let page = 1; ; page++) {
        const res = await this.source.children(id, page, COLLECT_PAGE);
        if (gen !== this.gen) return null;
        if (page === 1) {
          for (const o of res.orgs) {
            if (!isRealOrgId(o.id)) continue;
            if (!this.orgs.has(o.id)) this.orgs.set(o.id, bareOrg(o));
            queue.push(o.id);
          }
        }
        for (const u of res.users.items) {
          const clean = cleanUser(u);
          this.users.set(u.id, clean);
          if (found.size < this.maxCollect) found.set(u.id, clean);
        }
        if (res.users.items.length === 0 || page * COLLECT_PAGE >= res.users.total || found.size >= this.maxCollect) break;
      }
    }
    return [...found.values()];
  }

  /** Removes one item from the selection. */
  remove(id: string) {
    if (this.selected.delete(id)) this.selectionChanged();
  }

  clear() {
    if (this.selected.size === 0) return;
    this.selected = new Map();
    this.selectionChanged();
  }

  /** The selected ids, in the order picked. */
  value(): string[] {
    return [...this.selected.keys()];
  }

  // ------------------------------------------------------------------------------------------
  // users-ensure-status

  private confirm(orgIds: string[]) {
    const version = this.selectionVersion;
    const gen = this.gen;
    const checked = [...this.selected.keys(), ...this.disabled];
    const entries = orgIds.filter(isRealOrgId).map((orgId) => ({ orgId, userIds: relevantUserIds(orgId, checked, this.users) }));
    for (let i = 0; i < entries.length; i += ENSURE_MAX_ORGS) {
      const chunk = entries.slice(i, i + ENSURE_MAX_ORGS);
      this.source.ensureStatus(chunk).then(
        (answer) => {
          if (version !== this.selectionVersion || gen !== this.gen) return;
          for (const { orgId } of chunk) {
            const s = answer[orgId];
            if (s === 'all' || s === 'half' || s === 'none') this.confirmed.set(orgId, s);
          }
          this.emit();
        },
        (e: unknown) => {
          if (gen === this.gen) this.onError(e);
        },
      );
    }
  }

  // ------------------------------------------------------------------------------------------
  // Search

  /** Sets the search text; the search runs 500 ms after the last change. Blank text shows the tree again. */
  setQuery(text: string) {
    this.query = text;
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = null;
    const q = text.trim();
    if (!q) {
      this.searchSeq++;
      this.search = null;
    } else {
      this.searchTimer = setTimeout(() => {
        this.searchTimer = null;
        void this.runSearch(q, 1);
      }, this.searchDebounceMs);
    }
    this.emit();
  }

  /** Runs the pending search now (Enter in the box). */
  searchNow() {
    const q = this.query.trim();
    if (!q) return;
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = null;
    if (this.search?.query === q && !this.search.error) return;
    void this.runSearch(q, 1);
  }

  /** The next page of matching users. */
  searchMore() {
    const s = this.search;
    if (!s || s.loading || s.userIds.length >= s.total) return;
    void this.runSearch(s.query, s.page + 1);
  }

  private async runSearch(query: string, page: number) {
    const seq = ++this.searchSeq;
    const gen = this.gen;
    this.search =
      page === 1 || !this.search || this.search.query !== query
        ? { query, orgIds: [], userIds: [], total: 0, page: 0, loading: true, error: false }
        : { ...this.search, loading: true, error: false };
    this.emit();
    try {
      const res = await this.source.search(query.slice(0, 64), page, this.pageSize);
      if (seq !== this.searchSeq || gen !== this.gen) return;
      const prev = this.search;
      let orgIds = prev.orgIds;
      if (page === 1) {
        const found = res.orgs.filter((o) => isRealOrgId(o.id));
        for (const o of found) this.orgs.set(o.id, bareOrg(o));
        orgIds = found.map((o) => o.id);
      }
      const ids = this.remember(res.users.items);
      this.search = {
        query,
        orgIds,
        userIds: page === 1 ? ids : [...new Set([...prev.userIds, ...ids])],
        total: res.users.total,
        page,
        loading: false,
        error: false,
      };
    } catch (e) {
      if (seq !== this.searchSeq || gen !== this.gen) return;
      this.search = { ...this.search!, loading: false, error: true };
      this.onError(e);
    }
    this.emit();
  }

  // ------------------------------------------------------------------------------------------
  // Snapshot

  private build(): { snapshot: PickerSnapshot; toConfirm: string[] } {
    const withUsers = showsUsers(this.selectType);
    const view = { rootIds: this.rootIds ?? [], entries: this.entries, orgs: this.orgs, expanded: this.expanded };
    const rows = flattenTree(view, withUsers);
    const searchRows = this.searchRowsOf(withUsers);

    // Tri-states of every organisation on screen (tree and search).
    const orgIds = new Set<string>([...this.entries.keys(), ...(this.search?.orgIds ?? [])]);
    const orgStates = new Map<string, TriState>();
    const orgDisabled = new Set<string>();
    const toConfirm: string[] = [];
    const checked = new Set<string>([...this.selected.keys(), ...this.disabled]);
    const chosenOrgs = [...this.selected.values()].flatMap((i) => (i.kind === 'org' ? [i.org] : []));
    const memo = new Map<string, Set<string> | null>();
    for (const id of orgIds) {
      const org = this.orgs.get(id);
      if (!org) continue;
      let usersState: TriState = 'none';
      if (withUsers) {
        const loadedUnder = loadedUsersUnder(this.entries, id, memo);
        const r = userTriState({ org, checked, known: this.users, loadedUnder, confirmed: this.confirmed.get(id) });
        usersState = r.state;
        if (r.needsConfirm && !this.requested.has(id)) toConfirm.push(id);
        if (this.selectType === 'user') {
          // Nothing to pick: no people, or all of them are already checked and fixed (disabled).
          const own = [...this.selected.values()].some(
            (i) => i.kind === 'user' && (i.user.parentIdList.includes(id) || loadedUnder?.has(i.id)),
          );
          if (org.hasEmpNum <= 0 || (r.state === 'all' && !own)) orgDisabled.add(id);
        }
      }
      if (this.selectType === 'user') orgStates.set(id, usersState);
      else {
        const own = orgTriState(id, chosenOrgs, (x) => this.selected.has(x) || this.disabled.has(x));
        orgStates.set(id, this.selectType === 'org' ? own : bothTriState(own, usersState));
        if (this.disabled.has(id)) orgDisabled.add(id);
      }
    }

    const snapshot: PickerSnapshot = {
      selectType: this.selectType,
      mode: this.mode,
      rootsLoading: this.rootsLoading || (this.rootIds === null && !this.rootsError),
      rootsError: this.rootsError,
      rows,
      query: this.query,
      search: this.query.trim() ? (this.search ?? { query: this.query.trim(), orgIds: [], userIds: [], total: 0, page: 0, loading: true, error: false }) : null,
      searchRows,
      selected: [...this.selected.values()],
      resolving: this.resolving > 0,
      orgStates,
      orgDisabled,
      busy: new Set(this.busy),
      orgs: this.orgs,
      users: this.users,
    };
    return { snapshot, toConfirm };
  }

  private searchRowsOf(withUsers: boolean): Row[] {
    const s = this.search;
    if (!s || !this.query.trim()) return [];
    const rows: Row[] = [];
    const orgIds = this.orgsCheckable ? s.orgIds : [];
    if (orgIds.length > 0) {
      rows.push({ kind: 'header', key: 'h:orgs', group: 'orgs', count: orgIds.length });
      for (const id of orgIds) rows.push({ kind: 'org', key: `so:${id}`, id, parent: null, depth: 0, expanded: false, expandable: false, loading: false });
    }
    if (withUsers && (s.userIds.length > 0 || s.total > 0)) {
      rows.push({ kind: 'header', key: 'h:users', group: 'users', count: s.total });
      for (const id of s.userIds) rows.push({ kind: 'user', key: `su:${id}`, id, orgId: null, depth: 0 });
      const remaining = s.total - s.userIds.length;
      if (remaining > 0 && !s.error) rows.push({ kind: 'more', key: 'sm', orgId: null, depth: 0, remaining, loading: s.loading });
    }
    if (s.error) rows.push({ kind: 'error', key: 'se', orgId: null, depth: 0 });
    return rows;
  }
}
