import { z } from 'zod';
import { Id, Timestamp } from './common';
import { noId, needsId, pageNumber, pageSize } from './guards';
import { WORKSPACE_PAGE_MAX } from './workspace-limits';

export const MemberRole = z.enum(['owner', 'admin', 'ordinary_member']);
export type MemberRole = z.infer<typeof MemberRole>;

export { WORKSPACE_PAGE_MAX };

export const Workspace = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  /** The caller's role in this workspace. */
  role_type: MemberRole,
  member_count: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(WORKSPACE_PAGE_MAX, WORKSPACE_PAGE_MAX),
  name: z.string().trim().max(64).optional(),
});

const name = z.string().trim().min(1, 'This form field is required!').max(50);
const description = z.string().trim().max(500);
const icon = z.string().max(1024);

export const WorkspaceCreateBody = z
  .object({ ...noId, name, description: description.default(''), icon: icon.default('') })
  .strict();

export const WorkspaceUpdateBody = z
  .object({ ...needsId, name: name.optional(), description: description.optional(), icon: icon.optional() })
  .strict();

export const Member = z.object({
  id: Id,
  user_id: Id,
  name: z.string(),
  serial_number: z.string(),
  account: z.string(),
  role: MemberRole,
  nick_name: z.string(),
  avatar: z.string(),
  added_at: Timestamp,
});
export type Member = z.infer<typeof Member>;

export const MemberListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(1000),
  name: z.string().trim().max(64).optional(),
  role: MemberRole.optional(),
});

/** Add users as members; owner cannot be given here (use transfer). */
export const MemberAddBody = z
  .object({
    user_ids: z.array(Id).min(1).max(500),
    role: z.enum(['admin', 'ordinary_member']).default('ordinary_member'),
  })
  .strict();

export const MemberUpdateBody = z.object({ role: z.enum(['admin', 'ordinary_member']) }).strict();

export const TransferBody = z.object({ workspace_id: Id, member_id: Id }).strict();
