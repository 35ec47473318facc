import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { CurrentUser, LoginBody, LogoutBody, ProfileBody, RefreshBody, TokenPair, UpdatePasswordBody } from '../../../../schemas/auth';
import { ErrorCode } from '../../../../schemas/errors';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import { tenants, users } from '../../db/schema';
import { AppError, unauthenticated } from '../../errors';
import { hashPassword, verifyPassword } from '../../security/passwords';
import { findUserByName, tenantName } from '../../services/users';
import type { Db } from '../../db/client';
import { forgetCallers } from '../../auth';
import { checkPasswordLimited } from '../../security/login-limits';

const tags = ['console: base'];

export async function currentUser(db: Db, userId: string) {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  return {
    id: u.id,
    tenant_id: u.tenantId,
    tenant_name: await tenantName(db, u.tenantId),
    username: u.username,
    nickname: u.nickname,
    realName: u.realName,
    email: u.email,
    phone: u.phone,
    avatar: u.avatar,
    role: u.role,
    status: u.status,
  };
}

/**
 * Changes the caller's own password; shared by /base/update_password, /users/update-password and
 * /admin/users/password. The old-password check counts toward the sign-in limits of the account at
 * the client's `address` (security/login-limits.ts), so a stolen session cannot guess it freely.
 */
export async function changeOwnPassword(ctx: ServerContext, userId: string, address: string, oldPassword: string, newPassword: string) {
  const [u] = await ctx.db.select().from(users).where(eq(users.id, userId));
  const subject = { tenantId: u.tenantId, username: u.username, address };
  if (!(await checkPasswordLimited(ctx.db, ctx.settings, subject, () => verifyPassword(u.passwordHash, oldPassword)))) {
    throw new AppError(400, ErrorCode.PASSWORD_MISMATCH, 'The old password is incorrect');
  }
  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(newPassword), tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId));
  forgetCallers();
  await ctx.tokens.revokeAllFor(userId);
}

export const baseRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db, tokens } = ctx;

  const loginSummary = 'Sign in (local mode); while too many attempts failed, 429 AUTH-1006 with Retry-After';
  app.post('/login', { schema: { tags, summary: loginSummary, body: LoginBody, response: { 200: ok(TokenPair) } } }, async (req) => {
    const { tenantId, username, password } = req.body;
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
    const user = tenant ? await findUserByName(db, tenantId, username) : null;
    // Limited per account (known or not, so the limits do not reveal which exist) and per address.
    const valid = await checkPasswordLimited(db, ctx.settings, { tenantId, username, address: req.ip }, async () => {
      // Verify even for an unknown user so that timing does not reveal which accounts exist.
      const ok = await verifyPassword(user?.passwordHash ?? '$argon2id$v=19$m=19456,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', password);
      return Boolean(tenant && user && ok);
    });
    if (!tenant || !user || !valid) throw new AppError(400, ErrorCode.LOGIN_FAILED, 'Login failed: wrong account or password');
    if (user.status !== 1 || tenant.status !== 1) throw new AppError(403, ErrorCode.ACCOUNT_DISABLED, 'Login failed: the account or its tenant is disabled');
    // Single sign-on modes: account and password stay only as the super admin's break-glass path (WEFT_LOCAL_LOGIN).
    if (ctx.settings.authMode !== 'local' && (ctx.settings.localLogin === 'off' || user.role !== 'super_admin')) {
      throw new AppError(403, ErrorCode.LOCAL_LOGIN_OFF, 'Sign-in with account and password is off in this auth mode: use single sign-on');
    }
    const pair = await tokens.startSession({ sub: user.id, tid: user.tenantId, role: user.role, tv: user.tokenVersion });
    return { code: 0 as const, msg: 'success', data: pair };
  });

  app.post('/refresh', { schema: { tags, summary: 'Exchange a refresh token for a new token pair', body: RefreshBody, response: { 200: ok(TokenPair) } } }, async (req) => {
    const owner = await tokens.consumeRefresh(req.body.refresh_token);
    const [user] = owner ? await db.select().from(users).where(eq(users.id, owner.userId)) : [];
    const [tenant] = user ? await db.select().from(tenants).where(eq(tenants.id, user.tenantId)) : [];
    if (!owner || !user || !tenant || user.status !== 1 || tenant.status !== 1) {
      throw new AppError(401, ErrorCode.REFRESH_INVALID, 'The refresh token is invalid or expired');
    }
    const pair = await tokens.issue({ sub: user.id, tid: user.tenantId, role: user.role, tv: user.tokenVersion, sid: owner.sessionId });
    return { code: 0 as const, msg: 'success', data: pair };
  });

  app.post(
    '/logout',
    {
      schema: {
        tags,
        summary: 'Sign out: ends the session of the access token and/or of the refresh token (either one suffices)',
        body: LogoutBody,
        response: { 200: ok(z.null()) },
      },
    },
    async (req) => {
      // The access token is optional here (auth.ts OPTIONAL_AUTH): an expired one must not keep the
      // session's refresh token alive. A refresh token only ends a session of the caller, if any.
      const caller = req.caller;
      let ended = false;
      if (caller) ended = await tokens.revokeSession(caller.sessionId, caller.userId);
      const rt = req.body?.refresh_token;
      const owner = rt ? await tokens.ownerOfRefresh(rt) : null;
      if (owner && (!caller || owner.userId === caller.userId)) ended = (await tokens.revokeSession(owner.sessionId, owner.userId)) || ended;
      if (!ended) throw unauthenticated();
      return { code: 0 as const, msg: 'success', data: null };
    },
  );

  app.post('/update_password', { schema: { tags, summary: 'Change own password', body: UpdatePasswordBody, response: { 200: ok(z.null()) } } }, async (req) => {
    const caller = requireCaller(req);
    await changeOwnPassword(ctx, caller.userId, req.ip, req.body.old_password, req.body.new_password);
    return { code: 0 as const, msg: 'success', data: null };
  });

  app.get('/userinfo', { schema: { tags, summary: 'The signed-in user', response: { 200: ok(CurrentUser) } } }, async (req) => {
    const caller = requireCaller(req);
    return { code: 0 as const, msg: 'success', data: await currentUser(db, caller.userId) };
  });

  app.put('/profile', { schema: { tags, summary: 'Update own profile', body: ProfileBody, response: { 200: ok(CurrentUser) } } }, async (req) => {
    const caller = requireCaller(req);
    const b = req.body;
    if (Object.values(b).every((v) => v === undefined)) {
      throw new AppError(400, ErrorCode.FORM_ALL_EMPTY, 'Form non-ID data cannot all be empty');
    }
    await db
      .update(users)
      .set({ nickname: b.nickname, realName: b.realName, email: b.email, phone: b.phone, avatar: b.avatar, updatedAt: new Date() })
      .where(eq(users.id, caller.userId));
    return { code: 0 as const, msg: 'success', data: await currentUser(db, caller.userId) };
  });
};
