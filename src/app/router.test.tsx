import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import type { CurrentUser } from '../../schemas/auth';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { installReactions, setNavigator } from '../api/reactions';
import { configureRequest } from '../api/request';
import { fail, ok, startServer, type TestServer } from '../api/testing/http-server';
import { initI18n } from '../i18n';
import { resources } from '../i18n/resources';
import { isRouteNotFound } from './guards';
import { consoleRoutes, pageOrSkeleton } from './console-routes';
import { buildRoutes, routeAreas } from './router';
import { useSession } from './session';
import type { RouteHandle } from './shell/route-handle';

const WS = '11111111-1111-4111-8111-111111111111';
const user = (role: CurrentUser['role']): CurrentUser => ({
  id: '22222222-2222-4222-8222-222222222222',
  tenant_id: DEFAULT_TENANT_ID,
  tenant_name: 'Default',
  username: 'ann',
  nickname: 'Ann',
  realName: 'Ann',
  email: '',
  phone: '',
  avatar: '',
  role,
  status: 1,
});
const workspace = {
  id: WS,
  name: 'Alpha',
  description: '',
  icon: '',
  role_type: 'owner',
  member_count: 1,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
};

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
  await initI18n('en');
  installReactions();
  setNavigator(vi.fn());
});
afterAll(() => server.close());
beforeEach(() => {
  useSession.getState().clear();
  server.handle((req, res) => {
    if (req.path === `/api/v1/console/workspaces/${WS}`) return ok(res, workspace);
    fail(res, 400, 'VALIDATION-1000', 'Workspace does not exist');
  });
});

const signIn = (role: CurrentUser['role'] = 'user') =>
  useSession.setState({ accessToken: 'tok', refreshToken: 'rt', tokenExpiresAt: Date.now() + 900_000, user: user(role) });

/** Opens a path in a memory router and waits until loaders and redirects are done (the layouts load lazily: slow on a busy machine). */
async function open(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path], ...routeAreas() });
  await vi.waitFor(() => expect(router.state.initialized && router.state.navigation.state === 'idle').toBe(true), { timeout: 15000 });
  const { pathname, search } = router.state.location;
  return { router, at: pathname + search };
}

describe('redirects (spec 2 top level)', () => {
  it('/ goes to /operation, which needs a sign-in (login guard carries the target)', async () => {
    expect((await open('/')).at).toBe('/login?redirect_uri=%2Foperation');
    signIn();
    expect((await open('/')).at).toBe('/operation');
  });

  it('a single-segment unknown name goes to /operation, deeper unknown paths to /404', async () => {
    signIn();
    expect((await open('/nope')).at).toBe('/operation');
    expect((await open('/nope/')).at).toBe('/operation');
    expect((await open('/a/b/c')).at).toBe('/404');
    expect((await open('/operation/nope')).at).toBe('/404');
    expect((await open(`/operation/workspace/${WS}/nope`)).at).toBe('/404');
  });

  it('/portal and /portal/index go to /portal/sessions/discover', async () => {
    expect((await open('/portal')).at).toBe('/portal/sessions/discover');
    expect((await open('/portal/index')).at).toBe('/portal/sessions/discover');
  });

  it('strips a ticket parameter and re-enters the route', async () => {
    signIn();
    expect((await open('/operation/my?ticket=ST-1&tab=a')).at).toBe('/operation/my?tab=a');
  });

  it('index routes land on their first child', async () => {
    signIn();
    expect((await open('/operation/app/a1')).at).toBe('/operation/app/a1/agent-builder/base');
    expect((await open('/operation/app/a1/agent-team')).at).toBe('/operation/app/a1/agent-team/base');
    expect((await open('/operation/store')).at).toBe('/operation/store/app');
    expect((await open('/personal')).at).toBe('/personal/personal-center');
    expect((await open('/operation/workspace')).at).toBe('/operation');
  });
});

describe('guards on the route tree', () => {
  it('the login guard covers /operation, /portal/chat and /personal, not the rest of the portal', async () => {
    expect((await open('/operation/store/tool?x=1')).at).toBe('/login?redirect_uri=%2Foperation%2Fstore%2Ftool%3Fx%3D1');
    expect((await open('/portal/chat/app-1')).at).toBe('/login?redirect_uri=%2Fportal%2Fchat%2Fapp-1');
    expect((await open('/personal/personal-center')).at).toBe('/login?redirect_uri=%2Fpersonal%2Fpersonal-center');
    expect((await open('/portal/sessions/discover')).at).toBe('/portal/sessions/discover');
  });

  it('/login sends someone signed in on to redirect_uri (a path of this app only)', async () => {
    expect((await open('/login?redirect_uri=%2Foperation%2Fmy')).at).toBe('/login?redirect_uri=%2Foperation%2Fmy');
    signIn();
    expect((await open('/login?redirect_uri=%2Foperation%2Fmy')).at).toBe('/operation/my');
    expect((await open('/login?redirect_uri=https%3A%2F%2Fevil.example')).at).toBe('/operation');
  });

  it('the system guard lets admins in and sends others to / (then /operation)', async () => {
    signIn('user');
    expect((await open('/operation/system/user')).at).toBe('/operation');
    signIn('tenant_admin');
    expect((await open('/operation/system')).at).toBe('/operation/system/model');
    signIn('super_admin');
    expect((await open('/operation/system/tenant')).at).toBe('/operation/system/tenant');
  });

  it('the workspace guard switches to the workspace and lands on its app tab', async () => {
    signIn();
    const { router, at } = await open(`/operation/workspace/${WS}`);
    expect(at).toBe(`/operation/workspace/${WS}/app`);
    expect(router.state.loaderData.workspace).toMatchObject({ id: WS, name: 'Alpha' });
    expect(useSession.getState().workspaceId).toBe(WS);
  });

  it('a missing project stays on its URL with the "does not exist" error and the id', async () => {
    signIn();
    const missing = '99999999-9999-4999-8999-999999999999';
    const { router, at } = await open(`/operation/workspace/${missing}/tool`);
    expect(at).toBe(`/operation/workspace/${missing}/tool`);
    const error = router.state.errors?.workspace;
    expect(isRouteNotFound(error)).toBe(true);
    expect(error).toMatchObject({ errorType: 'workspace', errorId: missing });
  });
});

describe('route areas (the console\'s routes load with their first navigation)', () => {
  /** How many routes of a tree have this path. */
  const count = (routes: readonly { path?: string; children?: unknown }[], path: string): number =>
    routes.reduce((n, r) => n + (r.path === path ? 1 : 0) + count((r.children as typeof routes | undefined) ?? [], path), 0);

  it('the first table has the portal and no console route; the console\'s come in once, on the first navigation there', async () => {
    expect(count(buildRoutes(), 'portal')).toBe(1);
    expect(count(buildRoutes(), 'operation') + count(buildRoutes(), 'personal')).toBe(0);
    signIn();
    const { router, at } = await open('/portal/sessions/discover');
    expect(at).toBe('/portal/sessions/discover');
    expect(count(router.routes, 'operation')).toBe(0);
    const go = async (to: string) => {
      await router.navigate(to);
      await vi.waitFor(() => expect(router.state.navigation.state).toBe('idle'), { timeout: 15000 });
      return router.state.location.pathname;
    };
    expect(await go('/operation/my')).toBe('/operation/my');
    expect(await go('/personal')).toBe('/personal/personal-center');
    expect(await go('/operation/nope')).toBe('/404');
    expect(await go('/nope')).toBe('/operation');
    expect(await go('/portal/sessions/discover')).toBe('/portal/sessions/discover');
    expect([count(router.routes, 'operation'), count(router.routes, 'personal')]).toEqual([1, 1]);
  });

  it('a navigation that another replaces before the table is in leaves the routes to the next one', async () => {
    signIn();
    const { router } = await open('/portal/sessions/discover');
    void router.navigate('/operation/my');
    await router.navigate('/operation/store');
    await vi.waitFor(() => expect(router.state.navigation.state).toBe('idle'), { timeout: 15000 });
    expect(router.state.location.pathname).toBe('/operation/store/app');
    expect(count(router.routes, 'operation')).toBe(1);
  });
});

describe('route handles', () => {
  const handles: RouteHandle[] = [];
  const walk = (routes: ReturnType<typeof buildRoutes>) => {
    for (const r of routes) {
      if (r.handle) handles.push(r.handle as RouteHandle);
      if (r.children) walk(r.children);
    }
  };
  walk([...buildRoutes(), ...consoleRoutes()]);

  it('every route title exists in Chinese and English', () => {
    const titles = handles.map((h) => h.title).filter((t): t is string => Boolean(t));
    expect(titles.length).toBeGreaterThan(60);
    const lookup = (obj: unknown, key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
    for (const title of titles) {
      expect(typeof lookup(resources.zh.pages, title), `zh pages:${title}`).toBe('string');
      expect(typeof lookup(resources.en.pages, title), `en pages:${title}`).toBe('string');
    }
  });
});

describe('pageOrSkeleton', () => {
  it('uses the screen module when its file exists, the skeleton page until then', async () => {
    const Screen = () => null;
    const withScreen = await pageOrSkeleton('./x.tsx', { './x.tsx': async () => ({ default: Screen }) })();
    expect(withScreen.Component).toBe(Screen);
    const without = await pageOrSkeleton('./missing.tsx', {})();
    expect((without.Component as { name?: string }).name).toBe('SkeletonPage');
  });
});
