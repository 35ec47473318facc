import { z } from 'zod';
import { Id, Status, Timestamp } from './common';
import { noId, pageNumber, pageSize } from './guards';
import { NewPassword, SystemRole } from './auth';

export const Username = z.string().trim().min(2).max(64).regex(/^[A-Za-z0-9_.@-]+$/, 'letters, digits, _ . @ - only');

export const User = z.object({
  id: Id,
  tenant_id: Id,
  username: Username,
  nickname: z.string(),
  realName: z.string(),
  email: z.string(),
  phone: z.string(),
  avatar: z.string(),
  serial_number: z.string(),
  role: SystemRole,
  status: Status,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type User = z.infer<typeof User>;

/** A user's organisation as the admin user screens show it. */
export const UserOrg = z.object({ id: Id, name: z.string(), treeNames: z.string(), isMaster: z.boolean() });

/** A user in the admin group: the user plus its organisations (the master first). */
export const AdminUser = User.extend({ orgs: z.array(UserOrg) });
export type AdminUser = z.infer<typeof AdminUser>;

export const UserListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(1000),
  name: z.string().trim().max(64).optional(),
  status: z.coerce.number().pipe(Status).optional(),
  /** Only the holders of one system role (System › Roles). */
  role: SystemRole.optional(),
  tenant_id: Id.optional(),
});

const email = z.union([z.literal(''), z.email().max(128)]);
const phone = z.union([z.literal(''), z.string().regex(/^\+?[0-9][0-9 -]{4,19}$/, 'invalid phone')]);

export const UserCreateBody = z
  .object({
    ...noId,
    username: Username,
    password: NewPassword,
    nickname: z.string().trim().max(64).default(''),
    realName: z.string().trim().max(64).default(''),
    email: email.default(''),
    phone: phone.default(''),
    role: SystemRole.default('user'),
    /** Only a super admin may create users in another tenant. */
    tenant_id: Id.optional(),
    /** Organisations the user belongs to; the first is the master organisation. */
    org_ids: z.array(Id).max(20).default([]),
  })
  .strict();

export const UserUpdateBody = z
  .object({
    nickname: z.string().trim().max(64).optional(),
    realName: z.string().trim().max(64).optional(),
    email: email.optional(),
    phone: phone.optional(),
    role: SystemRole.optional(),
    org_ids: z.array(Id).max(20).optional(),
  })
  .strict();

export const AdminSetPasswordBody = z.object({ password: NewPassword }).strict();
