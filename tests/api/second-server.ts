import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Harness } from './harness';
import { buildApp } from '../../src/server/app';
import { ensureKey } from '../../src/server/security/keys';
import { createTokenService } from '../../src/server/security/tokens';

export interface ServerReply {
  status: number;
  body: { code: number | string; msg: string; data: any };
  headers: Record<string, string>;
}

/** Another Weft server on the same database as the harness's: what a second process behind a load balancer is. */
export interface SecondServer {
  /** 'process': a real server process (PostgreSQL server); 'in-process': a second app on the same database (PGlite). */
  kind: 'process' | 'in-process';
  call(method: string, url: string, opts?: { token?: string; body?: unknown }): Promise<ServerReply>;
  stop(): Promise<void>;
}

/**
 * With DATABASE_URL (a PostgreSQL server) a second server process is started on the test's database
 * (src/server/main.ts, as `npm start` runs it), so nothing but the database is shared. The embedded
 * database belongs to one process: there the second server is a second app with its own token service
 * on the same database.
 */
export async function startSecondServer(h: Harness, env: Record<string, string> = {}): Promise<SecondServer> {
  const databaseUrl = h.studio.ctx.settings.databaseUrl;
  if (!databaseUrl) {
    const db = h.studio.ctx.db;
    const settings = h.studio.ctx.settings;
    const tokens = createTokenService(db, await ensureKey(db, 'jwt_secret'), settings.accessTokenTtl, settings.refreshTokenTtl);
    const app = await buildApp({ ...h.studio.ctx, tokens });
    return {
      kind: 'in-process',
      async call(method, url, opts = {}) {
        const raw = await app.inject({
          method: method as never,
          url,
          headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
          payload: opts.body as never,
        });
        return { status: raw.statusCode, body: raw.json(), headers: raw.headers as Record<string, string> };
      },
      stop: () => app.close(),
    };
  }
  const root = path.resolve(import.meta.dirname, '..', '..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      WEFT_PORT: '0',
      WEFT_HOST: '127.0.0.1',
      WEFT_CLIENT_DIR: '/nonexistent',
      WEFT_LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`second server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (b: Buffer) => {
      output += b.toString();
      const m = output.match(/running at (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`second server exited with ${code}:\n${output}`));
    });
  });
  return {
    kind: 'process',
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = {};
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(base + url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      return { status: res.status, body: await res.json(), headers: Object.fromEntries(res.headers) };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
