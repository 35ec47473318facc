/**
 * A tiny real HTTP server for unit tests of the request layer (node:http on 127.0.0.1, random port).
 * Test-only: never imported by app code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path + query as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  /** Replaces the handler (and clears the recorded requests). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export const ok = (res: http.ServerResponse, data: unknown) => sendJson(res, 200, { code: 0, msg: 'success', data });
export const fail = (res: http.ServerResponse, status: number, code: string, msg = '', data: unknown = null) =>
  sendJson(res, status, { code, msg, data });

export async function startServer(initial: Handler = (_req, res) => ok(res, null)): Promise<TestServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://localhost');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch((e: unknown) => {
        if (!res.headersSent) sendJson(res, 599, { code: 'TEST-HANDLER', msg: String(e), data: null });
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Node's own FormData and Blob. jsdom replaces the globals with its classes, which Node's fetch cannot
 * serialise (the request hangs); real browsers have no such split.
 */
export async function nativeFormDataClasses(): Promise<{ FormData: typeof FormData; Blob: typeof Blob }> {
  const fd = await new Request('http://localhost/', { method: 'POST', body: new URLSearchParams('a=1') }).formData();
  const blob = await new Response('x').blob();
  return { FormData: fd.constructor as typeof FormData, Blob: blob.constructor as typeof Blob };
}
