import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../src/plugin-sdk/executor';
import { classifyAddress, createGuardedHttpClient, createWebPageReader, isBlockedAddress, type GuardedRequest, type Resolver } from '../../src/server/http';
import { createOutboundPolicy } from '../../src/server/security/outbound-policy';
import { readSettings } from '../../src/server/settings';

// The guarded client against real local HTTP servers. The servers listen on loopback, which the
// client refuses by default; tests that need the server open it by name in the client's outbound
// policy (127.0.0.1 alone), while every other rule stays.

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;
const routes = new Map<string, Handler>();
let hits = 0;
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) handler(req, res, Buffer.concat(chunks));
      else res.writeHead(404).end('missing');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const route = (path: string, handler: Handler) => routes.set(path, handler);
/** A policy whose allow-list opens 127.0.0.1 (the test server) and nothing else. */
const loopbackOpen = (resolver?: Resolver) => createOutboundPolicy({ settings: { outboundAllow: ['127.0.0.1'], mcpStdioCommands: [], httpAllowPrivate: false }, resolver });
const open = createGuardedHttpClient({ policy: loopbackOpen() });
const guardedButTestServer = open;

async function codeOf(p: Promise<unknown>): Promise<{ code: string; message: string; detail?: unknown }> {
  const e = await p.then(
    () => {
      throw new Error('Expected the request to fail');
    },
    (err: unknown) => err,
  );
  return e as { code: string; message: string; detail?: unknown };
}

describe('private address blocking', () => {
  it('refuses loopback and private targets by default, without connecting', async () => {
    route('/secret', (_q, res) => res.end('secret'));
    const client = createGuardedHttpClient();
    const port = (server.address() as AddressInfo).port;
    const before = hits;
    for (const url of [`${base}/secret`, `http://localhost:${port}/secret`, `http://[::1]:${port}/secret`, `http://0.0.0.0:${port}/secret`, `http://[::ffff:127.0.0.1]:${port}/`, 'http://169.254.169.254/latest/meta-data']) {
      expect(await codeOf(client.request({ method: 'GET', url }))).toMatchObject({ code: 'NETWORK-1000' });
    }
    expect(hits).toBe(before);
  });

  it('checks every address a name resolves to', async () => {
    const client = createGuardedHttpClient({
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    });
    const err = await codeOf(client.request({ method: 'GET', url: 'http://mixed.example.test/' }));
    expect(err).toMatchObject({ code: 'NETWORK-1000', detail: { host: 'mixed.example.test:80' } });
    // The address is not named: the answer does not map the internal network either.
    expect(err.message).not.toContain('10.0.0.5');
  });

  it('knows the private, loopback and link-local ranges of IPv4 and IPv6', () => {
    for (const ip of ['127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'ff02::1']) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001::1']) {
      expect(isBlockedAddress(ip), ip).toBe(false);
    }
    expect(isBlockedAddress('not-an-ip')).toBe(true);
    // IPv6 forms that carry an IPv4 address are that address: NAT64, 6to4, IPv4-mapped.
    for (const [ip, kind] of [['64:ff9b::7f00:1', 'loopback'], ['64:ff9b::a9fe:a9fe', 'metadata'], ['2002:7f00:1::1', 'loopback'], ['::ffff:169.254.169.254', 'metadata'], ['64:ff9b::808:808', 'public'], ['fd00:ec2::254', 'metadata'], ['100.100.100.200', 'metadata'], ['2001:db8::1', 'reserved'], ['0.0.0.0', 'unspecified'], ['::', 'unspecified']] as const) {
      expect(classifyAddress(ip), ip).toBe(kind);
    }
  });

  it('reaches them when the allow-list opens them', async () => {
    route('/hello', (_q, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-trace': 'abc' }).end('{"hello":"world"}'));
    const res = await open.request({ method: 'GET', url: `${base}/hello` });
    expect(res).toMatchObject({ status: 200, body: '{"hello":"world"}', contentType: 'application/json', url: `${base}/hello`, redirects: [] });
    expect(res.headers['x-trace']).toBe('abc');
    expect(new TextDecoder().decode(res.bytes)).toBe('{"hello":"world"}');
    expect(readSettings({ WEFT_HTTP_ALLOW_PRIVATE: 'true' }).httpAllowPrivate).toBe(true);
    expect(readSettings({}).httpAllowPrivate).toBe(false);
    expect(readSettings({ WEFT_OUTBOUND_ALLOW: '127.0.0.1:11434, 10.20.0.0/16,db.corp.local:1521 [fd00::]/64:443' }).outboundAllow).toEqual(['127.0.0.1:11434', '10.20.0.0/16', 'db.corp.local:1521', '[fd00::]/64:443']);
    expect(readSettings({}).outboundAllow).toEqual([]);
    expect(() => readSettings({ WEFT_OUTBOUND_ALLOW: '10.0.0.0/33' })).toThrow(/longer than 32/);
  });
});

describe('limits', () => {
  it('refuses a response over the size limit, declared or streamed', async () => {
    route('/big', (_q, res) => res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024, 97)));
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/big`, maxResponseBytes: 1024 * 1024 }))).toMatchObject({ code: 'HTTP-RESPONSE-TOO-LARGE' });

    let streamClosed = false;
    route('/endless', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 98);
      const timer = setInterval(() => res.write(chunk), 5);
      res.on('close', () => {
        streamClosed = true;
        clearInterval(timer);
      });
    });
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/endless`, maxResponseBytes: 512 * 1024 }))).toMatchObject({ code: 'HTTP-RESPONSE-TOO-LARGE' });
    await expect.poll(() => streamClosed).toBe(true);

    // A small gzip body that inflates past the limit.
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    route('/bomb', (_q, res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/bomb`, maxResponseBytes: 1024 * 1024 }))).toMatchObject({ code: 'HTTP-RESPONSE-TOO-LARGE' });
  });

  it('decompresses gzip bodies under the limit', async () => {
    route('/gz', (_q, res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' }).end(zlib.gzipSync('compressed text')));
    expect(await open.request({ method: 'GET', url: `${base}/gz` })).toMatchObject({ status: 200, body: 'compressed text' });
  });

  it('gives up on a server that does not answer (as "could not connect") and times out a slow trickle (total)', async () => {
    route('/silent', () => undefined);
    let started = performance.now();
    // No answer at all is the same as no server: an open port that stays silent must not differ from a closed one.
    const read = await codeOf(open.request({ method: 'GET', url: `${base}/silent`, readTimeoutMs: 300 }));
    expect(read).toMatchObject({ code: 'NETWORK-1001', message: `Could not connect to ${base.slice(7)}` });
    expect(performance.now() - started).toBeLessThan(2000);

    route('/trickle', (_q, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(timer));
    });
    started = performance.now();
    const total = await codeOf(open.request({ method: 'GET', url: `${base}/trickle`, timeoutMs: 500 }));
    expect(total).toMatchObject({ code: 'HTTP-TIMEOUT', detail: { phase: 'total' } });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('times out a compressed response that stalls midway', async () => {
    route('/gz-stall', (_q, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      const gz = zlib.createGzip();
      gz.pipe(res);
      gz.write('first part');
      gz.flush();
    });
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/gz-stall`, timeoutMs: 400 }))).toMatchObject({ code: 'HTTP-TIMEOUT', detail: { phase: 'total' } });
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/gz-stall`, readTimeoutMs: 300 }))).toMatchObject({ code: 'HTTP-TIMEOUT', detail: { phase: 'read' } });
    route('/stall', (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part');
    });
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/stall`, readTimeoutMs: 300 }))).toMatchObject({ code: 'HTTP-TIMEOUT', detail: { phase: 'read' } });
  });

  it('gives up on a connection that never comes up (DNS included), as "could not connect"', async () => {
    const client = createGuardedHttpClient({ resolve: () => new Promise(() => undefined) });
    const started = performance.now();
    expect(await codeOf(client.request({ method: 'GET', url: 'http://slow-dns.test/', connectTimeoutMs: 300 }))).toMatchObject({ code: 'NETWORK-1001', message: 'Could not connect to slow-dns.test:80' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('answers a closed port and a port that does not speak HTTP alike', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const garbage = net.createServer((s) => {
      s.on('error', () => undefined);
      s.resume();
      s.end('SSH-2.0-OpenSSH_9.6\r\n');
    });
    await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
    const garbagePort = (garbage.address() as AddressInfo).port;
    try {
      const a = await codeOf(open.request({ method: 'GET', url: `http://127.0.0.1:${closedPort}/` }));
      const b = await codeOf(open.request({ method: 'GET', url: `http://127.0.0.1:${garbagePort}/` }));
      expect(a).toMatchObject({ code: 'NETWORK-1001' });
      expect(b).toMatchObject({ code: 'NETWORK-1001' });
      expect(a.message.replace(String(closedPort), 'P')).toBe(b.message.replace(String(garbagePort), 'P'));
      expect(JSON.stringify([a, b])).not.toMatch(/ECONN|Parse Error|HPE_/);
    } finally {
      await new Promise((r) => garbage.close(r));
    }
  });

  it('stops when the caller aborts', async () => {
    route('/hang', () => undefined);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/hang`, signal: ac.signal }))).toMatchObject({ code: 'HTTP-ABORTED' });
  });
});

describe('redirects', () => {
  it('follows redirects, re-checking each hop', async () => {
    route('/r1', (_q, res) => res.writeHead(302, { location: '/r2' }).end());
    route('/r2', (_q, res) => res.writeHead(301, { location: `${base}/hello` }).end());
    const res = await guardedButTestServer.request({ method: 'GET', url: `${base}/r1` });
    expect(res).toMatchObject({ status: 200, body: '{"hello":"world"}', url: `${base}/hello`, redirects: [`${base}/r2`, `${base}/hello`] });
  });

  it('refuses a redirect to a private address', async () => {
    route('/to-metadata', (_q, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    route('/to-intranet', (_q, res) => res.writeHead(307, { location: 'http://intranet.corp.test/admin' }).end());
    expect(await codeOf(guardedButTestServer.request({ method: 'GET', url: `${base}/to-metadata` }))).toMatchObject({ code: 'NETWORK-1000' });
    const viaDns = createGuardedHttpClient({ policy: loopbackOpen(async (host) => [{ address: host === 'intranet.corp.test' ? '192.168.10.20' : '127.0.0.1', family: 4 }]) });
    expect(await codeOf(viaDns.request({ method: 'GET', url: `${base}/to-intranet` }))).toMatchObject({ code: 'NETWORK-1000', detail: { host: 'intranet.corp.test:80' } });
  });

  it('stops after the redirect limit and can return the 3xx itself', async () => {
    route('/loop', (_q, res) => res.writeHead(302, { location: '/loop' }).end());
    expect(await codeOf(open.request({ method: 'GET', url: `${base}/loop` }))).toMatchObject({ code: 'HTTP-TOO-MANY-REDIRECTS' });
    expect(await open.request({ method: 'GET', url: `${base}/loop`, followRedirects: false })).toMatchObject({ status: 302, headers: { location: '/loop' } });
  });

  it('continues a POST as a GET after 303, and drops credentials across origins', async () => {
    const seen: { method?: string; length: number; auth?: string }[] = [];
    route('/form-post', (req, res, body) => {
      seen.push({ method: req.method, length: body.length, auth: req.headers.authorization });
      res.writeHead(303, { location: `http://localhost:${(server.address() as AddressInfo).port}/landing` }).end();
    });
    route('/landing', (req, res, body) => {
      seen.push({ method: req.method, length: body.length, auth: req.headers.authorization });
      res.end('landed');
    });
    const res = await open.request({ method: 'POST', url: `${base}/form-post`, json: { a: 1 }, headers: { Authorization: 'Bearer secret' } });
    expect(res.body).toBe('landed');
    expect(seen).toEqual([
      { method: 'POST', length: 7, auth: 'Bearer secret' },
      { method: 'GET', length: 0, auth: undefined },
    ]);
  });
});

describe('request bodies and responses', () => {
  route('/echo', (req, res, body) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url, type: req.headers['content-type'], body: body.toString('latin1') })),
  );
  const echo = async (req: Omit<GuardedRequest, 'url'> & { path?: string }) => JSON.parse((await open.request({ url: `${base}${req.path ?? '/echo'}`, ...req })).body) as Record<string, string>;

  it('sends JSON, with the query appended', async () => {
    const out = await echo({ method: 'post', path: '/echo?keep=1', json: { name: '张三', n: 1 }, query: { q: 'a b', tag: ['x', 'y'], skip: undefined } });
    expect(out).toMatchObject({ method: 'POST', url: '/echo?keep=1&q=a+b&tag=x&tag=y', type: 'application/json' });
    expect(JSON.parse(Buffer.from(out.body, 'latin1').toString('utf8'))).toEqual({ name: '张三', n: 1 });
  });

  it('sends forms, multipart with a file, and raw bodies', async () => {
    expect(await echo({ method: 'POST', form: { a: '1', b: ['2', '3'] } })).toMatchObject({ type: 'application/x-www-form-urlencoded', body: 'a=1&b=2&b=3' });
    const multi = await echo({
      method: 'POST',
      multipart: [
        { name: 'title', value: 'report' },
        { name: 'file', data: new TextEncoder().encode('file bytes'), filename: 'r.txt', contentType: 'text/plain' },
      ],
    });
    expect(multi.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(multi.body).toContain('name="title"\r\n\r\nreport');
    expect(multi.body).toContain('filename="r.txt"');
    expect(multi.body).toContain('file bytes');
    expect(await echo({ method: 'PUT', body: 'raw text', headers: { 'Content-Type': 'text/plain' } })).toMatchObject({ method: 'PUT', type: 'text/plain', body: 'raw text' });
    expect(await codeOf(open.request({ method: 'POST', url: `${base}/echo`, json: {}, form: {} }))).toMatchObject({ code: 'HTTP-BODY-INVALID' });
  });

  it('decodes text in the charset the response names', async () => {
    route('/gbk', (_q, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=gbk' }).end(Buffer.from([0xc4, 0xe3, 0xba, 0xc3])));
    expect((await open.request({ method: 'GET', url: `${base}/gbk` })).body).toBe('你好');
  });

  it('refuses URLs it should not request', async () => {
    for (const url of ['file:///etc/passwd', 'not a url', 'http://user:pw@example.com/']) {
      expect(await codeOf(open.request({ method: 'GET', url }))).toMatchObject({ code: 'HTTP-URL-INVALID' });
    }
  });

  it('serves as the executors\u2019 HttpClient', async () => {
    const service: HttpClient = open;
    const res = await service.request({ method: 'GET', url: `${base}/hello`, signal: new AbortController().signal });
    expect(res).toMatchObject({ status: 200, body: '{"hello":"world"}' });
  });
});

describe('web page reader', () => {
  const page = `<!doctype html><html><head><title>Weft &amp; friends</title><style>body { color: red }</style>
    <script>var secret = "<p>not text</p>";</script></head><body>
    <nav><ul><li><a href="/">Home</a></li><li>Docs</li></ul></nav>
    <header><h1>Release notes</h1></header>
    <p>Weft 1.0 is <b>out</b>.&nbsp;Read on&hellip;</p>
    <!-- a comment -->
    <h2>New</h2>
    <ul><li>Code node</li><li>HTTP node <ol><li>timeouts</li><li>limits</li></ol></li></ul>
    <div hidden>hidden text</div>
    <aside>Related posts</aside>
    <footer>© 2026 Weft</footer>
    <noscript>Enable JS</noscript>
  </body></html>`;

  it('turns HTML into clean text', async () => {
    route('/page', (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    const reader = createWebPageReader(open);
    const out = await reader.read(`${base}/page`);
    expect(out.title).toBe('Weft & friends');
    expect(out.text).toBe(['# Release notes', 'Weft 1.0 is out. Read on…', '## New', '- Code node\n- HTTP node\n  1. timeouts\n  2. limits'].join('\n\n'));
    expect(out.truncated).toBe(false);
    for (const gone of ['secret', 'color', 'Home', 'hidden text', 'Related', '2026', 'Enable JS', 'comment']) expect(out.text).not.toContain(gone);
  });

  it('keeps only the main content when the page marks it, and cuts long text', async () => {
    route('/article', (_q, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<body><div>Site banner</div><main><h1>Title</h1><p>Body text here.</p></main><div>Sidebar</div></body>'),
    );
    const reader = createWebPageReader(open);
    expect((await reader.read(`${base}/article`)).text).toBe('# Title\n\nBody text here.');
    expect(await reader.read(`${base}/article`, { maxChars: 7 })).toMatchObject({ text: '# Title', truncated: true });
  });

  it('passes plain text through and refuses binaries and error pages', async () => {
    route('/plain', (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('  just text  '));
    route('/image', (_q, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50])));
    const reader = createWebPageReader(open);
    expect(await reader.read(`${base}/plain`)).toMatchObject({ title: '', text: 'just text' });
    expect(await codeOf(reader.read(`${base}/image`))).toMatchObject({ code: 'WEBPAGE-UNSUPPORTED-CONTENT' });
    expect(await codeOf(reader.read(`${base}/nowhere`))).toMatchObject({ code: 'WEBPAGE-FETCH-FAILED', detail: { status: 404 } });
  });

  it('stays behind the address guard', async () => {
    const reader = createWebPageReader(createGuardedHttpClient());
    expect(await codeOf(reader.read(`${base}/page`))).toMatchObject({ code: 'NETWORK-1000' });
  });
});
