/**
 * Single sign-on (spec 7.2 modes 2 and 3): the get-auth-URL the browser is sent to, the ticket's
 * exchange for Weft's tokens, and the sign-out that also ends the provider's session.
 */
import { call, type Endpoint, type RequestOptions } from './request';

const schemas = () => import('../../schemas/sso');
const tokenPair = async () => (await import('../../schemas/auth')).TokenPair;
const logoutResult = async () => (await schemas()).SsoLogoutResult;

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

export const ssoEndpoints = {
  authUrl: { method: 'GET', url: '/api/v1/common/sso/auth-url', name: 'sso.authUrl' },
  ticket: { method: 'POST', url: '/api/v1/common/sso/ticket', name: 'sso.ticket' },
  logout: { method: 'POST', url: '/api/v1/common/sso/logout', name: 'sso.logout' },
} as const satisfies Record<string, Endpoint>;

/** The get-auth-URL the browser navigates to (the server redirects it on to the provider). */
export function ssoAuthUrl(p: { appCode: string; redirectUri: string; tenantId: string; loginType: string }): string {
  const q = new URLSearchParams(p);
  return `${ssoEndpoints.authUrl.url}?${q.toString()}`;
}

/** Exchanges the one-time ticket for a token pair. Silent: the caller shows the failure on /login. */
export const exchangeTicket = (ticket: string, opts?: Opts) =>
  call(tokenPair, ssoEndpoints.ticket, { ticket }, { auth: false, workspaceId: null, reaction: 'silent', ...opts });

/** Ends the Weft session; answers where the browser goes to end the provider's session too. */
export const ssoLogout = (body: { refresh_token?: string }, opts?: Opts) => call(logoutResult, ssoEndpoints.logout, body, opts);
