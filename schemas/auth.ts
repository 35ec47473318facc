import { z } from 'zod';
import { Id } from './common';

export const SystemRole = z.enum(['super_admin', 'tenant_admin', 'user']);
export type SystemRole = z.infer<typeof SystemRole>;

export const LoginBody = z.object({
  tenantId: Id,
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const TokenPair = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
});
export type TokenPair = z.infer<typeof TokenPair>;

export const RefreshBody = z.object({ refresh_token: z.string().min(1).max(512) });
export const LogoutBody = z.object({ refresh_token: z.string().max(512).optional() }).nullish();

/** Password policy: 8-128 characters with at least a letter and a digit. */
export const NewPassword = z
  .string()
  .min(8)
  .max(128)
  .regex(/[A-Za-z]/, 'must contain a letter')
  .regex(/[0-9]/, 'must contain a digit');

export const UpdatePasswordBody = z
  .object({
    old_password: z.string().min(1).max(128),
    new_password: NewPassword,
    confirm_password: z.string().min(1).max(128),
  })
  .refine((b) => b.new_password === b.confirm_password, {
    message: 'The passwords entered twice are inconsistent',
    path: ['confirm_password'],
  });

/** The signed-in user (GET /console/base/userinfo). */
export const CurrentUser = z.object({
  id: Id,
  tenant_id: Id,
  tenant_name: z.string(),
  username: z.string(),
  nickname: z.string(),
  realName: z.string(),
  email: z.string(),
  phone: z.string(),
  avatar: z.string(),
  role: SystemRole,
  status: z.number().int(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const ProfileBody = z
  .object({
    nickname: z.string().trim().max(64).optional(),
    realName: z.string().trim().max(64).optional(),
    email: z.union([z.literal(''), z.email().max(128)]).optional(),
    phone: z.union([z.literal(''), z.string().regex(/^\+?[0-9][0-9 -]{4,19}$/)]).optional(),
    avatar: z.string().max(1024).optional(),
  })
  .strict();
