import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import { UpdatePasswordBody } from '../../../../schemas/auth';
import { ErrorCode } from '../../../../schemas/errors';
import { StatusBody } from '../../../../schemas/tenant';
import { AdminSetPasswordBody, AdminUser, UserCreateBody, UserListQuery, UserUpdateBody } from '../../../../schemas/user';
import type { Caller, ServerContext } from '../../context';
import type { SystemRole } from '../../../../schemas/auth';
import { UUID_RE } from '../../context';
import { requirePermission, roleMay } from '../../security/system-permissions';
import type { Db } from '../../db/client';
import { orgUsers, users } from '../../db/schema';
import { AppError, badRequest, exists, forbidden, notFoundOrForeign } from '../../errors';
import { hashPassword } from '../../security/passwords';
import { assertOrgsOfTenant, contains, loadOrgIndex, type OrgIndex } from '../../services/orgs';
import { scopeTenant } from '../../services/tenants';
import { createUser, findUserByName, setUserOrgs, toUser, type UserRow } from '../../services/users';
import { changeOwnPassword } from '../console/base';
import { forgetCallers } from '../../auth';
import { isUniqueViolation } from '../../db/pg-errors';

const tags = ['admin: users'];
const UserParams = z.object({ user_id: z.string().describe('User id') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * A user the caller may manage: a tenant admin only its own tenant's users (others are
 * VALIDATION-1000, as if unknown); with `change`, a tenant admin may not touch a super admin (403).
 */
export async function targetUser(db: Db, caller: Caller, userId: string, change: boolean): Promise<UserRow> {
  if (!UUID_RE.test(userId)) throw notFoundOrForeign('User', userId);
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  if (!u || (caller.role !== 'super_admin' && u.tenantId !== caller.tenantId)) throw notFoundOrForeign('User', userId);
  if (change && !roleMay(caller.role, 'roles.superAdmin') && u.role === 'super_admin') throw forbidden('Only a super admin may change a super admin');
  return u;
}

/**
 * The role rules of the user form and System › Roles alike: only a holder of `roles.superAdmin`
 * grants super_admin (403), and nobody changes their own role (400). `u` came from {@link targetUser}.
 */
export function checkRoleChange(caller: Caller, u: UserRow, role: SystemRole | undefined): void {
  if (role === 'super_admin' && !roleMay(caller.role, 'roles.superAdmin')) throw forbidden('Only a super admin may grant the super admin role');
  if (role !== undefined && role !== u.role && u.id === caller.userId) throw badRequest('You cannot change your own role');
}

/** Users with their organisations (master first). */
async function toAdminUsers(db: Db, rows: UserRow[]): Promise<AdminUser[]> {
  if (rows.length === 0) return [];
  const indexes = new Map<string, OrgIndex>();
  for (const t of new Set(rows.map((r) => r.tenantId))) indexes.set(t, await loadOrgIndex(db, t));
  const links = await db
    .select()
    .from(orgUsers)
    .where(inArray(orgUsers.userId, rows.map((r) => r.id)));
  return rows.map((u) => {
    const index = indexes.get(u.tenantId)!;
    const own = links
      .filter((l) => l.userId === u.id && index.byId.has(l.orgId))
      .map((l) => ({ node: index.byId.get(l.orgId)!, isMaster: l.isMaster }))
      .sort((a, b) => Number(b.isMaster) - Number(a.isMaster) || a.node.treeNames.localeCompare(b.node.treeNames));
    return { ...toUser(u), orgs: own.map((l) => ({ id: l.node.id, name: l.node.name, treeNames: l.node.treeNames, isMaster: l.isMaster })) };
  });
}

export async function adminUser(db: Db, userId: string) {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  return (await toAdminUsers(db, [u]))[0];
}

/** Set with an update that ends every access token of the user (token version); refresh tokens are revoked apart. */
const bumpTokenVersion = () => ({ tokenVersion: sql`${users.tokenVersion} + 1` });

/**
 * User management (spec 7.4 users): super admin or tenant admin. A tenant admin sees and changes
 * only its own tenant's users and never creates, promotes or changes a super admin. Nobody
 * disables, re-roles or resets the password of themselves here (their own password goes through
 * PUT /password with the old one).
 */
export const adminUserRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db } = ctx;
  const admin = (req: Parameters<typeof requirePermission>[0]) => requirePermission(req, 'users.manage');
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    admin(req);
  });

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "Users of the caller's tenant (a super admin may pass tenant_id), newest first; name matches username, realName, nickname",
        querystring: UserListQuery,
        response: { 200: ok(page(AdminUser)) },
      },
    },
    async (req) => {
      const caller = admin(req);
      const q = req.query;
      const tenantId = await scopeTenant(db, caller, q.tenant_id);
      const conds: SQL[] = [eq(users.tenantId, tenantId)];
      if (q.name) {
        const p = contains(q.name);
        conds.push(or(ilike(users.username, p), ilike(users.realName, p), ilike(users.nickname, p))!);
      }
      if (q.status !== undefined) conds.push(eq(users.status, q.status));
      if (q.role !== undefined) conds.push(eq(users.role, q.role));
      const where = and(...conds);
      const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(users).where(where);
      const rows = await db
        .select()
        .from(users)
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.serialNumber))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return done({ items: await toAdminUsers(db, rows), total: Number(total), page: q.page, page_size: q.page_size });
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a user (org_ids: the first is the master; none puts the user in the root organisation)',
        body: UserCreateBody,
        response: { 200: ok(AdminUser) },
      },
    },
    async (req) => {
      const caller = admin(req);
      const b = req.body;
      if (b.role === 'super_admin' && !roleMay(caller.role, 'roles.superAdmin')) throw forbidden('Only a super admin may create a super admin');
      const tenantId = await scopeTenant(db, caller, b.tenant_id);
      const orgIds = await assertOrgsOfTenant(db, tenantId, b.org_ids);
      if (await findUserByName(db, tenantId, b.username)) throw exists(`The username '${b.username}' already exists`);
      const row = await db
        .transaction((tx) =>
          createUser(tx, {
            tenantId,
            username: b.username,
            password: b.password,
            role: b.role,
            nickname: b.nickname,
            realName: b.realName,
            email: b.email,
            phone: b.phone,
            orgIds,
          }),
        )
        .catch((e: unknown) => {
          if (isUniqueViolation(e)) throw exists(`The username '${b.username}' already exists`);
          throw e;
        });
      return done(await adminUser(db, row.id));
    },
  );

  // Static path: registered beside '/:user_id/password'; fastify prefers the static segment.
  app.put(
    '/password',
    { schema: { tags, summary: 'Change your own password (old password required)', body: UpdatePasswordBody, response: { 200: ok(z.null()) } } },
    async (req) => {
      const caller = admin(req);
      await changeOwnPassword(ctx, caller.userId, req.ip, req.body.old_password, req.body.new_password);
      return done(null);
    },
  );

  app.get(
    '/:user_id',
    { schema: { tags, summary: 'One user with their organisations', params: UserParams, response: { 200: ok(AdminUser) } } },
    async (req) => {
      const u = await targetUser(db, admin(req), req.params.user_id, false);
      return done((await toAdminUsers(db, [u]))[0]);
    },
  );

  app.put(
    '/:user_id',
    {
      schema: {
        tags,
        summary: "Change a user's profile, role or organisations (fields left out stay)",
        params: UserParams,
        body: UserUpdateBody,
        response: { 200: ok(AdminUser) },
      },
    },
    async (req) => {
      const caller = admin(req);
      const b = req.body;
      const u = await targetUser(db, caller, req.params.user_id, true);
      if (Object.values(b).every((v) => v === undefined)) {
        throw new AppError(400, ErrorCode.FORM_ALL_EMPTY, 'Form non-ID data cannot all be empty');
      }
      checkRoleChange(caller, u, b.role);
      const orgIds = b.org_ids ? await assertOrgsOfTenant(db, u.tenantId, b.org_ids) : undefined;
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ nickname: b.nickname, realName: b.realName, email: b.email, phone: b.phone, role: b.role, updatedAt: new Date() })
          .where(eq(users.id, u.id));
        if (orgIds) await setUserOrgs(tx, u.tenantId, u.id, orgIds);
      });
      forgetCallers();
      return done(await adminUser(db, u.id));
    },
  );

  app.put(
    '/:user_id/status',
    {
      schema: {
        tags,
        summary: 'Enable (1) or disable (0) a user; disabling ends their sessions at once (not yourself)',
        params: UserParams,
        body: StatusBody,
        response: { 200: ok(AdminUser) },
      },
    },
    async (req) => {
      const caller = admin(req);
      const u = await targetUser(db, caller, req.params.user_id, true);
      if (req.body.status === 0 && u.id === caller.userId) throw badRequest('You cannot disable yourself');
      const disable = req.body.status === 0;
      await db
        .update(users)
        .set({ status: req.body.status, updatedAt: new Date(), ...(disable ? bumpTokenVersion() : {}) })
        .where(eq(users.id, u.id));
      forgetCallers();
      if (disable) await ctx.tokens.revokeAllFor(u.id);
      return done(await adminUser(db, u.id));
    },
  );

  app.put(
    '/:user_id/password',
    {
      schema: {
        tags,
        summary: "Set another user's password; their sessions end at once (your own: PUT /password)",
        params: UserParams,
        body: AdminSetPasswordBody,
        response: { 200: ok(z.null()) },
      },
    },
    async (req) => {
      const caller = admin(req);
      const u = await targetUser(db, caller, req.params.user_id, true);
      if (u.id === caller.userId) throw badRequest('Change your own password with the old one (PUT /admin/users/password)');
      const passwordHash = await hashPassword(req.body.password);
      await db.update(users).set({ passwordHash, updatedAt: new Date(), ...bumpTokenVersion() }).where(eq(users.id, u.id));
      forgetCallers();
      await ctx.tokens.revokeAllFor(u.id);
      return done(null);
    },
  );
};
