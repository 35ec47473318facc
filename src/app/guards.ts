/**
 * Route guards and redirect rules (spec 2 "Guards", "Top level") as react-router 7 loader functions.
 * No React here: each takes the loader arguments, throws `redirect(...)` to send the user elsewhere, and
 * otherwise returns what it loaded. Guards are self-sufficient (each checks sign-in first), so a route
 * can use one alone; they are cheap to repeat (the user is loaded once).
 *
 * @example
 * createBrowserRouter([
 *   { index: true, loader: rootRedirects.root },
 *   { path: 'portal', loader: rootRedirects.portal },
 *   { path: 'operation', loader: loginGuard, lazy: lazyWithReload(() => import('./operation/route')), children: [
 *     { path: 'workspace/:workspace_id', loader: workspaceGuard, errorElement: <RouteError/>, … },
 *     { path: 'system', loader: systemGuard, … },
 *   ] },
 *   { path: '*', loader: rootRedirects.unknown },
 * ]);
 * // In the error element: const e = useRouteError(); if (isRouteNotFound(e)) → 'The project does not exist' + e.errorId
 */
import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { CurrentUser } from '../../schemas/auth';
import { PARAM_ERROR } from '../api/error-codes';
import type { Workspace } from '../../schemas/workspace';
import { ensureUser, signInWithTicket } from '../api/auth';
import { getConfig } from './config';
import { describeError, notify } from '../api/reactions';
import { ApiError, isAbortError } from '../api/request';
import { loginPath, paths } from './paths';
import { useSession } from './session';

type GuardArgs = Pick<LoaderFunctionArgs, 'request' | 'params'>;

const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

// ---------------------------------------------------------------------------------------------------
// Route error

/** What kind of resource an error screen is about (keys of `errors:notFound.*`). */
export type RouteErrorType = 'workspace';

/**
 * Thrown by a guard when the page's resource does not exist or cannot be viewed (spec 4: "Error-id info
 * is set (errorType, errorState error, errorId)"). The route's error element shows the non-existent
 * picture, `t(\`errors:notFound.${errorType}\`)` and the id, and a back button.
 */
export class RouteNotFoundError extends Error {
  override readonly name = 'RouteNotFoundError';
  readonly kind = 'not-found' as const;
  readonly errorState = 'error' as const;
  constructor(
    readonly errorType: RouteErrorType,
    readonly errorId: string,
    options?: { cause?: unknown },
  ) {
    super(`${errorType} ${errorId} does not exist`, options);
  }
}

export function isRouteNotFound(e: unknown): e is RouteNotFoundError {
  return e instanceof RouteNotFoundError || (typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'not-found');
}

// ---------------------------------------------------------------------------------------------------
// Guards

/**
 * Signed in? No token → /login?redirect_uri=<path+search>. Otherwise resolves to the current user (loaded
 * once and kept in the session). If the session turns out to be dead (refresh refused), the same redirect.
 */
export async function loginGuard({ request }: GuardArgs): Promise<CurrentUser> {
  if (!useSession.getState().accessToken) throw redirect(loginPath(pathOf(request)));
  try {
    return await ensureUser();
  } catch (e) {
    if (!useSession.getState().accessToken || (e instanceof ApiError && e.status === 401)) {
      throw redirect(loginPath(pathOf(request)));
    }
    throw e;
  }
}

/**
 * Strips a `ticket` query parameter (identity-provider return, spec 7.2) and re-enters the route
 * without it. Returns null when there is none.
 */
export function ticketGuard({ request }: GuardArgs): null | Promise<never> {
  const url = new URL(request.url);
  const ticket = url.searchParams.get('ticket');
  if (ticket === null) return null;
  url.searchParams.delete('ticket');
  const next = url.pathname + url.search;
  if (getConfig().authMode === 'local') throw redirect(next);
  // Single sign-on: the ticket is exchanged for Weft's tokens first; a failure shows on /login.
  return signInWithTicket(ticket, { signal: request.signal }).then(
    () => {
      throw redirect(next);
    },
    (e: unknown) => {
      if (isAbortError(e)) throw e;
      const code = e instanceof ApiError && e.code ? e.code : 'SSO-1000';
      throw redirect(`${paths.login}?sso_error=${encodeURIComponent(code)}`);
    },
  );
}

/**
 * Switches to the workspace of the route (`:workspace_id`): loads it, stores it as the session's
 * workspace (X-Workspace-Id) and resolves to it. VALIDATION-1000 (missing, deleted, foreign or not
 * joined) throws {@link RouteNotFoundError} `{errorType: 'workspace', errorId}`; any other failure shows
 * its message and redirects to / (spec 2).
 */
export async function workspaceGuard(args: GuardArgs): Promise<Workspace> {
  await loginGuard(args);
  const id = args.params.workspace_id;
  if (!id) throw redirect(paths.root);
  try {
    // The workspaces API (and zod with its schemas) loads with the first console route, not at start-up.
    const { getWorkspace } = await import('../api/workspaces');
    const workspace = await getWorkspace(id, { signal: args.request.signal, reaction: 'silent' });
    useSession.getState().setWorkspace(workspace.id);
    return workspace;
  } catch (e) {
    if (isAbortError(e)) throw e;
    if (e instanceof ApiError && e.code === PARAM_ERROR) throw new RouteNotFoundError('workspace', id, { cause: e });
    if (!useSession.getState().accessToken) throw redirect(loginPath(pathOf(args.request)));
    const message = describeError(e);
    if (message) notify(message);
    throw redirect(paths.root);
  }
}

const SYSTEM_ROLES: readonly CurrentUser['role'][] = ['super_admin', 'tenant_admin'];

/** Whether a user may enter the system-admin area. */
export const canEnterSystem = (user: Pick<CurrentUser, 'role'> | null | undefined) => Boolean(user && SYSTEM_ROLES.includes(user.role));

/** The system-admin area: super admins and tenant admins only; others go to / (spec 2). */
export async function systemGuard(args: GuardArgs): Promise<CurrentUser> {
  const user = await loginGuard(args);
  if (!canEnterSystem(user)) throw redirect(paths.root);
  return user;
}

// ---------------------------------------------------------------------------------------------------
// Redirect rules

/**
 * Where an unknown path goes (spec 2): a single-segment name (`/foo`, `/foo/`) → /operation; anything
 * deeper → /404.
 */
export function unknownPathTarget(pathname: string): string {
  const segments = pathname.split('/').filter(Boolean);
  return segments.length <= 1 ? paths.operation : paths.notFound;
}

/** Loaders for the fixed redirects of spec 2. */
export const rootRedirects = {
  /** `/` → /operation. */
  root: () => redirect(paths.operation),
  /** `/portal` and `/portal/index` → /portal/sessions/discover. */
  portal: () => redirect(paths.portalDiscover),
  /** The catch-all route (`path: '*'`): single segment → /operation, else /404. */
  unknown: ({ request }: Pick<LoaderFunctionArgs, 'request'>) => redirect(unknownPathTarget(new URL(request.url).pathname)),
};

// ---------------------------------------------------------------------------------------------------
// Lazy modules

const RELOAD_KEY = 'weft.lazy-reload-at';
/** A second failure within this window after a reload is a real failure, not a stale deployment. */
const RELOAD_WINDOW_MS = 10_000;

/**
 * The page's sessionStorage, or null where the browser denies it: reading the property throws in a
 * third-party frame when third-party cookies are blocked (the embedded chat on a customer's page).
 */
function sessionStore(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export interface LazyReloadOptions {
  /** Default `window.location.reload()`. */
  reload?: () => void;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  now?: () => number;
}

/**
 * Wraps a dynamic import so that a module that fails to load (typically a chunk gone after a new
 * deployment) reloads the page once (spec 4). At most one automatic reload per 10 s: a failure within 10 s of
 * the last reload is passed on (the route's error element shows it) instead of reloading in a loop; the
 * time of the reload lives in sessionStorage so it survives the reload. Works for `React.lazy` and for route `lazy`.
 *
 * @example
 * const Members = lazy(lazyWithReload(() => import('./workspace/members')));
 * { path: 'member', lazy: lazyWithReload(() => import('./workspace/members.route')) }
 */
export function lazyWithReload<T>(importer: () => Promise<T>, options: LazyReloadOptions = {}): () => Promise<T> {
  const reload = options.reload ?? (() => window.location.reload());
  const storage = options.storage ?? sessionStore();
  const now = options.now ?? Date.now;
  return async () => {
    try {
      return await importer();
    } catch (e) {
      // Without storage nothing remembers the reload across it: reloading could loop, so show the failure.
      if (!storage) throw e;
      const last = Number(storage.getItem(RELOAD_KEY) ?? 0);
      if (!last || now() - last > RELOAD_WINDOW_MS) {
        storage.setItem(RELOAD_KEY, String(now()));
        reload();
        // Keep the route pending until the page goes away.
        return new Promise<T>(() => {});
      }
      throw e;
    }
  };
}
