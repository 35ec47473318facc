/** Route paths the infrastructure navigates to (spec 2). Screens may use them too. */
export const paths = {
  root: '/',
  login: '/login',
  operation: '/operation',
  forbidden: '/403',
  notFound: '/404',
  portal: '/portal',
  portalDiscover: '/portal/sessions/discover',
} as const;

/** Name of the query parameter /login reads to know where to go after signing in. */
export const REDIRECT_PARAM = 'redirect_uri';

/**
 * `/login?redirect_uri=<target>` (target = path + search, URI-encoded); plain `/login` when there is no
 * target worth returning to (none, `/`, or the login page itself).
 */
export function loginPath(target?: string | null): string {
  if (!target || target === '/' || target === paths.login || target.startsWith(`${paths.login}?`)) return paths.login;
  return `${paths.login}?${REDIRECT_PARAM}=${encodeURIComponent(target)}`;
}

/**
 * Where to go after signing in: the `redirect_uri` when it is a path of this app (starts with one `/`,
 * not `//` or `/\`, so no open redirect to another site), else /operation (spec 2).
 *
 * @example safeRedirectTarget(new URLSearchParams(location.search).get('redirect_uri'))
 */
export function safeRedirectTarget(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return paths.operation;
  if (raw === paths.login || raw.startsWith(`${paths.login}?`) || raw.startsWith(`${paths.login}/`)) return paths.operation;
  return raw;
}
