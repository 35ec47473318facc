import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../schemas/auth';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { installReactions, onApiMessage, setNavigator, type ApiMessage } from '../api/reactions';
import { configureRequest } from '../api/request';
import { fail, ok, startServer, type TestServer } from '../api/testing/http-server';
import { initI18n } from '../i18n';
import {
  canEnterSystem,
  isRouteNotFound,
  lazyWithReload,
  loginGuard,
  rootRedirects,
  RouteNotFoundError,
  systemGuard,
  ticketGuard,
  unknownPathTarget,
  workspaceGuard,
} from './guards';
import { loginPath, safeRedirectTarget } from './paths';
import { useSession } from './session';
import { DEFAULT_CONFIG, setConfig } from './config';

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
const navigate = vi.fn();
const messages: ApiMessage[] = [];

const args = (path: string, params: Record<string, string> = {}) => ({
  request: new Request(`http://localhost${path}`),
  params,
});

/** Runs a guard and returns the redirect target it threw or returned (null when it let the user in). */
async function redirectOf(run: () => unknown): Promise<string | null> {
  try {
    const result = await run();
    return result instanceof Response ? result.headers.get('Location') : null;
  } catch (e) {
    if (e instanceof Response) {
      expect(e.status).toBe(302);
      return e.headers.get('Location');
    }
    throw e;
  }
}

beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
  await initI18n('en');
  installReactions();
  setNavigator(navigate);
  onApiMessage((m) => messages.push(m));
});
afterAll(() => server.close());
beforeEach(() => {
  useSession.getState().clear();
  navigate.mockClear();
  messages.length = 0;
  server.handle((req, res) => {
    if (req.path === '/api/v1/console/base/userinfo') return ok(res, user('user'));
    if (req.path === `/api/v1/console/workspaces/${WS}`) return ok(res, workspace);
    fail(res, 400, 'VALIDATION-1000', 'Workspace does not exist');
  });
});

const signIn = (role?: CurrentUser['role']) =>
  useSession.setState({ accessToken: 'tok', refreshToken: 'rt', tokenExpiresAt: Date.now() + 900_000, user: role ? user(role) : null });

describe('loginGuard', () => {
  it('without a token redirects to /login with the target path and search', async () => {
    expect(await redirectOf(() => loginGuard(args('/operation/workspace/x/app?tab=a&b=1')))).toBe(
      '/login?redirect_uri=%2Foperation%2Fworkspace%2Fx%2Fapp%3Ftab%3Da%26b%3D1',
    );
    expect(server.requests).toEqual([]);
  });

  it('with a token and a known user lets the user in without a call', async () => {
    signIn('user');
    await expect(loginGuard(args('/operation'))).resolves.toMatchObject({ username: 'ann' });
    expect(server.requests).toEqual([]);
  });

  it('with a token but no user loads the user once for concurrent guards and keeps it', async () => {
    signIn();
    const [a, b] = await Promise.all([loginGuard(args('/operation')), loginGuard(args('/operation'))]);
    expect(a).toEqual(b);
    expect(server.requests.filter((r) => r.path === '/api/v1/console/base/userinfo')).toHaveLength(1);
    expect(useSession.getState().user?.username).toBe('ann');
  });

  it('when the session turns out dead, redirects to login', async () => {
    signIn();
    server.handle((req, res) => fail(res, 401, req.path.endsWith('/refresh') ? 'AUTH-1004' : 'AUTH-1001'));
    expect(await redirectOf(() => loginGuard(args('/operation/my')))).toBe('/login?redirect_uri=%2Foperation%2Fmy');
    expect(useSession.getState().accessToken).toBeNull();
  });
});

describe('ticketGuard', () => {
  it('removes the ticket parameter and re-enters the route', async () => {
    expect(await redirectOf(() => ticketGuard(args('/operation/my?ticket=ST-1&tab=a')))).toBe('/operation/my?tab=a');
    expect(await redirectOf(() => ticketGuard(args('/operation?ticket=ST-1')))).toBe('/operation');
  });

  it('does nothing without a ticket', async () => {
    expect(ticketGuard(args('/operation?tab=a'))).toBeNull();
  });

  describe('in a single sign-on mode', () => {
    beforeEach(() => setConfig({ ...DEFAULT_CONFIG, authMode: 'sso', sso: { providerName: 'IdP', appCode: 'weft', localLogin: 'super_admin' } }));
    afterEach(() => setConfig(null));

    it('exchanges the ticket for the session, then strips it', async () => {
      server.handle((req, res) => {
        if (req.path === '/api/v1/common/sso/ticket') return ok(res, { access_token: 'at-sso', refresh_token: 'rt-sso', token_type: 'Bearer', expires_in: 900 });
        if (req.path === '/api/v1/console/base/userinfo') return ok(res, user('user'));
        return fail(res, 404, 'SYSTEM-1404');
      });
      expect(await redirectOf(() => ticketGuard(args('/operation?ticket=T-0123456789abcdefghij&tab=a')))).toBe('/operation?tab=a');
      expect(JSON.parse(server.requests.find((r) => r.path === '/api/v1/common/sso/ticket')!.body)).toEqual({ ticket: 'T-0123456789abcdefghij' });
      expect(useSession.getState().accessToken).toBe('at-sso');
      expect(useSession.getState().user?.username).toBe('ann');
    });

    it('sends a refused ticket to /login with its code', async () => {
      server.handle((_req, res) => fail(res, 400, 'SSO-1001'));
      expect(await redirectOf(() => ticketGuard(args('/operation?ticket=T-used')))).toBe('/login?sso_error=SSO-1001');
      expect(useSession.getState().accessToken).toBeNull();
    });
  });
});

describe('workspaceGuard', () => {
  it('loads the workspace, makes it the session workspace and resolves to it', async () => {
    signIn('user');
    await expect(workspaceGuard(args(`/operation/workspace/${WS}/app`, { workspace_id: WS }))).resolves.toMatchObject({ id: WS, name: 'Alpha' });
    expect(useSession.getState().workspaceId).toBe(WS);
    const [r] = server.requests;
    expect(r.headers['x-workspace-id']).toBe(WS);
  });

  it('VALIDATION-1000 throws a typed not-found error with the id (the project does not exist)', async () => {
    signIn('user');
    const e = await workspaceGuard(args('/operation/workspace/nope/app', { workspace_id: 'nope' })).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(RouteNotFoundError);
    expect(isRouteNotFound(e)).toBe(true);
    expect(e).toMatchObject({ kind: 'not-found', errorType: 'workspace', errorId: 'nope', errorState: 'error' });
    expect(messages).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('any other failure shows its message and redirects to /', async () => {
    signIn('user');
    server.handle((_req, res) => fail(res, 500, 'SYSTEM-1500', 'boom'));
    expect(await redirectOf(() => workspaceGuard(args(`/operation/workspace/${WS}/app`, { workspace_id: WS })))).toBe('/');
    expect(messages.map((m) => m.text)).toEqual(['The server ran into a small problem; our engineers are fixing it']);
    expect(useSession.getState().workspaceId).toBeNull();
  });

  it('requires sign-in first', async () => {
    expect(await redirectOf(() => workspaceGuard(args(`/operation/workspace/${WS}/app`, { workspace_id: WS })))).toBe(
      `/login?redirect_uri=${encodeURIComponent(`/operation/workspace/${WS}/app`)}`,
    );
  });
});

describe('systemGuard', () => {
  it('lets super admins and tenant admins in', async () => {
    signIn('super_admin');
    await expect(systemGuard(args('/operation/system/user'))).resolves.toMatchObject({ role: 'super_admin' });
    signIn('tenant_admin');
    await expect(systemGuard(args('/operation/system/user'))).resolves.toMatchObject({ role: 'tenant_admin' });
  });

  it('sends other users to /', async () => {
    signIn('user');
    expect(await redirectOf(() => systemGuard(args('/operation/system/user')))).toBe('/');
    expect(canEnterSystem(null)).toBe(false);
  });

  it('requires sign-in first', async () => {
    expect(await redirectOf(() => systemGuard(args('/operation/system')))).toBe('/login?redirect_uri=%2Foperation%2Fsystem');
  });
});

describe('redirect rules', () => {
  it('/ goes to /operation; /portal and /portal/index to /portal/sessions/discover', async () => {
    expect(await redirectOf(() => rootRedirects.root())).toBe('/operation');
    expect(await redirectOf(() => rootRedirects.portal())).toBe('/portal/sessions/discover');
  });

  it('an unknown single-segment name goes to /operation, anything deeper to /404', async () => {
    expect(unknownPathTarget('/foo')).toBe('/operation');
    expect(unknownPathTarget('/foo/')).toBe('/operation');
    expect(unknownPathTarget('/foo/bar')).toBe('/404');
    expect(unknownPathTarget('/operation/nope/deeper')).toBe('/404');
    expect(await redirectOf(() => rootRedirects.unknown(args('/whatever?x=1')))).toBe('/operation');
    expect(await redirectOf(() => rootRedirects.unknown(args('/a/b')))).toBe('/404');
  });

  it('loginPath and safeRedirectTarget', () => {
    expect(loginPath('/operation/my?x=1')).toBe('/login?redirect_uri=%2Foperation%2Fmy%3Fx%3D1');
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('/login?redirect_uri=%2Fa')).toBe('/login');
    expect(safeRedirectTarget('/operation/my?x=1')).toBe('/operation/my?x=1');
    expect(safeRedirectTarget(null)).toBe('/operation');
    expect(safeRedirectTarget('https://evil.example')).toBe('/operation');
    expect(safeRedirectTarget('//evil.example')).toBe('/operation');
    expect(safeRedirectTarget('/\\evil.example')).toBe('/operation');
    expect(safeRedirectTarget('/login?redirect_uri=x')).toBe('/operation');
  });
});

describe('lazyWithReload', () => {
  const memoryStorage = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
  };

  it('passes a module through', async () => {
    const reload = vi.fn();
    await expect(lazyWithReload(async () => ({ default: 1 }), { reload, storage: memoryStorage() })()).resolves.toEqual({ default: 1 });
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page once when a module fails to load, then lets the next failure through', async () => {
    const reload = vi.fn();
    const storage = memoryStorage();
    let now = 1_000_000;
    const failing = lazyWithReload(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')), {
      reload,
      storage,
      now: () => now,
    });
    // First failure: reload, and the route stays pending until the page goes away.
    const pending = failing();
    const settled = await Promise.race([pending.then(() => 'settled', () => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 20))]);
    expect(settled).toBe('pending');
    expect(reload).toHaveBeenCalledTimes(1);
    // After the reload (same sessionStorage), a failure within 10 s is shown instead of reloading again.
    now += 2_000;
    await expect(failing()).rejects.toThrow('Failed to fetch');
    expect(reload).toHaveBeenCalledTimes(1);
    // Much later (a new deployment again): one more reload is allowed.
    now += 60_000;
    void failing();
    expect(reload).toHaveBeenCalledTimes(1);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('works where the browser denies storage (a third-party frame: the embedded chat with third-party cookies blocked)', async () => {
    const own = Object.getOwnPropertyDescriptor(window, 'sessionStorage');
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get() {
        throw new DOMException("Failed to read the 'sessionStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
      },
    });
    try {
      const reload = vi.fn();
      await expect(lazyWithReload(async () => ({ default: 1 }), { reload })()).resolves.toEqual({ default: 1 });
      // Nothing would remember a reload across it (a loop): a chunk that fails is shown instead.
      await expect(lazyWithReload(() => Promise.reject(new Error('chunk')), { reload })()).rejects.toThrow('chunk');
      expect(reload).not.toHaveBeenCalled();
    } finally {
      if (own) Object.defineProperty(window, 'sessionStorage', own);
      else delete (window as { sessionStorage?: Storage }).sessionStorage;
    }
  });

  it('uses sessionStorage by default', async () => {
    const reload = vi.fn();
    sessionStorage.clear();
    void lazyWithReload(() => Promise.reject(new Error('chunk')), { reload })();
    await new Promise((r) => setTimeout(r, 0));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem('weft.lazy-reload-at')).not.toBeNull();
  });
});
