/**
 * The picker's default data source: the real API (src/api). Failures go through the request
 * layer's reactions (a toast), so the picker only shows an inline retry.
 */
import { orgsByIds, orgWithUsersById, pickerUsersByIds } from '../../api/org';
import { orgsWithUsers, searchOrgsAndUsers, usersEnsureStatus } from '../../api/users';
import { ROOT_ORG_ID, type PickerDataSource } from './types';

/** The by-ids calls take at most 1000 ids: larger lists go in several calls. */
async function inChunks<T>(ids: string[], call: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 1000) out.push(...(await call(ids.slice(i, i + 1000))));
  return out;
}

export const apiPickerSource: PickerDataSource = {
  // The all-zero id stands for the tenant's root; only the root itself is kept (its children load on expand).
  roots: async (o) => {
    const root = await orgWithUsersById({ orgId: ROOT_ORG_ID, page: 1, page_size: 1 }, { signal: o?.signal });
    const { empTotal: _t, page: _p, page_size: _s, ...org } = root;
    return [{ ...org, children: [], empList: [] }];
  },
  children: (orgId, page, pageSize, o) => orgsWithUsers({ orgId, page, page_size: pageSize }, { signal: o?.signal }),
  search: (nameLike, page, pageSize, o) => searchOrgsAndUsers({ nameLike, page, page_size: pageSize }, { signal: o?.signal }),
  usersByIds: (ids, o) => inChunks(ids, (userIds) => pickerUsersByIds({ userIds }, { signal: o?.signal })),
  orgsByIds: (ids, o) => inChunks(ids, (orgIds) => orgsByIds({ orgIds }, { signal: o?.signal })),
  ensureStatus: (entries, o) => usersEnsureStatus({ orgUsers: entries }, { signal: o?.signal }),
};
