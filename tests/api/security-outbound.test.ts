import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, setUpWorkspaces, type Who } from './workspace-fixture';
import { fakeOpenAi, GOOD_KEY, type FakeServer } from './fake-providers';
import { closeMcpClients } from '../../src/server/tools/runtime';
import { createGuardedHttpClient } from '../../src/server/http';
import { createPolicyFetch } from '../../src/server/http/policy-fetch';
import { checkConnection } from '../../src/server/services/db-drivers';
import { systemResolver } from '../../src/server/http/address-guard';
// @ts-expect-error a plain .mjs fixture without types
import { createMcpServer } from '../fixtures/mcp-server.mjs';

// Issue 20, finding 2: every connection the server makes for a user goes through one outbound
// policy. Loopback, private, link-local and metadata addresses are refused before any connection
// unless the operator's allow-list opens them; allowed destinations that fail all answer the same.
// Nothing is opened here by default (as in production): each test opens what it needs.

const h = useStudio();
let f: Fixture;
const servers: (http.Server | net.Server)[] = [];
const sockets = new Set<net.Socket>();
let oa: FakeServer;

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> = {}) {
  return h.call(method, url, { ...opts, token: f.u[who].token, workspaceId: f.wsA });
}
const adminCall = (method: string, url: string, body?: unknown) => h.call(method, `/api/v1/admin/models${url}`, { token: h.adminToken, body });
const allow = (...entries: string[]) => {
  h.studio.ctx.settings.outboundAllow = entries;
};

/** A TCP listener on loopback that counts the connections it gets and answers `greeting` (or nothing). */
async function counting(greeting?: string): Promise<{ port: number; count: () => number }> {
  let n = 0;
  const server = net.createServer((socket) => {
    n++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Read what comes (else the end of the client's side is never seen and the socket stays).
    socket.resume();
    if (greeting !== undefined) socket.end(greeting);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, count: () => n };
}

async function listen(handler: http.RequestListener): Promise<{ base: string; port: number; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, port, hits: () => hits };
}

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'outbound');
  oa = await fakeOpenAi();
});

afterAll(async () => {
  allow();
  await closeMcpClients(h.studio.ctx);
  await oa?.close();
  for (const s of servers) if (s instanceof http.Server) s.closeAllConnections();
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const dbBody = (over: Record<string, unknown>) => ({ type: 'postgresql', host: '127.0.0.1', port: 5432, account: 'weft', password: 'pw', database: '', sid: '', ...over });

describe('database connection checks', () => {
  it('refuses a loopback listener before connecting, with the policy code, for every host spelling and driver', async () => {
    allow();
    const target = await counting('hello');
    for (const host of ['127.0.0.1', 'localhost', '::1', '::ffff:127.0.0.1', '0.0.0.0']) {
      for (const type of ['postgresql', 'mysql', 'clickhouse']) {
        const r = await call('POST', '/api/v1/console/databases/check-connection', 'owner', { body: dbBody({ type, host, port: target.port }) });
        expectCode(r, 400, 'NETWORK-1000');
        expect(r.body.msg).not.toMatch(/ECONN|refused|timed? ?out/i);
      }
    }
    expect(target.count()).toBe(0);
  });

  it('lets an allow-listed host:port through, and answers the same for a closed port and an open port that is no database', async () => {
    const garbage = await counting('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    const closed = await closedPort();
    allow(`127.0.0.1:${garbage.port}`, `127.0.0.1:${closed}`);
    try {
      for (const type of ['postgresql', 'mysql', 'clickhouse', 'sqlserver']) {
        const open = expectOk(await call('POST', '/api/v1/console/databases/check-connection', 'owner', { body: dbBody({ type, port: garbage.port }) }));
        const shut = expectOk(await call('POST', '/api/v1/console/databases/check-connection', 'owner', { body: dbBody({ type, port: closed }) }));
        expect(open, type).toMatchObject({ status: 'failed', code: 'unreachable', detail: '' });
        expect(shut, type).toMatchObject({ status: 'failed', code: 'unreachable', detail: '' });
        expect(open.message.replace(String(garbage.port), 'PORT'), type).toBe(shut.message.replace(String(closed), 'PORT'));
        expect(open.message).not.toMatch(/ECONN|refused|reset|timed? ?out|protocol|unexpected/i);
      }
      expect(garbage.count()).toBeGreaterThan(0);
      // The allow-list names ports: another port of the same host stays closed.
      expectCode(await call('POST', '/api/v1/console/databases/check-connection', 'owner', { body: dbBody({ port: garbage.port + 1 === closed ? garbage.port + 2 : garbage.port + 1 }) }), 400, 'NETWORK-1000');
    } finally {
      allow();
    }
  });

  it('records the refusal of a saved database without connecting', async () => {
    const target = await counting('hello');
    const d = expectOk(await call('POST', '/api/v1/console/databases', 'owner', { body: { name: 'Loopback DB', ...dbBody({ port: target.port }) } }));
    const checked = expectOk(await call('GET', `/api/v1/console/databases/${d.id}/check`, 'member'));
    expect(checked).toMatchObject({ status: 'failed', status_code: 'not_allowed' });
    expect(target.count()).toBe(0);
  });
});

describe('model providers', () => {
  it('refuses a loopback base URL on validate, without a request; the allow-list opens exactly that host:port', async () => {
    allow();
    const before = oa.requests.length;
    const r = await adminCall('POST', '/model-providers/openai_api_compatible/credentials/validate', { credentials: { base_url: oa.baseUrl, api_key: GOOD_KEY }, model: 'fake-chat' });
    expectCode(r, 400, 'NETWORK-1000');
    expect(oa.requests.length).toBe(before);
    allow(new URL(oa.baseUrl).host);
    try {
      const ok = expectOk(await adminCall('POST', '/model-providers/openai_api_compatible/credentials/validate', { credentials: { base_url: oa.baseUrl, api_key: GOOD_KEY }, model: 'fake-chat' }));
      expect(ok).toMatchObject({ ok: true });
    } finally {
      allow();
    }
  });

  it('answers "could not connect" alike for a closed port and a port that is no model provider', async () => {
    const garbage = await counting('not http at all\r\n\r\n');
    const closed = await closedPort();
    allow(`127.0.0.1:${garbage.port}`, `127.0.0.1:${closed}`);
    try {
      const a = expectOk(await adminCall('POST', '/model-providers/openai_api_compatible/credentials/validate', { credentials: { base_url: `http://127.0.0.1:${garbage.port}/v1`, api_key: GOOD_KEY }, model: 'fake-chat' }));
      const b = expectOk(await adminCall('POST', '/model-providers/openai_api_compatible/credentials/validate', { credentials: { base_url: `http://127.0.0.1:${closed}/v1`, api_key: GOOD_KEY }, model: 'fake-chat' }));
      expect(a).toMatchObject({ ok: false, error_code: 'unreachable' });
      expect(b).toMatchObject({ ok: false, error_code: 'unreachable' });
      expect(a.message.replace(String(garbage.port), 'PORT')).toBe(b.message.replace(String(closed), 'PORT'));
    } finally {
      allow();
    }
  });
});

describe('HTTP tools and remote MCP', () => {
  it('refuse loopback and metadata addresses, also with private ranges opened, and pass an allow-listed host:port', async () => {
    const api = await listen((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    const tool = expectOk(await call('POST', '/api/v1/console/tools', 'owner', { body: { name: 'Policy API' } }));
    const fn = async (name: string, url: string) => expectOk(await call('POST', `/api/v1/console/tools/${tool.id}/functions`, 'owner', { body: { name, url } })).id as string;
    const test = async (fid: string) => expectOk(await call('POST', `/api/v1/console/tools/${tool.id}/functions/${fid}/test`, 'owner', { body: { inputs: {} } }));
    const local = await fn('local', `${api.base}/x`);
    const metadata = await fn('metadata', 'http://169.254.169.254/latest/meta-data/');
    const google = await fn('google_metadata', 'http://metadata.google.internal/computeMetadata/v1/');
    allow();
    expect(await test(local)).toMatchObject({ ok: false, error: { code: 'NETWORK-1000' } });
    // Opening every private and link-local range never opens the metadata service.
    allow('0.0.0.0/0', '169.254.0.0/16', '[::]/0', '127.0.0.1');
    h.studio.ctx.settings.httpAllowPrivate = true;
    try {
      expect(await test(metadata)).toMatchObject({ ok: false, error: { code: 'NETWORK-1000' } });
      expect(await test(google)).toMatchObject({ ok: false, error: { code: 'NETWORK-1000' } });
      allow(`127.0.0.1:${api.port}`);
      expect(await test(local)).toMatchObject({ ok: true, status: 200 });
      expect(api.hits()).toBe(1);
    } finally {
      h.studio.ctx.settings.httpAllowPrivate = false;
      allow();
    }
  });

  it('refuses a remote MCP server on loopback without a request, and reaches an allow-listed one', async () => {
    const mcp = await listen(async (req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = createMcpServer('http');
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    const t = expectOk(await call('POST', '/api/v1/console/tools/mcp', 'owner', { body: { config: { mcpServers: { 'Loopback MCP': { url: `${mcp.base}/mcp` } } } } }));
    allow();
    const refused = await call('GET', `/api/v1/console/tools/${t.id}/mcp-tools`, 'owner');
    expectCode(refused, 400, 'NETWORK-1000');
    expect(mcp.hits()).toBe(0);
    allow(`127.0.0.1:${mcp.port}`);
    try {
      expect(expectOk(await call('GET', `/api/v1/console/tools/${t.id}/mcp-tools`, 'owner')).tools.map((x: { name: string }) => x.name)).toEqual(['add', 'echo', 'fail']);
    } finally {
      allow();
    }
  });
});

describe('remote MCP over SSE', () => {
  it('is refused on loopback like streamable HTTP, and talks SSE once the allow-list opens it', async () => {
    const sessions = new Map<string, SSEServerTransport>();
    const sse = await listen(async (req, res) => {
      const u = new globalThis.URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && u.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        res.on('close', () => sessions.delete(transport.sessionId));
        await createMcpServer('sse').connect(transport);
        return;
      }
      const transport = sessions.get(u.searchParams.get('sessionId') ?? '');
      if (!transport) return void res.writeHead(404).end();
      await transport.handlePostMessage(req, res);
    });
    const t = expectOk(await call('POST', '/api/v1/console/tools/mcp', 'owner', { body: { config: { mcpServers: { 'SSE MCP': { type: 'sse', url: `${sse.base}/sse` } } } } }));
    allow();
    expectCode(await call('GET', `/api/v1/console/tools/${t.id}/mcp-tools`, 'owner'), 400, 'NETWORK-1000');
    expect(sse.hits()).toBe(0);
    allow(`127.0.0.1:${sse.port}`);
    try {
      const listed = expectOk(await call('GET', `/api/v1/console/tools/${t.id}/mcp-tools`, 'owner'));
      expect(listed.tools.find((x: { name: string }) => x.name === 'echo').description).toBe('Echoes the text (sse)');
    } finally {
      allow();
    }
  });
});

describe('DNS rebinding', () => {
  it('every channel connects to the address it checked: a name answered public first, then loopback, never reaches loopback', async () => {
    const target = await counting('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    const outbound = h.studio.ctx.outbound;
    let lookups = 0;
    // A rebinding DNS server: a public address for whoever checks, loopback for whoever asks next.
    outbound.resolver = async (host) => (host === 'rebind.test' ? [{ address: lookups++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }] : systemResolver(host));
    const url = `http://rebind.test:${target.port}/`;
    try {
      const channels: [string, () => Promise<unknown>][] = [
        ['http', () => createGuardedHttpClient({ policy: outbound, connectTimeoutMs: 500, readTimeoutMs: 500 }).request({ method: 'GET', url, timeoutMs: 1000 })],
        ['model', () => createPolicyFetch(outbound, 'model', { connectTimeoutMs: 500 })(url, { signal: AbortSignal.timeout(1000) })],
        ['database', () => checkConnection({ type: 'postgresql', host: 'rebind.test', port: target.port, account: 'a', password: 'b', database: '', sid: '' }, { policy: outbound, timeoutMs: 500 })],
      ];
      for (const [name, run] of channels) {
        lookups = 0;
        // Whatever the public address answers here, it is not the loopback listener.
        await run().catch(() => undefined);
        expect(lookups, name).toBe(1);
        expect(target.count(), name).toBe(0);
      }
      // And a name that answers a public and a private address at once is refused outright.
      outbound.resolver = async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
      const refused = await createGuardedHttpClient({ policy: outbound }).request({ method: 'GET', url }).catch((e: { code: string }) => e);
      expect(refused).toMatchObject({ code: 'NETWORK-1000' });
      expect(target.count()).toBe(0);
    } finally {
      outbound.resolver = systemResolver;
    }
  });
});
