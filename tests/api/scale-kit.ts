import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from '../../src/server/app';
import { ensureKey } from '../../src/server/security/keys';
import { createTokenService } from '../../src/server/security/tokens';
import type { Harness } from './harness';

/**
 * Several Weft servers on one database behind a small loopback proxy, as a load balancer puts them
 * (issue 34). With DATABASE_URL (a PostgreSQL server) each is a real server process
 * (src/server/main.ts, as `npm start` runs it): they share nothing but the database. The embedded
 * database belongs to one process, so there they are apps of the harness's process on its context,
 * each listening on a port of its own: the same routes and the same run bus interface.
 */
export interface Cluster {
  kind: 'process' | 'in-process';
  /** The proxy's address: what a client reaches. */
  url: string;
  /** Sends the following requests to server `i` (0, 1, 2…), as a balancer may. */
  route(i: number): void;
  /** Sends the following requests to the servers in turn (round robin), as a balancer does. */
  spread(): void;
  /** The base URL of each server, for reading one directly. */
  servers: string[];
  /** Each server's process id (real processes only; the harness's own pid in-process). */
  pids: number[];
  stop(): Promise<void>;
}

/**
 * Starts `n` servers on the harness's (or a bench's) studio's database and the proxy in front of them.
 * `nodeFlags`: node's own flags for each server process (a bench gives `npm start`'s).
 */
export async function startCluster(h: Pick<Harness, 'studio'>, n: number, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Cluster> {
  const databaseUrl = h.studio.ctx.settings.databaseUrl;
  const stops: (() => Promise<void>)[] = [];
  let servers: string[];
  let pids: number[];
  try {
    const started = await Promise.all(
      Array.from({ length: n }, async () => {
        const s = databaseUrl ? await serverProcess(databaseUrl, env, nodeFlags) : { ...(await inProcessServer(h)), pid: process.pid };
        stops.push(s.stop);
        return s;
      }),
    );
    servers = started.map((s) => s.url);
    pids = started.map((s) => s.pid);
  } catch (e) {
    await Promise.all(stops.map((s) => s()));
    throw e;
  }
  let target = 0;
  let turn: number | undefined;
  const proxy = http.createServer((req, res) => {
    const upstream = new URL(servers[turn === undefined ? target : turn++ % servers.length]);
    // Streams go through unbuffered both ways; a client that goes away closes the upstream request too.
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    kind: databaseUrl ? 'process' : 'in-process',
    url,
    servers,
    pids,
    route: (i) => {
      target = i;
      turn = undefined;
    },
    spread: () => (turn = 0),
    async stop() {
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
      await Promise.all(stops.map((s) => s()));
    },
  };
}

async function inProcessServer(h: Pick<Harness, 'studio'>): Promise<{ url: string; stop: () => Promise<void> }> {
  const ctx = h.studio.ctx;
  const tokens = createTokenService(ctx.db, await ensureKey(ctx.db, 'jwt_secret'), ctx.settings.accessTokenTtl, ctx.settings.refreshTokenTtl);
  const app = await buildApp({ ...ctx, tokens });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, stop: () => app.close() };
}

async function serverProcess(databaseUrl: string, env: Record<string, string>, nodeFlags: string[]): Promise<{ url: string; stop: () => Promise<void>; pid: number }> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, WEFT_PORT: '0', WEFT_HOST: '127.0.0.1', WEFT_CLIENT_DIR: '/nonexistent', WEFT_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 150_000);
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
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  }).catch(async (e) => {
    await stop();
    throw e;
  });
  return { url, stop, pid: child.pid! };
}

/** One SSE frame as the wire carries it: the `id:` (the event's sequence number in its run) and the event. */
export interface WireFrame {
  id: number | undefined;
  event: { type: string; [k: string]: unknown };
}

/** Reads SSE frames, with their ids, from a fetch body as they arrive. */
export async function* readFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<WireFrame> {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = buf.indexOf('\n\n')) >= 0) {
      const lines = buf.slice(0, at).split('\n');
      buf = buf.slice(at + 2);
      const data = lines.find((l) => l.startsWith('data: '));
      if (!data) continue;
      const id = lines.find((l) => l.startsWith('id: '));
      yield { id: id === undefined ? undefined : Number(id.slice(4)), event: JSON.parse(data.slice(6)) };
    }
  }
}
