import { z } from 'zod';
import { Id, Status, Timestamp } from './common';
import { noId, pageNumber, pageSize } from './guards';
import { NewPassword } from './auth';

export const Tenant = z.object({
  id: Id,
  name: z.string(),
  status: Status,
  is_default: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
  updated_by: z.string(),
});
export type Tenant = z.infer<typeof Tenant>;

export const TenantListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(1000),
  name: z.string().trim().max(64).optional(),
  status: z.coerce.number().pipe(Status).optional(),
});

/** Creating a tenant also creates its first tenant admin with this login password. */
export const TenantCreateBody = z
  .object({
    ...noId,
    name: z.string().trim().min(1).max(64),
    admin_username: z.string().trim().min(2).max(64).regex(/^[A-Za-z0-9_.@-]+$/),
    password: NewPassword,
  })
  .strict();

export const TenantUpdateBody = z.object({ name: z.string().trim().min(1).max(64) }).strict();
export const StatusBody = z.object({ status: Status }).strict();

/** Public tenant info for the login page (COMMON group). */
export const PublicTenant = z.object({ id: Id, name: z.string(), is_default: z.boolean() });
