import { z } from 'zod';
import { Id, ROOT_ORG_ID, page } from './common';
import { noId, pageNumber, pageSize } from './guards';

/** Picker user (spec 3). */
export const PickerUser = z.object({
  id: Id,
  /** Display name: realName, else nickname, else username. */
  name: z.string(),
  realName: z.string(),
  username: z.string(),
  avatar: z.string(),
  /** The user's organisations, the master first. */
  orgs: z.array(z.object({ id: Id, treeNames: z.string(), parentIds: z.array(z.string()), isMaster: z.boolean() })),
  /** Every organisation on the paths to the user's organisations (ancestors and the organisations themselves). */
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
const pickerOrgFields = {
  id: Id,
  name: z.string(),
  /** Names from the root down to this organisation, joined with '/'. */
  treeNames: z.string(),
  parentId: z.string().nullable(),
  /** Ancestor ids from the root (this organisation excluded). */
  parentIds: z.array(z.string()),
  /** Users in this organisation and all its sub-organisations (each user counted once). */
  hasEmpNum: z.number().int(),
  /** Direct child organisations. */
  hasOrgNum: z.number().int(),
  empList: z.array(PickerUser),
};
/** Picker org (spec 3); children nest recursively. */
export const PickerOrg: z.ZodType<PickerOrg> = z.lazy(() => z.object({ ...pickerOrgFields, children: z.array(PickerOrg) }));

/** One organisation with its direct children and one page of its direct users (empList). */
export const PickerOrgWithUsers = z.object({
  ...pickerOrgFields,
  children: z.array(PickerOrg),
  /** Direct users of the organisation (the total behind empList's paging). */
  empTotal: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

/** Organisation id in picker calls; the all-zero root id (spec 9) stands for the tenant's root organisation. */
const PickerOrgId = z.union([z.literal(ROOT_ORG_ID), Id]);
/** Picker paging: 80 per page by default (spec 9). */
const pickerPage = { page: pageNumber, page_size: pageSize(1000, 80) };

export const UsersByIdsBody = z.object({ userIds: z.array(Id).max(1000) }).strict();
export const OrgsByIdsBody = z.object({ orgIds: z.array(Id).max(1000) }).strict();
export const OrgWithUsersBody = z.object({ orgId: PickerOrgId, ...pickerPage });
export const SearchBody = z.object({ nameLike: z.string().trim().min(1).max(64), ...pickerPage });
export const EnsureStatusBody = z
  .object({ orgUsers: z.array(z.object({ orgId: Id, userIds: z.array(Id).max(5000) })).max(500) })
  .strict();
export const SelectionState = z.enum(['all', 'half', 'none']);
export type SelectionState = z.infer<typeof SelectionState>;
/** users-ensure-status answer: organisation id → state of the selection. */
export const EnsureStatusResult = z.record(z.string(), SelectionState);

/** Direct child organisations (or matching organisations) and a page of users. */
export const OrgsAndUsers = z.object({ orgs: z.array(PickerOrg), users: page(PickerUser) });

/** Console users list (GET /console/users): enabled users of the caller's tenant. */
export const PickerUserListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(1000),
  name: z.string().trim().max(64).optional(),
});

/** An organisation name: '/' is refused because treeNames joins names with it. */
export const OrgName = z
  .string()
  .trim()
  .min(1, 'This form field is required!')
  .max(64)
  .refine((v) => !v.includes('/'), "'/' is not allowed in an organisation name");

/** parentId null puts the organisation under the tenant's root; tenant_id (super admin only) picks the tenant then. */
export const OrgCreateBody = z
  .object({ ...noId, name: OrgName, parentId: Id.nullable().default(null), tenant_id: Id.optional() })
  .strict();
export const OrgRenameBody = z.object({ name: OrgName }).strict();
export const OrgTreeQuery = z.object({ tenant_id: Id.optional() });

/** One entry of the platform switcher (GET /common/switch-app-config). */
export const SwitchAppEntry = z.object({
  /** console, portal or system. */
  code: z.string(),
  name: z.string(),
  url: z.string(),
  icon: z.string().optional(),
});
export type SwitchAppEntry = z.infer<typeof SwitchAppEntry>;
