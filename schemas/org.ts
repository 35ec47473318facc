import { z } from 'zod';
import { Id } from './common';

/** Picker user (spec 3). */
export const PickerUser = z.object({
  id: Id,
  name: z.string(),
  realName: z.string(),
  username: z.string(),
  avatar: z.string(),
  orgs: z.array(z.object({ id: Id, treeNames: z.string(), parentIds: z.array(z.string()), isMaster: z.boolean() })),
  parentIdList: z.array(z.string()),
  isMultiOrg: z.boolean(),
  masterOrgTreeName: z.string(),
});
export type PickerUser = z.infer<typeof PickerUser>;

export type PickerOrg = {
  id: string;
  name: string;
  treeNames: string;
  parentId: string | null;
  parentIds: string[];
  hasEmpNum: number;
  hasOrgNum: number;
  children: PickerOrg[];
  empList: PickerUser[];
};
/** Picker org (spec 3); children nest recursively. */
export const PickerOrg: z.ZodType<PickerOrg> = z.lazy(() =>
  z.object({
    id: Id,
    name: z.string(),
    treeNames: z.string(),
    parentId: z.string().nullable(),
    parentIds: z.array(z.string()),
    hasEmpNum: z.number().int(),
    hasOrgNum: z.number().int(),
    children: z.array(PickerOrg),
    empList: z.array(PickerUser),
  }),
);

export const UsersByIdsBody = z.object({ userIds: z.array(Id).max(1000) }).strict();
export const OrgsByIdsBody = z.object({ orgIds: z.array(Id).max(1000) }).strict();
export const OrgWithUsersBody = z.object({
  orgId: Id,
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(80),
});
export const SearchBody = z.object({
  nameLike: z.string().trim().min(1).max(64),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(80),
});
export const EnsureStatusBody = z
  .object({ orgUsers: z.array(z.object({ orgId: Id, userIds: z.array(Id).max(5000) })).max(500) })
  .strict();
export const SelectionState = z.enum(['all', 'half', 'none']);
export type SelectionState = z.infer<typeof SelectionState>;

export const OrgCreateBody = z.object({ name: z.string().trim().min(1).max(64), parentId: Id.nullable().default(null) }).strict();
