import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundPolicy, OutboundConnectError, OutboundRefusedError } from '../security/outbound-policy';
import { createPolicyFetch } from './policy-fetch';

// The fetch of the model providers and remote MCP against a real local server, which the policy
// opens by name (127.0.0.1); other loopback spellings and private addresses stay closed.
const settings = { outboundAllow: ['127.0.0.1'], mcpStdioCommands: [], httpAllowPrivate: false };
const providerFetch = createPolicyFetch(createOutboundPolicy({ settings }), 'model');

let server: http.Server;
let base: string;
const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    switch (req.url) {
      case '/json':
        res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r1', 'set-cookie': ['a=1', 'b=2'] });
        res.end(JSON.stringify({ echo: chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null }));
        return;
      case '/stream': {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        await new Promise((r) => setTimeout(r, 30));
        res.end('data: two\n\n');
        return;
      }
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        return; // never ends: the caller aborts
      case '/never':
        return; // no answer at all
      case '/gzip':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(JSON.stringify({ packed: true })));
        return;
      case '/moved':
        res.writeHead(307, { location: '/json' });
        res.end();
        return;
      case '/raw':
        res.end('ok');
        return;
      case '/to-metadata':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        res.end();
        return;
      case '/empty':
        res.writeHead(204);
        res.end();
        return;
      case '/fail':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
        res.end('{"error":{"message":"slow down"}}');
        return;
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('providerFetch', () => {
  it('sends method, headers and a JSON body with its length, and answers status, headers and body as fetch does', async () => {
    const res = await providerFetch(`${base}/json`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k', 'x-skip': undefined as unknown as string }, body: JSON.stringify({ q: 'héllo' }) });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('r1');
    expect(res.headers.get('set-cookie')).toContain('a=1');
    expect(await res.json()).toEqual({ echo: { q: 'héllo' } });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', url: '/json' });
    expect(req.headers.authorization).toBe('Bearer k');
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ q: 'héllo' }))));
    expect(req.headers['x-skip']).toBeUndefined();
  });

  it('takes headers as a Headers object or pairs, and a byte body', async () => {
    await providerFetch(`${base}/json`, { method: 'POST', headers: new Headers({ 'x-a': '1' }), body: new TextEncoder().encode('{"b":2}') });
    expect(seen.at(-1)!.headers['x-a']).toBe('1');
    expect(seen.at(-1)!.body).toBe('{"b":2}');
    await providerFetch(`${base}/json`, { method: 'POST', headers: [['x-c', '3']], body: '{}' });
    expect(seen.at(-1)!.headers['x-c']).toBe('3');
  });

  it('streams the body as it arrives', async () => {
    const res = await providerFetch(`${base}/stream`, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('decodes a gzip body, gives 204 a null body, and keeps an error status with its body', async () => {
    expect(await (await providerFetch(`${base}/gzip`)).json()).toEqual({ packed: true });
    const empty = await providerFetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const failed = await providerFetch(`${base}/fail`, { method: 'POST', body: '{}' });
    expect(failed.ok).toBe(false);
    expect(failed.status).toBe(429);
    expect(failed.headers.get('retry-after')).toBe('3');
    expect(await failed.text()).toContain('slow down');
  });

  it('follows a redirect (307 keeps the method and body), admitting each hop; manual answers the 3xx', async () => {
    const res = await providerFetch(`${base}/moved`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"r":1}' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ echo: { r: 1 } });
    expect((await providerFetch(`${base}/moved`, { redirect: 'manual' })).status).toBe(307);
    const before = seen.length;
    expect(await providerFetch(`${base}/to-metadata`).catch((e) => e)).toBeInstanceOf(OutboundRefusedError);
    expect(seen.length).toBe(before + 1);
  });

  it('sends other bodies fetch takes (URLSearchParams, Blob) as bytes with their type', async () => {
    await providerFetch(`${base}/raw`, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    expect(seen.at(-1)).toMatchObject({ body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' } });
    await providerFetch(new Request(`${base}/json`, { method: 'POST', body: new Blob(['{"z":1}'], { type: 'application/json' }) }));
    expect(seen.at(-1)).toMatchObject({ body: '{"z":1}', headers: { 'content-type': 'application/json' } });
  });

  it('refuses what the policy does not open, before any request', async () => {
    const before = seen.length;
    const port = (server.address() as AddressInfo).port;
    for (const url of [`http://[::1]:${port}/json`, `http://0.0.0.0:${port}/json`, 'http://10.0.0.1/x', 'http://169.254.169.254/latest']) {
      expect(await providerFetch(url).catch((e) => e), url).toBeInstanceOf(OutboundRefusedError);
    }
    expect(seen.length).toBe(before);
  });

  it('rejects a failed connection as fetch does: TypeError "fetch failed", the cause one uniform "could not connect"', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const err = (await providerFetch(`http://127.0.0.1:${port}/x`, { method: 'POST', body: '{}' }).catch((e) => e)) as TypeError & { cause: OutboundConnectError };
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toBe('fetch failed');
    expect(err.cause).toBeInstanceOf(OutboundConnectError);
    expect(err.cause).toMatchObject({ code: 'NETWORK-1001', message: `Could not connect to 127.0.0.1:${port}` });
  });

  it('connects to the address it checked: a name answered first public, then loopback, never reaches loopback (DNS rebinding)', async () => {
    let lookups = 0;
    const policy = createOutboundPolicy({ settings: { outboundAllow: [], mcpStdioCommands: [], httpAllowPrivate: false } });
    // What a rebinding DNS server does: a public address for the check, loopback for the connection.
    policy.resolver = async () => [{ address: lookups++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const before = seen.length;
    const port = (server.address() as AddressInfo).port;
    // The public address goes nowhere useful here: whatever it answers, it is not our server.
    await createPolicyFetch(policy, 'model', { connectTimeoutMs: 300 })(`http://rebind.test:${port}/json`, { signal: AbortSignal.timeout(600) }).catch((e) => e);
    expect(lookups).toBe(1);
    expect(seen.length).toBe(before);
    // Every address is checked: a public and a private one together are refused.
    policy.resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    expect(await createPolicyFetch(policy, 'model')('http://mixed.test/x').catch((e) => e)).toBeInstanceOf(OutboundRefusedError);
  });

  it("rejects with the signal's reason when aborted before, while waiting for, and while reading the answer", async () => {
    const before = new AbortController();
    before.abort();
    expect(((await providerFetch(`${base}/json`, { signal: before.signal }).catch((e) => e)) as Error).name).toBe('AbortError');

    const waiting = (await providerFetch(`${base}/never`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(50) }).catch((e) => e)) as Error;
    expect(waiting.name).toBe('TimeoutError');

    const reading = new AbortController();
    const res = await providerFetch(`${base}/slow-body`, { method: 'POST', body: '{}', signal: reading.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    setTimeout(() => reading.abort(), 10);
    const err = (await reader.read().catch((e) => e)) as Error;
    expect(err.name).toBe('AbortError');
  });
});
