/**
 * The route tree (spec 2): every top-level route, its guard (a loader from ./guards), its layout and
 * its page. Pages load lazily through `lazyWithReload` (a chunk that fails to load reloads the page
 * once).
 *
 * | Path | Guard | Page |
 * |---|---|---|
 * | / | ticket stripping (root) | → /operation |
 * | /login, /403, /404 | — | sign-in, permission denied, not found |
 * | /operation/** | login (redirect_uri) | console: home, my, error, store, app editors |
 * | /operation/workspace/:workspace_id/** | workspace | project-space tabs |
 * | /operation/system/** | system (admins) | system admin |
 * | /portal, /portal/index | — | → /portal/sessions/discover |
 * | /portal/** | login for /portal/chat/:appId | portal |
 * | /personal/personal-center | login | personal center |
 * | /:single-segment, /deeper/unknown | — | → /operation, → /404 |
 *
 * The console's routes (/operation/**, /personal/**) are in ./console-routes.tsx, a chunk of its own that
 * the router adds under the root the first time a navigation goes there ({@link routeAreas}): the entry
 * chunk, which every page loads first (the portal's first load has a 200 KB budget), holds only these.
 */
import { createBrowserRouter, Outlet, ScrollRestoration, type PatchRoutesOnNavigationFunctionArgs, type RouteObject } from 'react-router';
import { loadTexts } from '../i18n';
import { PORTAL_NAMESPACES } from '../i18n/startup';
import { Spinner } from '../ui/spinner';
import { lazyWithReload, loginGuard, rootRedirects, ticketGuard } from './guards';
import { indexTo, page } from './route-helpers';
import { BareLayout } from './shell/layouts';
import type { RouteHandle } from './shell/route-handle';
import { RootErrorBoundary, RouteErrorBoundary } from './shell/route-error';
import { loginLoader } from './screens/login/login-loader';
import { ForbiddenPage, NotFoundPage } from './screens/status/status-pages';

/** The portal's texts, loaded by its routes (a loader must return a value: null). */
const portalTexts = async () => (await loadTexts(PORTAL_NAMESPACES), null);

function portalRoutes(): RouteObject {
  return {
    path: 'portal',
    // The portal's texts load with its routes (the app starts with the shell's only).
    loader: portalTexts,
    handle: { area: 'portal', crumb: () => ({ labelKey: 'pages:portal.root', href: '/portal' }) } satisfies RouteHandle,
    children: [
      { index: true, loader: rootRedirects.portal, element: null },
      { path: 'index', loader: rootRedirects.portal, element: null },
      // The chat without the portal's chrome, for an iframe; sign-in required (spec 2).
      {
        path: 'chat/:appId',
        loader: loginGuard,
        lazy: page(() => import('./portal/chat/embed-chat-page')),
        errorElement: <RouteErrorBoundary />,
        handle: { title: 'portal.embeddedChat' } satisfies RouteHandle,
      },
      {
        // The portal's layout and pages are their own part of the client: none of the console's code.
        lazy: page(() => import('./portal/portal-layout')),
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              {
                path: 'sessions',
                children: [
                  indexTo('discover'),
                  { path: 'discover', lazy: page(() => import('./portal/discover/discover-page')), handle: { title: 'portal.discover', crumb: true } },
                  { path: 'sessions-page', lazy: page(() => import('./portal/sessions/sessions-page')), handle: { title: 'portal.sessions', crumb: true } },
                  { path: 'chat/:appId', lazy: page(() => import('./portal/chat/chat-page')), handle: { title: 'portal.chat', crumb: true, fullHeight: true } },
                  { path: 'workflow/:appId', lazy: page(() => import('./portal/workflow/workflow-page')), handle: { title: 'portal.workflow', crumb: true } },
                ],
              },
              {
                path: 'gbi-data-settings/gbi-data-settings-page',
                lazy: page(() => import('./screens/portal/gbi-settings-layout')),
                handle: { title: 'portal.gbiSettings', crumb: true } satisfies RouteHandle,
                children: [
                  indexTo('database-management'),
                  { path: 'database-management', lazy: page(() => import('./portal/gbi/database-management-page')), handle: { title: 'portal.gbiDatabase', crumb: true } },
                  { path: 'file-management', lazy: page(() => import('./portal/gbi/file-management-page')), handle: { title: 'portal.gbiFiles', crumb: true } },
                ],
              },
              {
                path: 'gbi',
                children: [
                  indexTo('ask'),
                  { path: 'ask', lazy: page(() => import('./portal/gbi/ask-page')), handle: { title: 'portal.gbiAsk', crumb: true, fullHeight: true } },
                  { path: 'table-display', lazy: page(() => import('./portal/gbi/table-display-page')), handle: { title: 'portal.gbiTable', crumb: true } },
                  { path: 'session-list-item', lazy: page(() => import('./portal/gbi/session-page')), handle: { title: 'portal.gbiSessionList', crumb: true } },
                ],
              },
              {
                path: 'single-agent/single-agent-chat',
                lazy: page(() => import('./portal/chat/single-agent-page')),
                handle: { title: 'portal.singleAgentChat', crumb: true, fullHeight: true },
              },
            ],
          },
        ],
      },
    ],
  };
}

/** Shown while the first route's loaders run (the very first paint after start-up). */
function StartupFallback() {
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh', color: 'var(--color-text-tertiary)' }}>
      <Spinner size={20} />
    </div>
  );
}

function Root() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/**
 * The route tree without the console's routes (exported for tests:
 * `createMemoryRouter(buildRoutes(), { initialEntries, ...routeAreas() })`).
 */
export function buildRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      id: 'root',
      element: <Root />,
      loader: ticketGuard,
      errorElement: <RootErrorBoundary />,
      hydrateFallbackElement: <StartupFallback />,
      children: [
        { index: true, loader: rootRedirects.root, element: null },
        {
          element: <BareLayout />,
          children: [
            { path: 'login', loader: loginLoader, lazy: page(() => import('./screens/login/login-page')), handle: { title: 'login' } },
            { path: '403', element: <ForbiddenPage />, handle: { title: 'forbidden.title' } },
            { path: '404', element: <NotFoundPage />, handle: { title: 'notFound.title' } },
          ],
        },
        portalRoutes(),
        // Matches /operation/** and /personal/** until the console's routes are in (then only unknown paths).
        { path: '*', loader: rootRedirects.unknown, element: null },
      ],
    },
  ];
}

/** Paths whose routes are in ./console-routes.tsx. */
const CONSOLE_AREA = /^\/(operation|personal)(\/|$)/;

/** The console's route table, loaded once per page (reloads the page once if its chunk is gone, as pages do). */
const loadConsoleRoutes = lazyWithReload(() => import('./console-routes'));

/**
 * Starts loading the route table of the area a path is in, if it has its own (the entry calls it with the
 * first URL before /config.json is in, so that the table is not one more round trip after it). `/` goes
 * to /operation.
 */
export function preloadRouteArea(pathname: string): void {
  if (pathname === '/' || CONSOLE_AREA.test(pathname)) void loadConsoleRoutes().catch(() => {});
}

/**
 * The router option that adds the console's routes under the root the first time a navigation (or the
 * first load) goes below /operation or /personal: react-router calls it for any path that it matched only
 * through a splat or a parameter (here the root's `*`), and matches again after it. One per router.
 */
export function routeAreas() {
  let consoleAdded = false;
  return {
    async patchRoutesOnNavigation({ path, patch, signal }: PatchRoutesOnNavigationFunctionArgs) {
      if (consoleAdded || !CONSOLE_AREA.test(path)) return;
      const { consoleRoutes } = await loadConsoleRoutes();
      // A navigation that was superseded meanwhile patches nothing (react-router ignores it): the next adds them.
      if (consoleAdded || signal.aborted) return;
      patch('root', consoleRoutes());
      consoleAdded = true;
    },
  };
}

/** The app's router (one per page load). */
export function createAppRouter() {
  return createBrowserRouter(buildRoutes(), routeAreas());
}
