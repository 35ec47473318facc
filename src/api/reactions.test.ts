import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../app/session';
import { initI18n, setLanguage } from '../i18n';
import { describeError, installReactions, notify, onApiMessage, setNavigator, wasReported, type ApiMessage } from './reactions';
import { ApiError, ClientErrorCode, configureRequest, request, type Endpoint, type Reaction } from './request';
import { fail, ok, sendJson, startServer, type RecordedRequest, type TestServer } from './testing/http-server';
import { transferWorkspace } from './workspaces';

let server: TestServer;
let uninstall: (() => void) | undefined;
const navigate = vi.fn<(to: string, options?: { replace?: boolean }) => void>();
const messages: ApiMessage[] = [];

// A fake auth server: valid access tokens, rotating refresh tokens.
let validTokens: Set<string>;
let currentRefresh: string;
let refreshCalls: number;
let refreshAccepts: boolean;
let issued: number;

const secure: Endpoint = { method: 'GET', url: '/api/v1/secure' };
const bearer = (req: RecordedRequest) => (req.headers.authorization ?? '').replace(/^Bearer /, '');

function authHandler(extra?: (req: RecordedRequest, res: import('node:http').ServerResponse) => boolean) {
  return async (req: RecordedRequest, res: import('node:http').ServerResponse) => {
    if (req.path === '/api/v1/console/base/refresh') {
      refreshCalls++;
      await new Promise((r) => setTimeout(r, 30));
      const { refresh_token } = JSON.parse(req.body) as { refresh_token: string };
      if (!refreshAccepts || refresh_token !== currentRefresh) return fail(res, 401, 'AUTH-1004', 'The refresh token is invalid or expired');
      issued++;
      const pair = { access_token: `t${issued}`, refresh_token: `r${issued}`, token_type: 'Bearer', expires_in: 900 };
      validTokens.add(pair.access_token);
      currentRefresh = pair.refresh_token;
      return ok(res, pair);
    }
    if (extra?.(req, res)) return;
    if (!validTokens.has(bearer(req))) return fail(res, 401, 'AUTH-1001', 'No valid access token');
    ok(res, { token: bearer(req), path: req.path });
  };
}

beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
  await initI18n('en');
  setNavigator(navigate);
  onApiMessage((m) => messages.push(m));
});
afterAll(async () => {
  uninstall?.();
  setNavigator(null);
  await server.close();
});
beforeEach(async () => {
  uninstall?.();
  uninstall = installReactions();
  await setLanguage('en');
  navigate.mockClear();
  messages.length = 0;
  validTokens = new Set();
  currentRefresh = 'r0';
  refreshCalls = 0;
  refreshAccepts = true;
  issued = 0;
  useSession.getState().clear();
  useSession.getState().setTokens({ access_token: 't0', refresh_token: 'r0', token_type: 'Bearer', expires_in: 900 }, 'ten');
  window.history.replaceState(null, '', '/operation/workspace/w1/app?tab=all');
  server.handle(authHandler());
});

describe('401: refresh once and replay', () => {
  it('refreshes the token once and replays the call with the new token', async () => {
    await expect(request(secure)).resolves.toEqual({ token: 't1', path: '/api/v1/secure' });
    expect(refreshCalls).toBe(1);
    expect(server.requests.map((r) => [r.path, bearer(r)])).toEqual([
      ['/api/v1/secure', 't0'],
      ['/api/v1/console/base/refresh', ''],
      ['/api/v1/secure', 't1'],
    ]);
    expect(useSession.getState()).toMatchObject({ accessToken: 't1', refreshToken: 'r1', tenantId: 'ten' });
    expect(navigate).not.toHaveBeenCalled();
    expect(messages).toEqual([]);
  });

  it('concurrent 401s share one refresh, then all replay', async () => {
    const results = await Promise.all([request(secure), request(secure), request(secure), request(secure)]);
    expect(results.map((r) => (r as { token: string }).token)).toEqual(['t1', 't1', 't1', 't1']);
    expect(refreshCalls).toBe(1);
    expect(useSession.getState().refreshToken).toBe('r1');
  });

  it('a 401 for a token already renewed meanwhile replays without a second refresh', async () => {
    validTokens.add('t9');
    let first = true;
    server.handle(
      authHandler((req, res) => {
        if (req.path === '/api/v1/secure' && first) {
          first = false;
          // While this call was in flight another one renewed the session.
          useSession.setState({ accessToken: 't9', refreshToken: 'r9' });
          fail(res, 401, 'AUTH-1001');
          return true;
        }
        return false;
      }),
    );
    await expect(request(secure)).resolves.toMatchObject({ token: 't9' });
    expect(refreshCalls).toBe(0);
  });

  it('a second 401 after the replay clears the session and goes to login with redirect_uri', async () => {
    // The refresh works but the new token is refused too.
    server.handle(
      authHandler((req, res) => {
        if (req.path !== '/api/v1/secure') return false;
        fail(res, 401, 'AUTH-1001');
        return true;
      }),
    );
    const e = await request(secure).catch((err: unknown) => err);
    expect(e).toMatchObject({ status: 401, code: 'AUTH-1001' });
    expect(wasReported(e)).toBe(true);
    expect(refreshCalls).toBe(1);
    expect(server.requests.filter((r) => r.path === '/api/v1/secure')).toHaveLength(2);
    expect(useSession.getState()).toMatchObject({ accessToken: null, refreshToken: null, user: null });
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login?redirect_uri=%2Foperation%2Fworkspace%2Fw1%2Fapp%3Ftab%3Dall', { replace: true });
    expect(messages.map((m) => m.text)).toEqual(['Your session has expired. Please sign in again']);
  });

  it('a refused refresh clears the session and goes to login once, however many calls failed', async () => {
    refreshAccepts = false;
    const results = await Promise.allSettled([request(secure), request(secure), request(secure)]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(refreshCalls).toBe(1);
    expect(useSession.getState().accessToken).toBeNull();
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate.mock.calls[0][0]).toBe('/login?redirect_uri=%2Foperation%2Fworkspace%2Fw1%2Fapp%3Ftab%3Dall');
  });

  it('silent calls still refresh and clear, but neither navigate nor show anything', async () => {
    refreshAccepts = false;
    await expect(request(secure, undefined, { reaction: 'silent' })).rejects.toMatchObject({ status: 401 });
    expect(useSession.getState().accessToken).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(messages).toEqual([]);
  });

  it('calls without auth (login) or with their own token are not refreshed', async () => {
    await expect(request(secure, undefined, { auth: false, reaction: 'silent' })).rejects.toMatchObject({ status: 401 });
    await expect(request(secure, undefined, { token: 'mine', reaction: 'silent' })).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls).toBe(0);
    expect(useSession.getState().accessToken).toBe('t0');
  });

  it('a refresh the server cannot answer keeps the session and shows the failure', async () => {
    server.handle(async (req, res) => {
      if (req.path === '/api/v1/console/base/refresh') return sendJson(res, 503, { code: 'HTTP-503', msg: '' });
      fail(res, 401, 'AUTH-1001');
    });
    await expect(request(secure)).rejects.toMatchObject({ status: 401 });
    expect(useSession.getState().refreshToken).toBe('r0');
    expect(navigate).not.toHaveBeenCalled();
    expect(messages.map((m) => m.text)).toEqual(['The server is under maintenance. Please try again later']);
  });

  it('refreshes ahead of time when the token expires within the leeway (5 s)', async () => {
    validTokens.add('t0');
    useSession.setState({ tokenExpiresAt: Date.now() + 3000 });
    await expect(request(secure)).resolves.toMatchObject({ token: 't1' });
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/console/base/refresh', '/api/v1/secure']);

    server.handle(authHandler());
    validTokens.add('t1');
    useSession.setState({ tokenExpiresAt: Date.now() + 60_000 });
    await request(secure);
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/secure']);
  });
});

describe('403 and 404', () => {
  const answer = (status: number, code: string) =>
    server.handle((_req, res) => fail(res, status, code, 'server says no'));

  it('403 goes to /403', async () => {
    answer(403, 'PERMISSION-1000');
    const e = await request(secure).catch((err: unknown) => err);
    expect(e).toMatchObject({ status: 403 });
    expect(navigate).toHaveBeenCalledWith('/403', { replace: false });
    expect(wasReported(e)).toBe(true);
    expect(messages).toEqual([]);
  });

  it('404 of a page-level load goes to /404; of an ordinary call shows a message', async () => {
    answer(404, 'SYSTEM-1404');
    await expect(request(secure, undefined, { reaction: 'page' })).rejects.toMatchObject({ status: 404 });
    expect(navigate).toHaveBeenCalledWith('/404', { replace: true });
    navigate.mockClear();
    await expect(request(secure)).rejects.toMatchObject({ status: 404 });
    expect(navigate).not.toHaveBeenCalled();
    expect(messages).toMatchObject([{ level: 'error', text: 'The requested API does not exist', detail: 'server says no', status: 404 }]);
  });

  it('silent calls neither navigate nor show a message', async () => {
    answer(403, 'PERMISSION-1000');
    const e = await request(secure, undefined, { reaction: 'silent' }).catch((err: unknown) => err);
    expect(navigate).not.toHaveBeenCalled();
    expect(messages).toEqual([]);
    expect(wasReported(e)).toBe(false);
  });
});

describe('messages per status', () => {
  const cases: [status: number, code: string, msg: string, reaction: Reaction, text: string][] = [
    [400, 'VALIDATION-1001', 'Workspace name exists', 'toast', 'The data already exists'],
    [400, 'VALIDATION-1000', 'name: too long', 'toast', 'Parameter error'],
    [400, 'VALIDATION-1000', 'bad id', 'page', 'Unauthorized operation'],
    [400, 'OTHER-1', 'A specific server message', 'toast', 'A specific server message'],
    [400, 'HTTP-400', '', 'toast', 'Request error'],
    [409, 'HTTP-409', 'Conflict here', 'toast', 'Conflict here'],
    [418, 'HTTP-418', '', 'toast', 'Request failed'],
    [405, 'SYSTEM-1405', 'No route', 'toast', 'The current HTTP request method is disabled'],
    [500, 'SYSTEM-1500', 'boom', 'toast', 'The server ran into a small problem; our engineers are fixing it'],
    [501, 'HTTP-501', '', 'toast', 'This feature is not available yet'],
    [502, 'HTTP-502', '', 'toast', 'The network is unstable. Please try again later'],
    [503, 'HTTP-503', '', 'toast', 'The server is under maintenance. Please try again later'],
    [504, 'HTTP-504', '', 'toast', 'The request timed out. Please check your network'],
    [507, 'HTTP-507', '', 'toast', 'The service is away for a moment. Please try again later'],
  ];

  it.each(cases)('%i %s (%s, %s) → %s', async (status, code, msg, reaction, text) => {
    server.handle((_req, res) => fail(res, status, code, msg));
    validTokens.add('t0');
    await expect(request(secure, undefined, { reaction })).rejects.toBeInstanceOf(ApiError);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ level: 'error', text, status, code });
    expect(messages[0].detail).toBe(msg && msg !== text ? msg : undefined);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a network failure has its own message', async () => {
    const gone = await startServer();
    await gone.close();
    await expect(request({ method: 'GET', url: `${gone.url}/x` })).rejects.toMatchObject({ code: ClientErrorCode.NETWORK });
    expect(messages).toMatchObject([{ text: 'Network connection failed. Check your network and try again' }]);
  });

  it('messages follow the language (Chinese)', async () => {
    await setLanguage('zh');
    server.handle((_req, res) => fail(res, 502, 'HTTP-502'));
    await expect(request(secure)).rejects.toBeInstanceOf(ApiError);
    expect(messages[0].text).toBe('网络不稳定，请稍后重试');
    expect(describeError(new ApiError({ status: 400, code: 'AUTH-1002', msg: 'Login failed: wrong account or password' }))?.text).toBe(
      '登录失败：账号或密码错误',
    );
  });

  it('never shows the server’s English msg in Chinese; a missing record and a named refusal are told from the catalogue (issue 28)', async () => {
    const missing = new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Tool does not exist or you have no permission', data: { id: 'x', resource: 'tool' } });
    const refused = new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Add at least one function before publishing the tool', data: { reason: 'tool_no_functions' } });
    const fields = new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error: /body/name too long', data: [{ path: '/body/name', message: 'too long' }] });
    const unknown = new ApiError({ status: 409, code: 'HTTP-409', msg: 'Conflict here' });
    const said = (e: ApiError, r: Reaction = 'toast') => {
      const m = describeError(e, r);
      return [m?.text, m?.detail];
    };
    await setLanguage('zh');
    expect(said(missing, 'page')).toEqual(['无权操作', '工具不存在或无权访问']);
    expect(said(missing)).toEqual(['工具不存在或无权访问', undefined]);
    expect(said(refused)).toEqual(['发布工具前请先添加至少一个方法', undefined]);
    expect(said(fields)).toEqual(['参数错误', undefined]);
    expect(said(unknown)).toEqual(['请求失败', undefined]);
    await setLanguage('en');
    expect(said(missing, 'page')).toEqual(['Unauthorized operation', 'The tool does not exist or you have no permission']);
    expect(describeError(refused)?.text).toBe('Add at least one function before publishing the tool');
    expect(describeError(unknown)?.text).toBe('Conflict here');
  });

  it('field issues with a known rule are told from the catalogue in both languages; unknown ones only in English (issue 28)', async () => {
    const issues = [
      { path: 'body/name', message: 'Too big: expected string to have <=64 characters', rule: 'too_big', origin: 'string', limit: 64 },
      { path: 'body/items/0/count', message: 'Too small: expected number to be >=1', rule: 'too_small', origin: 'number', limit: 1 },
      { path: 'body/email', message: 'Invalid email address', rule: 'invalid_format' },
      { path: 'body/odd', message: 'Something odd', rule: 'custom' },
    ];
    const e = new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error: …', data: issues });
    await setLanguage('zh');
    expect(describeError(e)).toMatchObject({ text: '参数错误', detail: 'name：最多 64 个字符；items.0.count：不能小于 1；email：格式不正确' });
    await setLanguage('en');
    expect(describeError(e)).toMatchObject({ text: 'Parameter error', detail: 'name: at most 64 characters; items.0.count: at least 1; email: invalid format; odd: Something odd' });
  });

  it('a 429 AUTH-1006 (too many failed sign-ins) says in how many seconds to try again, in each language', async () => {
    const limited = new ApiError({ status: 429, code: 'AUTH-1006', msg: 'Too many failed attempts; try again in 42 s', data: { retry_after: 42 } });
    await setLanguage('en');
    expect(describeError(limited, 'silent')?.text).toBe('Too many failed attempts. Try again in 42 seconds');
    await setLanguage('zh');
    expect(describeError(limited, 'silent')?.text).toBe('失败次数过多，请 42 秒后再试');
    server.handle((_req, res) => sendJson(res, 429, { code: 'AUTH-1006', msg: 'Too many', data: { retry_after: 7 } }));
    await expect(request(secure)).rejects.toMatchObject({ status: 429, code: 'AUTH-1006' });
    expect(messages.map((m) => m.text)).toEqual(['失败次数过多，请 7 秒后再试']);
    await setLanguage('en');
  });

  it('an aborted call shows nothing', async () => {
    server.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 200));
      ok(res, null);
    });
    const controller = new AbortController();
    const pending = request(secure, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(messages).toEqual([]);
    expect(describeError(new DOMException('stop', 'AbortError'))).toBeNull();
  });

  it('the same message within a second is shown once', () => {
    notify({ level: 'error', text: 'same' });
    notify({ level: 'error', text: 'same' });
    notify({ level: 'error', text: 'other' });
    expect(messages.map((m) => m.text)).toEqual(['same', 'other']);
  });
});

describe('local rejection', () => {
  it('transferWorkspace without workspace_id or member_id fails before any call, with its message', async () => {
    for (const body of [{ workspace_id: 'w1' }, { member_id: 'm1' }, { workspace_id: '', member_id: 'm1' }]) {
      const e = await transferWorkspace(body).catch((err: unknown) => err);
      expect(e).toMatchObject({ status: 0, code: ClientErrorCode.INVALID_INPUT });
    }
    expect(server.requests).toEqual([]);
    expect(messages.map((m) => m.text)).toEqual(['A transfer of ownership needs the project id and the member id']);
  });
});
