import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { ok } from '../../../../schemas/common';
import { TokenPair } from '../../../../schemas/auth';
import { ErrorCode } from '../../../../schemas/errors';
import { CodeLoginBody, SendLoginCodeBody, SendLoginCodeResult } from '../../../../schemas/login-code';
import type { ServerContext } from '../../context';
import { tenants } from '../../db/schema';
import { AppError } from '../../errors';
import { createLoginCodeService } from '../../login/codes';
import { sendersFromSettings, type CodeSenders } from '../../login/senders';

const tags = ['console: base'];

/**
 * Verification-code sign-in (spec 5 login variants): send a code to a user's phone (SMS) or email,
 * then sign in with it. Lands exactly as a password sign-in does (a new session, the same token
 * pair); in the single sign-on modes it follows the same rule as account and password (super admins
 * only, unless WEFT_LOCAL_LOGIN=off). Registered under /console/base beside /login.
 */
export const loginCodeRoutes =
  (ctx: ServerContext, senders?: CodeSenders): FastifyPluginAsyncZod =>
  async (app) => {
    const log = (detail: unknown, msg: string) => app.log.warn(detail, msg);
    const codes = createLoginCodeService(ctx, senders ?? sendersFromSettings(ctx.settings, ctx.outbound, log), log);

    app.post(
      '/send_code',
      {
        schema: {
          tags,
          summary: 'Send a sign-in code by email or SMS; the same answer whether or not a user has the address. 429 RATE-1000 while sending there waits',
          body: SendLoginCodeBody,
          response: { 200: ok(SendLoginCodeResult) },
        },
      },
      async (req) => {
        const b = req.body;
        const data = await codes.send({ tenantId: b.tenantId, channel: b.channel, target: b.target, lang: b.lang, address: req.ip });
        return { code: 0 as const, msg: 'success', data };
      },
    );

    app.post(
      '/code_login',
      { schema: { tags, summary: 'Sign in with a code sent by email or SMS (LOGIN-1005 when wrong, expired or used)', body: CodeLoginBody, response: { 200: ok(TokenPair) } } },
      async (req) => {
        const b = req.body;
        const user = await codes.verify({ tenantId: b.tenantId, channel: b.channel, target: b.target, code: b.code, address: req.ip });
        const [tenant] = await ctx.db.select().from(tenants).where(eq(tenants.id, user.tenantId));
        if (user.status !== 1 || tenant?.status !== 1) throw new AppError(403, ErrorCode.ACCOUNT_DISABLED, 'Login failed: the account or its tenant is disabled');
        // As for account and password (routes/console/base.ts): in the SSO modes a break-glass path only.
        if (ctx.settings.authMode !== 'local' && (ctx.settings.localLogin === 'off' || user.role !== 'super_admin')) {
          throw new AppError(403, ErrorCode.LOCAL_LOGIN_OFF, 'Sign-in with a verification code is off in this auth mode: use single sign-on');
        }
        const pair = await ctx.tokens.startSession({ sub: user.id, tid: user.tenantId, role: user.role, tv: user.tokenVersion });
        return { code: 0 as const, msg: 'success', data: pair };
      },
    );
  };
