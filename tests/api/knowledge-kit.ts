import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Harness, Reply } from './harness';
import { expectOk } from './workspace-fixture';

/**
 * Helpers of the knowledge API tests: a temporary data directory for uploaded files, multipart
 * uploads through inject, knowledge bases and units, and waiting for the queue.
 */

/** Points the studio's file storage at a temporary directory (removed afterwards). */
export function useTempDataDir(h: Harness): { dir: () => string } {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-knowledge-'));
    h.studio.ctx.settings.dataDir = dir;
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir };
}

/** A multipart body (fields in order, then the file) as inject takes it. */
export async function multipartBody(fields: Record<string, string>, file?: { name: string; bytes: Buffer | string; field?: string }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append(file.field ?? 'file', new Blob([typeof file.bytes === 'string' ? Buffer.from(file.bytes) : new Uint8Array(file.bytes)]), file.name);
  const r = new Response(fd);
  return { payload: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get('content-type')! };
}

export async function upload(h: Harness, token: string, workspaceId: string | undefined, name: string, bytes: Buffer | string, bizType = 'dataset'): Promise<Reply> {
  const { payload, contentType } = await multipartBody({ biz_type: bizType }, { name, bytes });
  return h.call('POST', '/api/v1/console/files/upload', { token, workspaceId, body: payload, headers: { 'content-type': contentType } });
}

export async function uploadOk(h: Harness, token: string, workspaceId: string, name: string, bytes: Buffer | string): Promise<string> {
  return expectOk(await upload(h, token, workspaceId, name, bytes)).id as string;
}

export const RULE = {
  mode: 'general' as const,
  max_length: 50,
  overlap: 0,
  separators: ['\n\n', '\n'],
  remove_extra_spaces: true,
  remove_urls_emails: false,
};

export async function createBase(h: Harness, token: string, workspaceId: string, name: string): Promise<string> {
  return expectOk(await h.call('POST', '/api/v1/console/datasets', { token, workspaceId, body: { name, description: '' } })).id as string;
}

export async function addUnits(h: Harness, token: string, workspaceId: string, datasetId: string, body: Record<string, unknown>) {
  return expectOk(await h.call('POST', `/api/v1/console/datasets/${datasetId}/documents`, { token, workspaceId, body: { process_rule: RULE, ...body } })) as any[];
}

/** Polls a unit until it leaves the processing states; answers it. */
export async function waitUnit(h: Harness, token: string, workspaceId: string, datasetId: string, documentId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const d = expectOk(await h.call('GET', `/api/v1/console/datasets/${datasetId}/documents/${documentId}`, { token, workspaceId }));
    if (['completed', 'failed', 'cancelled'].includes(d.status)) return d;
    if (Date.now() > until) throw new Error(`unit ${documentId} still ${d.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function segmentsOf(h: Harness, token: string, workspaceId: string, datasetId: string, documentId: string) {
  const r = expectOk(await h.call('GET', `/api/v1/console/datasets/${datasetId}/documents/${documentId}/segments`, { token, workspaceId, query: { page_size: 1000 } }));
  expect(r.total).toBe(r.items.length);
  return r.items as { id: string; content: string; position: number; enabled: boolean }[];
}

/**
 * A local web server for URL units: `/page` answers `html()`; `/slow` answers only when `release()` is
 * called (or after 20 s), so a task stays running while a test stops or queues others.
 */
export async function startPageServer(html: () => string) {
  const http = await import('node:http');
  const waiting: (() => void)[] = [];
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const answer = () => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html());
    };
    if (req.url?.startsWith('/slow')) {
      const t = setTimeout(answer, 20_000);
      waiting.push(() => (clearTimeout(t), answer()));
      req.on('close', () => clearTimeout(t));
    } else if (req.url?.startsWith('/missing')) {
      res.writeHead(404).end('not here');
    } else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    hits: () => hits,
    release: () => waiting.splice(0).forEach((f) => f()),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Polls a unit until `test` holds. */
export async function waitFor(h: Harness, token: string, workspaceId: string, datasetId: string, documentId: string, test: (d: any) => boolean, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const d = expectOk(await h.call('GET', `/api/v1/console/datasets/${datasetId}/documents/${documentId}`, { token, workspaceId }));
    if (test(d)) return d;
    if (Date.now() > until) throw new Error(`unit ${documentId} never matched (status ${d.status})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
