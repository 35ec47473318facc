import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useSession } from '../app/session';
import {
  ApiError,
  call,
  ClientErrorCode,
  configureRequest,
  isAbortError,
  request,
  resolvePath,
  setRequestInterceptors,
  toQueryString,
  type Endpoint,
} from './request';
import { fail, nativeFormDataClasses, ok, sendJson, startServer, type TestServer } from './testing/http-server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
});
afterAll(() => server.close());
beforeEach(() => {
  useSession.getState().clear();
  setRequestInterceptors(null);
  server.handle((_req, res) => ok(res, null));
});

const ep = (method: Endpoint['method'], url: string): Endpoint => ({ method, url });

describe('resolvePath', () => {
  it('fills :name and {name} parameters, encodes them and removes them from the rest', () => {
    expect(resolvePath('/ws/:workspace_id/members/{member_id}', { workspace_id: 'a b/c', member_id: 2, x: 1 })).toEqual({
      url: '/ws/a%20b%2Fc/members/2',
      rest: { x: 1 },
    });
  });

  it('takes explicit path values first and leaves absolute URLs and query strings alone', () => {
    expect(resolvePath('http://127.0.0.1:3000/a/:id?x=:y', { id: 'p' }, { id: 'q' })).toEqual({
      url: 'http://127.0.0.1:3000/a/q?x=:y',
      rest: {},
    });
  });

  it('rejects a missing path value before any call', () => {
    for (const value of [undefined, null, '']) {
      try {
        resolvePath('/a/:id', { id: value });
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        expect((e as ApiError).code).toBe(ClientErrorCode.INVALID_INPUT);
        expect((e as ApiError).status).toBe(0);
      }
    }
  });
});

describe('toQueryString', () => {
  it('drops undefined, null and empty strings, keeps 0 and false, repeats arrays, writes dates as ISO', () => {
    const qs = toQueryString({
      a: undefined,
      b: null,
      c: '',
      d: 0,
      e: false,
      f: ['x', '', 'y', null],
      g: new Date('2024-01-02T03:04:05.000Z'),
      h: 'a b&c',
    });
    expect(qs).toBe('d=0&e=false&f=x&f=y&g=2024-01-02T03%3A04%3A05.000Z&h=a+b%26c');
  });
});

describe('request: building the call', () => {
  it('GET sends the params left after the path as a query string, without a body', async () => {
    await request(ep('GET', '/api/v1/ws/:workspace_id/members'), { workspace_id: 'w1', page: 2, name: 'ann', role: '' });
    const [r] = server.requests;
    expect(r.method).toBe('GET');
    expect(r.path).toBe('/api/v1/ws/w1/members');
    expect([...r.query.entries()]).toEqual([
      ['page', '2'],
      ['name', 'ann'],
    ]);
    expect(r.body).toBe('');
    expect(r.headers['content-type']).toBeUndefined();
    expect(r.headers.accept).toBe('application/json');
  });

  it('DELETE sends the params as a query string too, dropping empty values', async () => {
    await request(ep('DELETE', '/api/v1/items/{item_id}'), { item_id: 'i 1', force: true, reason: null, note: undefined });
    const [r] = server.requests;
    expect(r.method).toBe('DELETE');
    expect(r.url).toBe('/api/v1/items/i%201?force=true');
    expect(r.body).toBe('');
  });

  it('POST and PUT send the rest as a JSON body; options.query goes to the URL', async () => {
    await request(ep('POST', '/api/v1/ws/:workspace_id/members'), { workspace_id: 'w1', user_ids: ['u1'], role: 'admin', note: '' }, { query: { dry: 1, skip: '' } });
    await request(ep('PUT', '/api/v1/ws'), { id: 'w1', name: 'N', description: undefined });
    const [post, put] = server.requests;
    expect(post.method).toBe('POST');
    expect(post.url).toBe('/api/v1/ws/w1/members?dry=1');
    expect(post.headers['content-type']).toBe('application/json');
    // Bodies keep '' (a cleared field is a value); undefined disappears in JSON.
    expect(JSON.parse(post.body)).toEqual({ user_ids: ['u1'], role: 'admin', note: '' });
    expect(put.method).toBe('PUT');
    expect(JSON.parse(put.body)).toEqual({ id: 'w1', name: 'N' });
  });

  it('POST without params sends no body; with only path params an empty object', async () => {
    await request(ep('POST', '/api/v1/a'));
    await request(ep('POST', '/api/v1/ws/:id/exit'), { id: 'w1' });
    const [none, empty] = server.requests;
    expect(none.body).toBe('');
    expect(none.headers['content-type']).toBeUndefined();
    expect(empty.path).toBe('/api/v1/ws/w1/exit');
    expect(empty.body).toBe('{}');
  });

  it('a FormData is sent as multipart with the browser-made boundary; path values come from options.path', async () => {
    const { FormData, Blob } = await nativeFormDataClasses();
    const form = new FormData();
    form.append('biz_type', 'icon');
    form.append('file', new Blob(['PNGDATA'], { type: 'image/png' }), 'a.png');
    await request(ep('POST', '/api/v1/files/:kind/upload'), form, { path: { kind: 'icons' } });
    const [r] = server.requests;
    expect(r.path).toBe('/api/v1/files/icons/upload');
    expect(r.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(r.body).toContain('name="biz_type"\r\n\r\nicon');
    expect(r.body).toContain('name="file"; filename="a.png"');
    expect(r.body).toContain('Content-Type: image/png\r\n\r\nPNGDATA');
  });

  it('sends Authorization, X-Tenant-Id and X-Workspace-Id from the session, overridable per call', async () => {
    useSession.setState({ accessToken: 'tok', tenantId: 'ten', workspaceId: 'ws' });
    await request(ep('GET', '/api/v1/a'));
    await request(ep('GET', '/api/v1/a'), undefined, { token: 'other', tenantId: null, workspaceId: 'ws2', headers: { 'X-Extra': '1' } });
    await request(ep('GET', '/api/v1/a'), undefined, { auth: false });
    const [fromSession, overridden, anonymous] = server.requests;
    expect(fromSession.headers.authorization).toBe('Bearer tok');
    expect(fromSession.headers['x-tenant-id']).toBe('ten');
    expect(fromSession.headers['x-workspace-id']).toBe('ws');
    expect(overridden.headers.authorization).toBe('Bearer other');
    expect(overridden.headers['x-tenant-id']).toBeUndefined();
    expect(overridden.headers['x-workspace-id']).toBe('ws2');
    expect(overridden.headers['x-extra']).toBe('1');
    expect(anonymous.headers.authorization).toBeUndefined();
    expect(anonymous.headers['x-tenant-id']).toBe('ten');
  });

  it('sends no auth headers when the session is empty', async () => {
    await request(ep('GET', '/api/v1/a'));
    const [r] = server.requests;
    expect(r.headers.authorization).toBeUndefined();
    expect(r.headers['x-tenant-id']).toBeUndefined();
    expect(r.headers['x-workspace-id']).toBeUndefined();
  });
});

describe('request: reading the answer', () => {
  it('resolves to the envelope data; a non-envelope JSON as is; an empty body to null', async () => {
    server.handle((req, res) => {
      if (req.path === '/env') return ok(res, { id: 1 });
      if (req.path === '/plain') return sendJson(res, 200, { authMode: 'local' });
      res.writeHead(204).end();
    });
    await expect(request(ep('GET', '/env'))).resolves.toEqual({ id: 1 });
    await expect(request(ep('GET', '/plain'))).resolves.toEqual({ authMode: 'local' });
    await expect(request(ep('DELETE', '/empty'))).resolves.toBeNull();
  });

  it('raises a non-2xx answer as ApiError with status, code, msg and data', async () => {
    server.handle((_req, res) => fail(res, 400, 'VALIDATION-1000', 'name: too long', [{ path: 'name', message: 'too long' }]));
    const e = await request(ep('POST', '/x'), { name: 'n' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 400, code: 'VALIDATION-1000', msg: 'name: too long', data: [{ path: 'name', message: 'too long' }] });
  });

  it('reads `message` when there is no `msg`, and copes with bodies that are not JSON', async () => {
    server.handle((req, res) => {
      if (req.path === '/message') return sendJson(res, 409, { code: 'X-1', message: 'conflict' });
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
    });
    await expect(request(ep('GET', '/message'))).rejects.toMatchObject({ status: 409, code: 'X-1', msg: 'conflict' });
    await expect(request(ep('GET', '/html'))).rejects.toMatchObject({ status: 502, code: 'HTTP-502', msg: '', data: null });
  });

  it('raises a 2xx error envelope (code other than 0)', async () => {
    server.handle((_req, res) => sendJson(res, 200, { code: 'VALIDATION-1006', msg: 'gone', data: null }));
    await expect(request(ep('GET', '/x'))).rejects.toMatchObject({ status: 200, code: 'VALIDATION-1006', msg: 'gone' });
  });

  it('raises unreadable JSON as CLIENT-BAD-RESPONSE', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{oops');
    });
    await expect(request(ep('GET', '/x'))).rejects.toMatchObject({ code: ClientErrorCode.BAD_RESPONSE });
  });

  it('blob: resolves to the raw body; an error answer is still read from its JSON body', async () => {
    server.handle((req, res) => {
      if (req.path === '/file') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([1, 2, 3]));
        return;
      }
      fail(res, 403, 'PERMISSION-1000', 'no download for you');
    });
    const blob = await request(ep('GET', '/file'), undefined, { responseType: 'blob' });
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    await expect(request(ep('GET', '/denied'), undefined, { responseType: 'blob' })).rejects.toMatchObject({
      status: 403,
      code: 'PERMISSION-1000',
      msg: 'no download for you',
    });
  });

  it('stream: resolves to the body stream; an error answer is still read from its JSON body', async () => {
    server.handle(async (req, res) => {
      if (req.path === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        await new Promise((r) => setTimeout(r, 20));
        res.end('data: two\n\n');
        return;
      }
      sendJson(res, 500, { code: 'SYSTEM-1500', message: 'engine down', data: null });
    });
    const stream = await request(ep('POST', '/events'), { q: 1 }, { responseType: 'stream' });
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe('data: one\n\ndata: two\n\n');
    await expect(request(ep('POST', '/broken'), {}, { responseType: 'stream' })).rejects.toMatchObject({
      status: 500,
      code: 'SYSTEM-1500',
      msg: 'engine down',
    });
  });

  it('call() parses the data with a schema and reports a mismatch as CLIENT-BAD-RESPONSE', async () => {
    server.handle((req, res) => ok(res, req.path === '/good' ? { id: 'a', extra: 1 } : { id: 5 }));
    const schema = z.object({ id: z.string() });
    await expect(call(schema, ep('GET', '/good'))).resolves.toEqual({ id: 'a' });
    await expect(call(schema, ep('GET', '/bad'))).rejects.toMatchObject({ status: 200, code: ClientErrorCode.BAD_RESPONSE });
  });

  it('call() takes a schema loader: it starts loading with the call, once even when a 401 replays it, and parses as a schema would', async () => {
    const schema = z.object({ id: z.string() });
    let loads = 0;
    let loadStartedBeforeAnswer = false;
    let answered = false;
    const load = async () => {
      loads += 1;
      loadStartedBeforeAnswer = !answered;
      return schema;
    };
    server.handle((req, res) => {
      answered = true;
      ok(res, req.path === '/good' ? { id: 'a', extra: 1 } : { id: 5 });
    });
    await expect(call(load, ep('GET', '/good'))).resolves.toEqual({ id: 'a' });
    expect(loads).toBe(1);
    expect(loadStartedBeforeAnswer).toBe(true);
    await expect(call(load, ep('GET', '/bad'))).rejects.toMatchObject({ status: 200, code: ClientErrorCode.BAD_RESPONSE });

    // A replay after a token refresh parses with the schema already loaded.
    loads = 0;
    let first = true;
    server.handle((_req, res) => {
      if (first) {
        first = false;
        fail(res, 401, 'AUTH-1001', 'expired');
        return;
      }
      ok(res, { id: 'b' });
    });
    setRequestInterceptors({ onError: (e, _ctx, replay) => (e.status === 401 ? replay() : Promise.reject(e)) });
    await expect(call(load, ep('GET', '/again'))).resolves.toEqual({ id: 'b' });
    expect(loads).toBe(1);
  });

  it('call() with a schema loader that fails rejects with its error, not an unhandled rejection', async () => {
    server.handle((_req, res) => ok(res, { id: 'a' }));
    const broken = () => Promise.reject(new Error('chunk gone'));
    await expect(call(broken as () => Promise<z.ZodType>, ep('GET', '/x'))).rejects.toThrow('chunk gone');
  });
});

describe('request: failures without an answer', () => {
  it('a refused connection is ApiError status 0 CLIENT-NETWORK', async () => {
    const gone = await startServer();
    await gone.close();
    await expect(request(ep('GET', `${gone.url}/x`))).rejects.toMatchObject({ status: 0, code: ClientErrorCode.NETWORK });
  });

  it('an aborted call rejects with the AbortError, not an ApiError', async () => {
    server.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 300));
      ok(res, null);
    });
    const controller = new AbortController();
    const pending = request(ep('GET', '/slow'), undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const e = await pending.catch((err: unknown) => err);
    expect(isAbortError(e)).toBe(true);
    expect(e).not.toBeInstanceOf(ApiError);
  });

  it('timeoutMs gives CLIENT-TIMEOUT', async () => {
    server.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 300));
      ok(res, null);
    });
    await expect(request(ep('GET', '/slow'), undefined, { timeoutMs: 30 })).rejects.toMatchObject({ status: 0, code: ClientErrorCode.TIMEOUT });
  });
});

describe('request: interceptors', () => {
  it('onError sees every ApiError and may replay the call with attempt + 1', async () => {
    let calls = 0;
    server.handle((_req, res) => (++calls === 1 ? fail(res, 503, 'X') : ok(res, 'second')));
    const seen: number[] = [];
    setRequestInterceptors({
      onError: async (error, ctx, replay) => {
        seen.push(ctx.attempt);
        if (ctx.attempt === 0 && error.status === 503) return replay();
        throw error;
      },
    });
    await expect(request(ep('GET', '/x'))).resolves.toBe('second');
    expect(seen).toEqual([0]);
    expect(server.requests).toHaveLength(2);
  });

  it('beforeSend runs before each send and sees the endpoint', async () => {
    const names: string[] = [];
    setRequestInterceptors({ beforeSend: (ctx) => void names.push(`${ctx.endpoint.method} ${ctx.endpoint.url}`) });
    await request(ep('GET', '/x'));
    expect(names).toEqual(['GET /x']);
  });
});
