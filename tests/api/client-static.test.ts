import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStudio, type Studio } from '../../src/server/server';
import { IMMUTABLE_CACHE } from '../../src/server/http/cache';
import { Settings } from '../../src/server/settings';
import { ADMIN, serverDatabaseUrl } from './harness';

// The built client as the studio serves it: hashed assets are kept by the browser for good, the page
// itself (and every client route, which answers with it) is asked for again each time.

const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-client-'));
fs.mkdirSync(path.join(clientDir, 'assets'));
fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Weft</title><div id="root"></div>');
fs.writeFileSync(path.join(clientDir, 'assets', 'index-Ab12Cd34.js'), 'export const hello = 1;\n');
fs.writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
// A hashed chunk with the variants the build writes beside it (scripts/vite-client-build.mjs).
const chunk = `export const words = ${JSON.stringify('lorem ipsum '.repeat(400))};\n`;
fs.writeFileSync(path.join(clientDir, 'assets', 'editor-Zz98Yy76.js'), chunk);
fs.writeFileSync(path.join(clientDir, 'assets', 'editor-Zz98Yy76.js.br'), zlib.brotliCompressSync(chunk));
fs.writeFileSync(path.join(clientDir, 'assets', 'editor-Zz98Yy76.js.gz'), zlib.gzipSync(chunk));

let studio: Studio;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) ({ url: databaseUrl, drop } = await serverDatabaseUrl(process.env.DATABASE_URL));
  // Given relative to the working directory, as WEFT_CLIENT_DIR may be.
  const settings = Settings.parse({ adminUser: ADMIN.username, adminPassword: ADMIN.password, databaseUrl, clientDir: path.relative(process.cwd(), clientDir), logLevel: 'silent' });
  studio = await createStudio(settings, databaseUrl ? {} : { loadDataDir: fs.readFileSync(inject('pgTemplate')), inMemory: true });
});

afterAll(async () => {
  await studio?.close();
  await drop?.();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('the built client', () => {
  it('serves hashed assets as immutable for a year', async () => {
    const r = await studio.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('export const hello = 1;\n');
    expect(r.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('does not let the page or other files be kept', async () => {
    for (const url of ['/favicon.svg', '/operation/app/123/agent-flow/base', '/login']) {
      const r = await studio.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(String(r.headers['cache-control'] ?? ''), url).not.toContain('immutable');
    }
    const page = await studio.app.inject({ method: 'GET', url: '/login' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
  });

  it('sends the precompressed variant a browser accepts, still immutable', async () => {
    const url = '/assets/editor-Zz98Yy76.js';
    const br = await studio.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(br.headers['content-type']).toContain('javascript');
    expect(String(br.headers.vary ?? '')).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(chunk);
    expect(br.rawPayload.length).toBeLessThan(chunk.length / 10);

    const gz = await studio.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(chunk);

    const plain = await studio.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(chunk);
  });

  it('sends a hashed asset without validators (never asked for again) or ranges, the page with them (issue 28: ~100 files a first load)', async () => {
    for (const encoding of ['br', 'gzip', '']) {
      const r = await studio.app.inject({ method: 'GET', url: '/assets/editor-Zz98Yy76.js', headers: { 'accept-encoding': encoding } });
      expect(r.statusCode, encoding).toBe(200);
      expect([r.headers.etag, r.headers['last-modified'], r.headers['accept-ranges']], encoding).toEqual([undefined, undefined, undefined]);
    }
    const page = await studio.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(page.headers.etag).toBeTruthy();
    expect(page.headers['last-modified']).toBeTruthy();
  });

  it('has the page asked for again each time (no-cache), on every client route', async () => {
    for (const url of ['/', '/login', '/operation/app/123/agent-flow/base']) {
      const r = await studio.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers an API path with the error envelope, not the page', async () => {
    // Without a session the sign-in check answers first (an unknown route is not told apart).
    const r = await studio.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(r.statusCode).toBe(401);
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.json()).toMatchObject({ code: 'AUTH-1001', data: null });
  });
});

describe('framing (clickjacking)', () => {
  const framing = (r: { headers: Record<string, unknown> }) => ({ csp: r.headers['content-security-policy'], xfo: r.headers['x-frame-options'] });

  it('refuses to be framed on every page but the embeddable chat', async () => {
    for (const url of ['/', '/operation', '/operation/system/security', '/portal/sessions/discover', '/login', '/index.html']) {
      const r = await studio.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(framing(r), url).toEqual({ csp: "frame-ancestors 'none'", xfo: 'DENY' });
    }
  });

  it('lets the embedded chat, and the sign-in it leads to, be framed', async () => {
    for (const url of ['/portal/chat/7b1f0f56-2f0c-4a8b-9d55-1c1a9e0e1f01', `/login?redirect_uri=${encodeURIComponent('/portal/chat/7b1f0f56-2f0c-4a8b-9d55-1c1a9e0e1f01')}`]) {
      const r = await studio.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(framing(r), url).toEqual({ csp: undefined, xfo: undefined });
    }
    // A sign-in that leads elsewhere is not embeddable.
    const other = await studio.app.inject({ method: 'GET', url: `/login?redirect_uri=${encodeURIComponent('/operation/system/user')}` });
    expect(framing(other).xfo).toBe('DENY');
  });
});
