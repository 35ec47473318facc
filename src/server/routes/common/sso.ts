import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../../../schemas/common';
import { TokenPair } from '../../../../schemas/auth';
import { ErrorCode } from '../../../../schemas/errors';
import { SsoAuthUrlQuery, SsoCallbackQuery, SsoLogoutBody, SsoLogoutResult, SsoTicketBody } from '../../../../schemas/sso';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import { AppError } from '../../errors';
import { CALLBACK_PATH, createSsoService } from '../../sso/service';

const tags = ['common: single sign-on'];

/** A path of this app (never another origin: '//host', '/\\host' or a scheme); else the console. */
export function landingPath(v: string | undefined): string {
  if (!v || !v.startsWith('/') || v.startsWith('//') || v.startsWith('/\\') || /[\u0000-\u001f]/.test(v)) return '/operation';
  return v;
}

/**
 * Single sign-on through the operator's OpenID provider (spec 7.2 modes 2 and 3): the get-auth-URL
 * call sends the browser to the provider; the provider's redirect comes back to the callback, which
 * sends the browser to its landing path with a one-time `ticket`; the page exchanges the ticket for
 * Weft's tokens (the same token pair and session as a local sign-in) and strips it from the URL.
 * A failure in the browser's round trip lands on /login with `sso_error` set to the catalogue code.
 */
export const commonSsoRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const sso = createSsoService(ctx, (detail) => app.log.warn(detail, 'single sign-on'));
  const enabled = () => {
    if (!sso) throw new AppError(400, ErrorCode.SSO_NOT_ENABLED, 'Single sign-on is not the configured auth mode');
    return sso;
  };
  const baseUrl = (req: FastifyRequest) => (ctx.settings.publicUrl ?? `${req.protocol}://${req.host}`).replace(/\/+$/, '');

  app.get(
    '/auth-url',
    { schema: { tags, summary: 'Get-auth-URL: redirects the browser (302) to the identity provider', querystring: SsoAuthUrlQuery } },
    async (req, reply) => {
      const s = enabled();
      const q = req.query;
      const url = await s.begin({ redirectPath: landingPath(q.redirectUri), baseUrl: baseUrl(req), appCode: q.appCode, tenantId: q.tenantId, loginType: q.loginType });
      return reply.header('cache-control', 'no-store').redirect(url.toString(), 302);
    },
  );

  app.get(
    '/callback',
    { schema: { tags, summary: "The provider's redirect back: on to the landing path with a one-time ticket, or to /login with sso_error", querystring: SsoCallbackQuery } },
    async (req, reply) => {
      const s = enabled();
      const current = new URL(req.url, baseUrl(req) + '/');
      // The provider answered this URL; openid-client compares the redirect_uri by it.
      const callback = new URL(baseUrl(req) + CALLBACK_PATH);
      callback.search = current.search;
      let next: string;
      try {
        next = await s.complete(callback);
      } catch (e) {
        const code = e instanceof AppError ? e.code : ErrorCode.SSO_FAILED;
        if (!(e instanceof AppError)) req.log.warn({ err: e }, 'single sign-on callback failed');
        next = `/login?sso_error=${encodeURIComponent(code)}`;
      }
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(next, 302);
    },
  );

  app.post(
    '/ticket',
    { schema: { tags, summary: "Exchange the callback's one-time ticket for Weft's token pair", body: SsoTicketBody, response: { 200: ok(TokenPair) } } },
    async (req) => {
      const pair = await enabled().exchange(req.body.ticket);
      return { code: 0 as const, msg: 'success', data: pair };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags,
        summary: "Sign out and get the provider's end-session URL, to end the provider's session too",
        body: SsoLogoutBody,
        response: { 200: ok(SsoLogoutResult) },
      },
    },
    async (req) => {
      const caller = requireCaller(req);
      const url = sso ? await sso.endSessionUrl(caller.sessionId, `${baseUrl(req)}/login`).catch(() => null) : null;
      await ctx.tokens.revokeSession(caller.sessionId, caller.userId);
      const rt = req.body?.refresh_token;
      const owner = rt ? await ctx.tokens.ownerOfRefresh(rt) : null;
      if (owner && owner.userId === caller.userId) await ctx.tokens.revokeSession(owner.sessionId, owner.userId);
      return { code: 0 as const, msg: 'success', data: { end_session_url: url } };
    },
  );
};
