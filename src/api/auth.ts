/**
 * Local auth (spec 7.2 mode 1): sign-in, sign-out, token refresh and the signed-in user, on top of the
 * base endpoints and the session store.
 */
import type { CurrentUser, LoginBody } from '../../schemas/auth';
import { useSession } from '../app/session';
import { getUserInfo, login, logout, refreshToken } from './base';
import { exchangeTicket, ssoLogout } from './sso';
import { codeLogin, type CodeLoginInput } from './login-code';
import { getConfig } from '../app/config';
import { ApiError, type RequestOptions } from './request';

/**
 * Signs in: stores the token pair, the tenant and the user, and forgets the previous workspace.
 * Rejects with the login's ApiError (silent: show `describeError(e).text` in the form).
 */
export async function signIn(body: LoginBody, opts?: Pick<RequestOptions, 'signal'>): Promise<CurrentUser> {
  const pair = await login(body, opts);
  const session = useSession.getState();
  session.clear();
  session.setTokens(pair, body.tenantId);
  const user = await getUserInfo({ ...opts, reaction: 'silent' });
  useSession.getState().setUser(user);
  return user;
}

/**
 * Signs in with a verification code sent by email or SMS, and stores the session as {@link signIn}
 * does. Rejects with the ApiError (LOGIN-1005 when the code is wrong, expired or used).
 */
export async function signInWithCode(body: CodeLoginInput, opts?: Pick<RequestOptions, 'signal'>): Promise<CurrentUser> {
  const pair = await codeLogin(body, opts);
  const session = useSession.getState();
  session.clear();
  session.setTokens(pair, body.tenantId);
  const user = await getUserInfo({ ...opts, reaction: 'silent' });
  useSession.getState().setUser(user);
  return user;
}

/**
 * Single sign-on's return (spec 7.2): exchanges the one-time ticket for Weft's tokens and stores the
 * session as {@link signIn} does. Rejects with the exchange's ApiError (SSO-1001 when used or expired).
 */
export async function signInWithTicket(ticket: string, opts?: Pick<RequestOptions, 'signal'>): Promise<CurrentUser> {
  const pair = await exchangeTicket(ticket, opts);
  const session = useSession.getState();
  session.clear();
  session.setTokens(pair);
  const user = await getUserInfo({ ...opts, reaction: 'silent' });
  useSession.getState().setUser(user);
  return user;
}

/**
 * Signs out: revokes the refresh token (best effort, failures ignored) and clears the session. In the
 * single sign-on modes the browser then goes to the provider's end-session page, which ends the
 * provider's session too and comes back to /login.
 */
export async function signOut(): Promise<void> {
  const { accessToken, refreshToken: rt } = useSession.getState();
  useSession.getState().clear();
  if (!accessToken) return;
  if (getConfig().authMode !== 'local') {
    try {
      const { end_session_url } = await ssoLogout(rt ? { refresh_token: rt } : {}, { token: accessToken, reaction: 'silent', timeoutMs: 5000 });
      if (end_session_url && typeof window !== 'undefined') window.location.assign(end_session_url);
    } catch {
      // As below: the local session is gone whatever the server answered.
    }
    return;
  }
  try {
    await logout(rt ? { refresh_token: rt } : {}, { token: accessToken, reaction: 'silent', timeoutMs: 5000 });
  } catch {
    // The session is gone locally either way; an unreachable server must not keep the user signed in.
  }
}

let refreshing: Promise<boolean> | null = null;

/** The Web Locks name under which the tabs of this origin renew the session one at a time. */
export const REFRESH_LOCK = 'weft.session.refresh';

/**
 * Renews under a lock shared by the tabs of the origin (Web Locks; a secure context: https or
 * localhost). The server ends the whole session when a used refresh token comes again, so two tabs
 * must not send the same one: the tab that waited finds the other's new tokens and sends nothing.
 * Without Web Locks (plain http on another host) tabs pick up each other's tokens through storage
 * events only, and two renewing at the same moment may end the session.
 */
async function doRefresh(): Promise<boolean> {
  const rt = useSession.getState().refreshToken;
  if (!rt) return false;
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return refreshWith(rt);
  return locks.request(REFRESH_LOCK, async () => {
    // What another tab stored while this one waited (its storage event may not have arrived yet).
    await useSession.persist.rehydrate();
    const now = useSession.getState().refreshToken;
    if (now !== rt) return Boolean(now && useSession.getState().accessToken);
    return refreshWith(rt);
  });
}

async function refreshWith(rt: string): Promise<boolean> {
  try {
    const pair = await refreshToken({ refresh_token: rt });
    const now = useSession.getState();
    // Signed out (or in as someone else) meanwhile: do not resurrect the old session.
    if (now.refreshToken !== rt) return Boolean(now.accessToken);
    now.setTokens(pair);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
      // Another tab may have rotated the refresh token first: take its tokens if so.
      await useSession.persist.rehydrate();
      const after = useSession.getState().refreshToken;
      return Boolean(after && after !== rt);
    }
    throw e;
  }
}

/**
 * Renews the access token with the refresh token. Single flight: concurrent callers share one call
 * (refresh tokens rotate, so two parallel refreshes would sign the user out). Resolves true when a new
 * token is in the session, false when the refresh token is missing or refused; rejects (ApiError status
 * 0 or 5xx) when the server could not be asked, leaving the session as it was.
 */
export function refreshSession(): Promise<boolean> {
  if (refreshing) return refreshing;
  const p = doRefresh().finally(() => {
    if (refreshing === p) refreshing = null;
  });
  refreshing = p;
  return p;
}

let loadingUser: Promise<CurrentUser> | null = null;

/**
 * The signed-in user: from the session, else loaded once (concurrent callers share the call) and stored.
 * Silent: the caller (a guard) decides what a failure means.
 */
export function ensureUser(): Promise<CurrentUser> {
  const { user } = useSession.getState();
  if (user) return Promise.resolve(user);
  if (loadingUser) return loadingUser;
  // No caller's AbortSignal here: the call is shared, one caller leaving must not fail the others.
  const p = getUserInfo({ reaction: 'silent' })
    .then((u) => {
      if (useSession.getState().accessToken) useSession.getState().setUser(u);
      return u;
    })
    .finally(() => {
      if (loadingUser === p) loadingUser = null;
    });
  loadingUser = p;
  return p;
}
