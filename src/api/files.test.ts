import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSession } from '../app/session';
import { errorOfAnswer, parseUploadAnswer, uploadFile } from './files';
import { ApiError, configureRequest } from './request';
import type http from 'node:http';
import { fail, nativeFormDataClasses, ok, startServer, type Handler, type RecordedRequest, type TestServer } from './testing/http-server';

// jsdom's XMLHttpRequest follows CORS (the page is on another origin than the test server).
const cors =
  (h: Handler): Handler =>
  (req: RecordedRequest, res: http.ServerResponse) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'authorization, x-tenant-id, x-workspace-id, accept', 'access-control-allow-methods': 'POST' });
      return void res.end();
    }
    return h(req, res);
  };
const posts = () => server.requests.filter((r) => r.method === 'POST');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
  useSession.setState({ accessToken: 'tok', tenantId: 'ten', workspaceId: 'ws' });
});
afterAll(async () => {
  configureRequest({ baseUrl: '' });
  await server.close();
});

const STORED = { id: 'f1', name: 'notes.txt', size: 5, mime_type: 'text/plain' };

describe('uploadFile', () => {
  it('sends file and biz_type as multipart with the session headers, reports progress, parses the answer', async () => {
    server.handle(cors((_req, res) => ok(res, STORED)));
    const seen: number[] = [];
    const out = await uploadFile(new File(['hello'], 'notes.txt', { type: 'text/plain' }), 'dataset', { origin: server.url, onProgress: (p) => seen.push(p) });
    expect(out).toEqual(STORED);
    expect(seen.at(-1)).toBe(1);
    const req = posts()[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/v1/console/files/upload');
    expect(req.headers.authorization).toBe('Bearer tok');
    expect(req.headers['x-workspace-id']).toBe('ws');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(req.body).toContain('name="biz_type"');
    expect(req.body).toContain('dataset');
    expect(req.body).toContain('filename="notes.txt"');
    expect(req.body).toContain('hello');
  });

  it('rejects with the catalogue code of a refused upload', async () => {
    server.handle(cors((_req, res) => fail(res, 400, 'VALIDATION-1000', 'Unsupported file type')));
    const e = await uploadFile(new File(['x'], 'a.exe'), 'dataset', { origin: server.url, onProgress: () => {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('VALIDATION-1000');
    expect((e as ApiError).msg).toBe('Unsupported file type');
  });

  it('sends once more through the request layer (token refresh) after a 401', async () => {
    // The replay goes through fetch, which needs Node's own FormData (jsdom's cannot be streamed by it).
    const { FormData: NativeFormData, Blob: NativeBlob } = await nativeFormDataClasses();
    const saved = globalThis.FormData;
    globalThis.FormData = NativeFormData;
    let n = 0;
    server.handle(cors((_req, res) => (++n === 1 ? fail(res, 401, 'AUTH-1001', 'expired') : ok(res, STORED))));
    try {
      const out = await uploadFile(Object.assign(new NativeBlob(['x']), { name: 'a.txt' }), 'dataset', { origin: server.url, onProgress: () => {} });
      expect(out).toEqual(STORED);
    } finally {
      globalThis.FormData = saved;
    }
    expect(posts()).toHaveLength(2);
  });
});

describe('reading upload answers', () => {
  it('reads an envelope, a non-zero code, a wrong shape and a non-JSON error body', () => {
    expect(parseUploadAnswer(200, JSON.stringify({ code: 0, msg: '', data: STORED }))).toEqual(STORED);
    expect(() => parseUploadAnswer(200, JSON.stringify({ code: 'FILE-1', msg: 'no', data: null }))).toThrow('no');
    expect(() => parseUploadAnswer(200, JSON.stringify({ code: 0, data: { id: 1 } }))).toThrow(/schema/);
    expect(errorOfAnswer(502, '<html>')).toMatchObject({ status: 502, code: 'HTTP-502' });
  });
});
