import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createStudio, type Studio } from '../../src/server/server';
import { Settings } from '../../src/server/settings';
import { DEFAULT_TENANT_ID } from '../../schemas/common';

export const ADMIN = { username: 'admin', password: 'Admin12345' };
export { DEFAULT_TENANT_ID };

export interface Harness {
  studio: Studio;
  /** Signs in and returns the access token. */
  login(username: string, password: string, tenantId?: string): Promise<string>;
  /** Injects a request; `token` adds the bearer header, `tenantId`/`workspaceId` the spec 7.1 headers. */
  call(method: string, url: string, opts?: CallOptions): Promise<Reply>;
  adminToken: string;
  /**
   * Opens exactly these destinations (URLs or host:port) in the studio's outbound allow-list, as an
   * operator would for a local service: the fake providers, pages and servers a test talks to.
   */
  allowOutbound(...targets: string[]): void;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  tenantId?: string;
  workspaceId?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  body: { code: number | string; msg: string; data: any };
  raw: LightMyRequestResponse;
}

/**
 * A new, empty database on the server at `base`; with `template`, a copy of that database (the global
 * setup's migrated one: a file's studio then starts without running every migration again).
 */
export async function serverDatabaseUrl(base: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = await import('pg');
  const name = `weft_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    // The template's last connection (the global setup's pool) may still be closing on the server: it says so with 55006.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
        break;
      } catch (e) {
        if ((e as { code?: string }).code !== '55006' || attempt >= 50) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Settings a test file gives its studio, as the environment would: e.g. `outboundAllow` (the
 * WEFT_OUTBOUND_ALLOW list) for the local fake servers the file talks to. The outbound network policy
 * is closed by default, as in production: a file that needs a loopback fake opens it here, by name.
 */
export type StudioSettings = Record<string, string | undefined>;

/** The allow-list of the files whose fake providers, pages, MCP and API servers listen on 127.0.0.1. */
export const LOOPBACK_FAKES: StudioSettings = { outboundAllow: '127.0.0.1' };

/**
 * A fresh studio per test file: embedded PGlite loaded from the migrated template, or, with
 * DATABASE_URL set, a new database on that PostgreSQL server copied from the migrated template
 * database (dropped afterwards).
 */
export function useStudio(extra: StudioSettings = {}): Harness {
  const h = {} as Harness;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    let loadDataDir: Uint8Array | undefined;
    if (process.env.DATABASE_URL) {
      const made = await serverDatabaseUrl(process.env.DATABASE_URL, inject('pgServerTemplate'));
      databaseUrl = made.url;
      drop = made.drop;
    } else {
      // Bytes, handed over to the database's thread as they are (a Blob costs four copies of the 46 MB).
      loadDataDir = fs.readFileSync(inject('pgTemplate'));
    }
    const settings = Settings.parse({ ...extra, adminUser: ADMIN.username, adminPassword: ADMIN.password, databaseUrl, clientDir: '/nonexistent', logLevel: 'silent' });
    // No sandbox worker until a file runs code: most files run none (server.ts, warmSandbox).
    h.studio = await createStudio(settings, { loadDataDir, inMemory: true, warmSandbox: false });
    h.call = async (method, url, opts = {}) => {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.tenantId) headers['x-tenant-id'] = opts.tenantId;
      if (opts.workspaceId) headers['x-workspace-id'] = opts.workspaceId;
      const query = opts.query
        ? Object.fromEntries(Object.entries(opts.query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))
        : undefined;
      const raw = await h.studio.app.inject({ method: method as never, url, headers, query, payload: opts.body as never });
      let body: Reply['body'];
      try {
        body = raw.json();
      } catch {
        body = { code: 'NOT_JSON', msg: raw.body, data: null };
      }
      return { status: raw.statusCode, body, raw };
    };
    h.login = async (username, password, tenantId = DEFAULT_TENANT_ID) => {
      const r = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId, username, password } });
      if (r.status !== 200) throw new Error(`login ${username} failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.data.access_token as string;
    };
    h.allowOutbound = (...targets) => {
      const entries = targets.map((t) => (/^[a-z]+:\/\//.test(t) ? new URL(t).host : t));
      const settings = h.studio.ctx.settings;
      settings.outboundAllow = [...new Set([...settings.outboundAllow, ...entries])];
    };
    h.adminToken = await h.login(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await h.studio?.close();
    await drop?.();
  });
  return h;
}
