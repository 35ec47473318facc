/**
 * Local auth (spec 7.2 mode 1): sign-in, sign-out, token refresh and the signed-in user, on top of the
 * base endpoints and the session store.
 */
import type { CurrentUser, LoginBody } from '../../schemas/auth';
import { useSession } from '../app/session';
import { getUserInfo, login, logout, refreshToken } from './base';
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

/** Signs out: revokes the refresh token (best effort, failures ignored) and clears the session. */
export async function signOut(): Promise<void> {
  const { accessToken, refreshToken: rt } = useSession.getState();
  useSession.getState().clear();
  if (!accessToken) return;
  try {
    await logout(rt ? { refresh_token: rt } : {}, { token: accessToken, reaction: 'silent', timeoutMs: 5000 });
  } catch {
    // The session is gone locally either way; an unreachable server must not keep the user signed in.
  }
}

let refreshing: Promise<boolean> | null = null;

async function doRefresh(): Promise<boolean> {
  const rt = useSession.getState().refreshToken;
  if (!rt) return false;
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
