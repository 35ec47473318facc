/**
 * An in-memory {@link PickerDataSource} for stories and tests: the same answers as the server
 * (counts, paging, search, users-ensure-status) over a small seed, with an optional delay and a
 * log of the calls made.
 *
 * @example
 * const source = createMemoryPickerSource(demoPickerSeed(), { latencyMs: 100 });
 * <PersonOrgPicker open dataSource={source} … />
 * source.calls.filter((c) => c.method === 'ensureStatus').length;
 */
import { ROOT_ORG_ID, type EnsureStatusEntry, type PickerDataSource, type PickerOrg, type PickerUser, type TriState } from './types';

export interface MemorySeedOrg {
  id: string;
  name: string;
  parentId: string | null;
}

export interface MemorySeedUser {
  id: string;
  /** Display name (realName). */
  name: string;
  username?: string;
  avatar?: string;
  /** The user's organisations, the master first. */
  orgIds: string[];
}

export interface MemorySeed {
  orgs: MemorySeedOrg[];
  users: MemorySeedUser[];
}

export interface MemoryPickerSourceOptions {
  /** Delay of every answer in ms. Default 0. */
  latencyMs?: number;
  /** Methods that fail (reject with an Error). */
  fail?: Partial<Record<keyof PickerDataSource, boolean>>;
}

export interface MemoryPickerSource extends PickerDataSource {
  /** Every call, in order. */
  calls: { method: keyof PickerDataSource; args: unknown[] }[];
  fail: Partial<Record<keyof PickerDataSource, boolean>>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (ms <= 0) return void queueMicrotask(resolve);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new DOMException('Aborted', 'AbortError'));
    });
  });

export function createMemoryPickerSource(seed: MemorySeed, opts: MemoryPickerSourceOptions = {}): MemoryPickerSource {
  const orgById = new Map(seed.orgs.map((o) => [o.id, o]));
  const childrenOf = (id: string | null) => seed.orgs.filter((o) => o.parentId === id);
  const ancestors = (id: string): string[] => {
    const out: string[] = [];
    for (let cur = orgById.get(id)?.parentId ?? null; cur; cur = orgById.get(cur)?.parentId ?? null) out.unshift(cur);
    return out;
  };
  const treeNames = (id: string) => [...ancestors(id), id].map((x) => orgById.get(x)?.name ?? '').join('/');
  const under = (id: string): Set<string> => {
    const ids = new Set([id]);
    const stack = [id];
    while (stack.length) for (const c of childrenOf(stack.pop()!)) if (!ids.has(c.id)) (ids.add(c.id), stack.push(c.id));
    return new Set(seed.users.filter((u) => u.orgIds.some((o) => ids.has(o))).map((u) => u.id));
  };
  const toOrg = (o: MemorySeedOrg): PickerOrg => ({
    id: o.id,
    name: o.name,
    treeNames: treeNames(o.id),
    parentId: o.parentId,
    parentIds: ancestors(o.id),
    hasEmpNum: under(o.id).size,
    hasOrgNum: childrenOf(o.id).length,
    children: [],
    empList: [],
  });
  const toUser = (u: MemorySeedUser): PickerUser => ({
    id: u.id,
    name: u.name,
    realName: u.name,
    username: u.username ?? u.name.toLowerCase().replace(/\s+/g, '.'),
    avatar: u.avatar ?? '',
    orgs: u.orgIds.map((id, i) => ({ id, treeNames: treeNames(id), parentIds: ancestors(id), isMaster: i === 0 })),
    parentIdList: [...new Set(u.orgIds.flatMap((id) => [...ancestors(id), id]))],
    isMultiOrg: u.orgIds.length > 1,
    masterOrgTreeName: u.orgIds[0] ? treeNames(u.orgIds[0]) : '',
  });
  const byName = (a: MemorySeedUser, b: MemorySeedUser) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  const pageOf = <T>(items: T[], page: number, size: number) => ({
    items: items.slice((page - 1) * size, page * size),
    total: items.length,
    page,
    page_size: size,
  });

  const source: MemoryPickerSource = {
    calls: [],
    fail: { ...opts.fail },
    async roots(o) {
      return answer('roots', [], o?.signal, () => childrenOf(null).map(toOrg));
    },
    async children(orgId, page, pageSize, o) {
      return answer('children', [orgId, page, pageSize], o?.signal, () => {
        const id = orgId === ROOT_ORG_ID ? childrenOf(null)[0]?.id : orgId;
        if (!id || !orgById.has(id)) throw new Error(`Unknown organisation ${orgId}`);
        const direct = seed.users.filter((u) => u.orgIds.includes(id)).sort(byName);
        return { orgs: childrenOf(id).map(toOrg), users: { ...pageOf(direct, page, pageSize), items: pageOf(direct, page, pageSize).items.map(toUser) } };
      });
    },
    async search(nameLike, page, pageSize, o) {
      return answer('search', [nameLike, page, pageSize], o?.signal, () => {
        const needle = nameLike.trim().toLowerCase();
        const orgs = seed.orgs.filter((x) => x.name.toLowerCase().includes(needle)).map(toOrg);
        const users = seed.users
          .filter((u) => u.name.toLowerCase().includes(needle) || (u.username ?? '').toLowerCase().includes(needle))
          .sort(byName);
        const p = pageOf(users, page, pageSize);
        return { orgs, users: { ...p, items: p.items.map(toUser) } };
      });
    },
    async usersByIds(ids, o) {
      return answer('usersByIds', [ids], o?.signal, () =>
        ids.flatMap((id) => {
          const u = seed.users.find((x) => x.id === id);
          return u ? [toUser(u)] : [];
        }),
      );
    },
    async orgsByIds(ids, o) {
      return answer('orgsByIds', [ids], o?.signal, () =>
        ids.flatMap((id) => {
          const org = orgById.get(id);
          return org ? [toOrg(org)] : [];
        }),
      );
    },
    async ensureStatus(entries: EnsureStatusEntry[], o) {
      return answer('ensureStatus', [entries], o?.signal, () => {
        const out: Record<string, TriState> = {};
        for (const e of entries) {
          const all = orgById.has(e.orgId) ? under(e.orgId) : new Set<string>();
          const n = new Set(e.userIds.filter((id) => all.has(id))).size;
          out[e.orgId] = n === 0 ? 'none' : n === all.size ? 'all' : 'half';
        }
        return out;
      });
    },
  };

  async function answer<T>(method: keyof PickerDataSource, args: unknown[], signal: AbortSignal | undefined, fn: () => T): Promise<T> {
    source.calls.push({ method, args });
    await sleep(opts.latencyMs ?? 0, signal);
    if (source.fail[method]) throw new Error(`${method} failed`);
    return fn();
  }

  return source;
}

// ---------------------------------------------------------------------------------------------
// Demo data

/** A UUID made from a number (deterministic ids for stories and tests). */
export const demoId = (kind: 'org' | 'user', n: number) =>
  `${kind === 'org' ? '0a000000' : '0b000000'}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const FIRST = ['Alice', 'Bob', 'Carol', 'David', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy', 'Mallory', 'Niaj', 'Olivia', 'Peggy', 'Rupert', 'Sybil', 'Trent', 'Victor', 'Walter', 'Yvonne'];
const LAST = ['Chen', 'Wang', 'Li', 'Zhang', 'Liu', 'Smith', 'Novak', 'Garcia', 'Kim', 'Okafor'];

/**
 * A small company: Weft Inc. → Engineering (Platform, Frontend), Product, Sales (North, South), and
 * a Support organisation with `supportSize` people (default 200: more than one page of 80).
 * Frank Li also belongs to Product (a person in two organisations).
 */
export function demoPickerSeed(supportSize = 200): MemorySeed {
  const o = (n: number, name: string, parent: number | null): MemorySeedOrg => ({ id: demoId('org', n), name, parentId: parent === null ? null : demoId('org', parent) });
  const orgs = [
    o(1, 'Weft Inc.', null),
    o(2, 'Engineering', 1),
    o(3, 'Platform', 2),
    o(4, 'Frontend', 2),
    o(5, 'Product', 1),
    o(6, 'Sales', 1),
    o(7, 'North', 6),
    o(8, 'South', 6),
    o(9, 'Support', 1),
    o(10, 'Legal', 1),
  ];
  let n = 0;
  const users: MemorySeedUser[] = [];
  const add = (name: string, ...orgNums: number[]) => {
    n++;
    users.push({ id: demoId('user', n), name, username: name.toLowerCase().replace(/\s+/g, '.'), orgIds: orgNums.map((x) => demoId('org', x)) });
  };
  add('Alice Chen', 3);
  add('Bob Wang', 3);
  add('Carol Li', 3);
  add('David Zhang', 4);
  add('Erin Liu', 4);
  add('Frank Li', 4, 5);
  add('Grace Smith', 5);
  add('Heidi Novak', 5);
  add('Ivan Garcia', 7);
  add('Judy Kim', 7);
  add('Mallory Okafor', 8);
  add('Niaj Chen', 2);
  add('Olivia Wang', 1);
  for (let i = 0; i < supportSize; i++) add(`${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i + 1}`, 9);
  return { orgs, users };
}
