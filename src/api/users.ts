/** CONSOLE users group (spec 7.5; TEAM.md "CONSOLE users"): own password, user lists for pickers. */
import { z } from 'zod';
import { page } from '../../schemas/common';
import { UpdatePasswordBody } from '../../schemas/auth';
import {
  EnsureStatusBody,
  EnsureStatusResult,
  OrgsAndUsers,
  OrgWithUsersBody,
  PickerUser,
  PickerUserListQuery,
  SearchBody,
  UsersByIdsBody,
} from '../../schemas/org';
import type { PickerPaged } from './org';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/users';
export const consoleUserEndpoints = {
  updatePassword: { method: 'POST', url: `${base}/update-password`, name: 'users.updatePassword' },
  list: { method: 'GET', url: base, name: 'users.list' },
  byIds: { method: 'POST', url: `${base}/users-by-ids`, name: 'users.byIds' },
  orgsWithUsers: { method: 'POST', url: `${base}/orgs-with-users`, name: 'users.orgsWithUsers' },
  searchOrgsAndUsers: { method: 'POST', url: `${base}/search-orgs-and-users`, name: 'users.searchOrgsAndUsers' },
  ensureStatus: { method: 'POST', url: `${base}/users-ensure-status`, name: 'users.ensureStatus' },
} as const satisfies Record<string, Endpoint>;

export type UserListParams = Partial<z.infer<typeof PickerUserListQuery>>;

/** Changes the caller's own password (same body as base/update_password). */
export const changePassword = (body: z.input<typeof UpdatePasswordBody>, opts?: Opts) =>
  call(z.null(), consoleUserEndpoints.updatePassword, body, opts);

/** Enabled users of the caller's tenant, filtered by name (realName, username, nickname). */
export const listUsers = (q: UserListParams = {}, opts?: Opts) => call(page(PickerUser), consoleUserEndpoints.list, q, opts);

export const usersByIds = (body: z.input<typeof UsersByIdsBody>, opts?: Opts) =>
  call(z.array(PickerUser), consoleUserEndpoints.byIds, body, opts);

/** The direct child organisations of `orgId` and one page of its users. */
export const orgsWithUsers = (body: PickerPaged<typeof OrgWithUsersBody>, opts?: Opts) =>
  call(OrgsAndUsers, consoleUserEndpoints.orgsWithUsers, body, opts);

/** Organisations and users whose name contains `nameLike`. */
export const searchOrgsAndUsers = (body: PickerPaged<typeof SearchBody>, opts?: Opts) =>
  call(OrgsAndUsers, consoleUserEndpoints.searchOrgsAndUsers, body, opts);

/** For each organisation: are all, some or none of its users (sub-orgs included) in `userIds`? */
export const usersEnsureStatus = (body: z.input<typeof EnsureStatusBody>, opts?: Opts) =>
  call(EnsureStatusResult, consoleUserEndpoints.ensureStatus, body, opts);
