/** COMMON organisation picker calls (spec 7.6; TEAM.md "Picker calls"). */
import { z } from 'zod';
import { OrgsAndUsers, OrgsByIdsBody, OrgWithUsersBody, PickerOrg, PickerOrgWithUsers, PickerUser, SearchBody, UsersByIdsBody } from '../../schemas/org';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;
/** A picker body whose page and page_size may be left out (the server defaults: page 1, 80 per page). */
export type PickerPaged<S extends z.ZodType> = Omit<z.infer<S>, 'page' | 'page_size'> & { page?: number; page_size?: number };

const base = '/api/v1/common/org';
export const orgPickerEndpoints = {
  treeList: { method: 'POST', url: `${base}/tree-list`, name: 'org.treeList' },
  search: { method: 'POST', url: `${base}/search`, name: 'org.search' },
  byOrgId: { method: 'POST', url: `${base}/by-orgId`, name: 'org.byOrgId' },
  byOrgIds: { method: 'POST', url: `${base}/by-orgIds`, name: 'org.byOrgIds' },
  usersByUserIds: { method: 'POST', url: `${base}/users/by-userIds`, name: 'org.usersByUserIds' },
} as const satisfies Record<string, Endpoint>;

/** The caller's organisation tree (children nested, empList empty). */
export const orgTreeList = (opts?: Opts) => call(z.array(PickerOrg), orgPickerEndpoints.treeList, {}, opts);

/** Organisations and one page of users whose names contain `nameLike`. */
export const searchOrgs = (body: PickerPaged<typeof SearchBody>, opts?: Opts) => call(OrgsAndUsers, orgPickerEndpoints.search, body, opts);

/** One organisation (the all-zero root id stands for the tenant's root) with its children and a page of its users. */
export const orgWithUsersById = (body: PickerPaged<typeof OrgWithUsersBody>, opts?: Opts) =>
  call(PickerOrgWithUsers, orgPickerEndpoints.byOrgId, body, opts);

/** The given organisations (unknown ids left out). */
export const orgsByIds = (body: z.input<typeof OrgsByIdsBody>, opts?: Opts) => call(z.array(PickerOrg), orgPickerEndpoints.byOrgIds, body, opts);

/** Enabled users by id (unknown ids left out). */
export const pickerUsersByIds = (body: z.input<typeof UsersByIdsBody>, opts?: Opts) =>
  call(z.array(PickerUser), orgPickerEndpoints.usersByUserIds, body, opts);
