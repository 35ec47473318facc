import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { ssoSessions, ssoStates, ssoTickets, tenants, users } from '../db/schema';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import type { IssuedPair } from '../security/tokens';
import { accountFromClaims } from './accounts';
import { createRelyingParty, ssoFailed, type RelyingParty } from './oidc';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** How long the provider may take to send the browser back (the user signs in there meanwhile). */
const STATE_TTL_MS = 10 * 60_000;
/** A ticket is exchanged by the page the browser lands on, at once. */
const TICKET_TTL_MS = 60_000;
export const CALLBACK_PATH = '/api/v1/common/sso/callback';

export interface BeginInput {
  /** The path of this app to land on (already checked: a same-origin path). */
  redirectPath: string;
  /** This server's address as the browser sees it (WEFT_PUBLIC_URL, else the request's). */
  baseUrl: string;
  appCode?: string;
  tenantId?: string;
  loginType?: string;
}

export interface SsoService {
  relyingParty: RelyingParty;
  /** The provider's authorization URL for a new sign-in (state, nonce and PKCE verifier stored). */
  begin(input: BeginInput): Promise<URL>;
  /** Completes the provider's redirect: the path (with `ticket`) the browser goes to next. */
  complete(currentUrl: URL): Promise<string>;
  /** Exchanges a ticket, once, for Weft's tokens (a new session, as a local sign-in starts). */
  exchange(ticket: string): Promise<IssuedPair>;
  /** The provider's end-session URL for a Weft session started by single sign-on, if any. */
  endSessionUrl(sessionId: string, postLogoutRedirect: string): Promise<string | null>;
}

/** The single sign-on service of the configured provider; null in local mode. */
export function createSsoService(ctx: ServerContext, log?: (detail: unknown) => void): SsoService | null {
  const rp = createRelyingParty(ctx.db, ctx.settings, log);
  if (!rp) return null;
  const { db, settings } = ctx;

  return {
    relyingParty: rp,
    async begin(input) {
      const config = await rp.config();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      // Old unfinished sign-ins go as new ones start: the table stays small without a timer.
      await db.delete(ssoStates).where(lt(ssoStates.expiresAt, new Date()));
      await db.insert(ssoStates).values({ stateHash: sha256(state), nonce, codeVerifier, redirectUri: input.redirectPath, expiresAt: new Date(Date.now() + STATE_TTL_MS) });
      const params: Record<string, string> = {
        redirect_uri: input.baseUrl + CALLBACK_PATH,
        scope: settings.oidcScopes,
        response_type: 'code',
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      };
      // Spec 7.2's get-auth-URL parameters travel on to the provider (a ticket-style provider reads them).
      if (settings.authMode === 'sso') {
        params.appCode = input.appCode ?? settings.ssoAppCode;
        if (input.tenantId) params.tenantId = input.tenantId;
        if (input.loginType) params.loginType = input.loginType;
      }
      return client.buildAuthorizationUrl(config, params);
    },

    async complete(currentUrl) {
      const state = currentUrl.searchParams.get('state');
      if (!state) throw ssoFailed('the provider sent no state');
      // Taken and deleted in one statement: a state (and so a code) is completed once.
      const [pending] = await db.delete(ssoStates).where(eq(ssoStates.stateHash, sha256(state))).returning();
      if (!pending || pending.expiresAt.getTime() < Date.now()) throw ssoFailed('the sign-in request is unknown or expired');
      const providerError = currentUrl.searchParams.get('error');
      if (providerError) throw ssoFailed(`the provider answered ${providerError.slice(0, 100)}`);
      const config = await rp.config();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: pending.codeVerifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true });
      } catch (e) {
        log?.({ msg: 'OpenID code exchange failed', error: String(e), cause: String((e as { cause?: unknown }).cause ?? '') });
        throw ssoFailed('the provider refused the code');
      }
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) throw ssoFailed('the provider sent no id token');
      // The id token carries what the provider puts there; the rest (email, name, custom claims) may be at userinfo.
      let all: Record<string, unknown> = { ...claims };
      if (config.serverMetadata().userinfo_endpoint) {
        try {
          all = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
        } catch (e) {
          log?.({ msg: 'OpenID userinfo failed', error: String(e) });
        }
      }
      const user = await accountFromClaims(db, settings, rp.issuer.href, all);
      const ticket = randomBytes(32).toString('base64url');
      await db.delete(ssoTickets).where(lt(ssoTickets.expiresAt, new Date(Date.now() - 3600_000)));
      await db.insert(ssoTickets).values({ ticketHash: sha256(ticket), userId: user.id, idToken: tokens.id_token, expiresAt: new Date(Date.now() + TICKET_TTL_MS) });
      const target = new URL(pending.redirectUri, 'http://x');
      target.searchParams.set('ticket', ticket);
      return target.pathname + target.search + target.hash;
    },

    async exchange(ticket) {
      const now = new Date();
      // One statement: of two uses of a ticket only one gets the row.
      const [row] = await db
        .update(ssoTickets)
        .set({ usedAt: now })
        .where(and(eq(ssoTickets.ticketHash, sha256(ticket)), isNull(ssoTickets.usedAt), gt(ssoTickets.expiresAt, now)))
        .returning();
      if (!row) throw new AppError(400, ErrorCode.SSO_TICKET_INVALID, 'The sign-in ticket is unknown, expired or already used');
      const [u] = await db.select({ user: users, tenantStatus: tenants.status }).from(users).innerJoin(tenants, eq(tenants.id, users.tenantId)).where(eq(users.id, row.userId));
      if (!u || u.user.status !== 1 || u.tenantStatus !== 1) throw new AppError(403, ErrorCode.ACCOUNT_DISABLED, 'Login failed: the account or its tenant is disabled');
      const pair = await ctx.tokens.startSession({ sub: u.user.id, tid: u.user.tenantId, role: u.user.role, tv: u.user.tokenVersion });
      const sid = (await ctx.tokens.verifyAccess(pair.access_token))!.sid;
      await db.insert(ssoSessions).values({ sessionId: sid, idToken: row.idToken });
      return pair;
    },

    async endSessionUrl(sessionId, postLogoutRedirect) {
      const [row] = await db.select().from(ssoSessions).where(eq(ssoSessions.sessionId, sessionId));
      if (!row) return null;
      const config = await rp.config();
      if (!config.serverMetadata().end_session_endpoint) return null;
      return client
        .buildEndSessionUrl(config, { id_token_hint: row.idToken, post_logout_redirect_uri: postLogoutRedirect, client_id: settings.oidcClientId! })
        .toString();
    },
  };
}
