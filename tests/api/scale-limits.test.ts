import { execSync } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_FAKES, useStudio } from './harness';
import { configureProvider, createApp, flow, model, prompt, slowOpenAi, type SlowServer } from './runs-kit';
import { distribute, publish } from './portal-kit';
import { createKey, KEYS } from './public-kit';
import { readFrames, startCluster, type Cluster } from './scale-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Limits, caches and load across processes (issue 34): three servers on one database behind a
// loopback proxy (real server processes on a PostgreSQL server; three apps of this process on the
// embedded database). A key's rate limit holds in total, not per process; a change made through one
// process (an API key revoked, a model disabled, the outbound allow-list) is announced on its cache
// channel and then seen by the others; 200 chat streams at once spread over the three all complete.

const h = useStudio(LOOPBACK_FAKES);
let f: Fixture;
let slow: SlowServer;
let cluster: Cluster;
let appId = '';
let target: net.Server;
let port = 0;
const sockets = new Set<net.Socket>();

const CHUNKS = Array.from({ length: 8 }, (_, i) => `w${i} `);
const owner = () => ({ token: f.u.owner.token, workspaceId: f.wsA });

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'limits');
  slow = await slowOpenAi(CHUNKS, 20);
  await configureProvider(h, 'deepseek', slow.baseUrl);
  const doc = flow(
    [
      ['s', 'start'],
      ['llm', 'llm', { model: model('deepseek', 'deepseek-chat'), prompts: [prompt('user', '{{#sys.query#}}')] }],
      ['ans', 'answer', { answer: '{{#llm.text#}}' }],
    ],
    [
      ['s', 'llm'],
      ['llm', 'ans'],
    ],
    'chatflow',
  );
  appId = await createApp(h, f.u.member.token, f.wsA, 'Limits across processes', doc);
  await distribute(h, owner(), appId, 'current_project', (await publish(h, owner(), appId, '1.0.0')).id);
  // A port on a loopback address no list opens (the fake provider is on 127.0.0.1, which the harness
  // and the processes allow): a database connection check reaches it only once the stored list does.
  target = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined).end();
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.2', r));
  port = (target.address() as AddressInfo).port;
  // The processes may reach the fake model provider, nothing else on loopback.
  cluster = await startCluster(h, 3, { WEFT_OUTBOUND_ALLOW: new URL(slow.baseUrl).host });
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
  await slow?.close();
  for (const s of sockets) s.destroy();
  await new Promise((r) => target?.close(r));
});

/** A request to server `i` directly (not through the proxy). */
function at(i: number, method: string, url: string, opts: { token?: string; body?: unknown; workspace?: boolean } = {}) {
  return fetch(cluster.servers[i] + url, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.workspace ? { 'x-workspace-id': f.wsA } : {}),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
}

/** Not across a minute's turn: a key's window is the clock's minute. */
async function notNearMinuteEnd() {
  const s = new Date().getSeconds();
  if (s > 52) await new Promise((r) => setTimeout(r, (61 - s) * 1000));
}

/**
 * Listens, before a change, for its notice on the cache channel `channel` (../../src/server/cache-notices.ts),
 * on the servers' PostgreSQL server; answers what waits for it. The embedded database's servers are apps of
 * this process sharing its caches: nothing crosses processes there, and the change is forgotten before
 * its request answers.
 */
async function noticeOn(channel: string): Promise<() => Promise<void>> {
  const url = h.studio.ctx.settings.databaseUrl;
  if (cluster.kind === 'in-process' || !url) return async () => {};
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  const heard = new Promise<void>((resolve) => client.on('notification', (n) => n.channel === channel && resolve()));
  await client.query(`LISTEN ${channel}`);
  return async () => {
    await heard;
    await client.end();
  };
}

/**
 * After `notice` was heard (the change was announced to every process), polls `seen` on servers 1 and 2
 * until both show the change; in-process (shared caches) they must at once. No clock: the figure printed
 * is how long after the change it took.
 */
async function seenOnOthers(seen: (i: number) => Promise<boolean>, notice: () => Promise<void> = async () => {}): Promise<number> {
  const started = performance.now();
  await notice();
  const pending = new Set([1, 2]);
  for (;;) {
    for (const i of [...pending]) if (await seen(i)) pending.delete(i);
    if (!pending.size) return performance.now() - started;
    expect(cluster.kind, `not seen on server(s) ${[...pending].join(', ')} sharing this process's caches`).toBe('process');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('limits across processes', () => {
  it('a key limited to 9 a minute gets 9 requests in total over three processes, not 27', async () => {
    await notNearMinuteEnd();
    const key = await createKey(h, owner(), appId, { name: 'nine', rate_limit_per_minute: 9 });
    // 27 at once, 9 to each process.
    const statuses = await Promise.all(Array.from({ length: 27 }, (_, n) => at(n % 3, 'GET', '/v1/info', { token: key.secret }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(9);
    expect(statuses.filter((s) => s === 429).length).toBe(18);
    // Once spent, no process admits more this minute.
    for (const i of [0, 1, 2]) expect((await at(i, 'GET', '/v1/info', { token: key.secret })).status).toBe(429);
  });
});

describe('caches across processes', () => {
  it('a key revoked through A is announced, then refused by B and C', async () => {
    const key = await createKey(h, owner(), appId, { name: 'revoked soon' });
    // B and C have the key verified in their caches.
    for (const i of [1, 2]) expect((await at(i, 'GET', '/v1/info', { token: key.secret })).status).toBe(200);
    const notice = await noticeOn('weft_cache_api_keys');
    expect((await at(0, 'DELETE', `${KEYS(appId)}/${key.id}`, { token: f.u.owner.token, workspace: true })).status).toBe(200);
    const took = await seenOnOthers(async (i) => (await at(i, 'GET', '/v1/info', { token: key.secret })).status === 401, notice);
    console.log(`[scale-limits] revoked key refused on B and C after ${took.toFixed(0)} ms`);
  });

  it('a model disabled through A is announced, then refused by B and C, and usable again once enabled', async () => {
    const key = await createKey(h, owner(), appId, { name: 'model switch' });
    const ask = async (i: number) => {
      const r = await at(i, 'POST', '/v1/chat-messages', { token: key.secret, body: { query: 'hi', inputs: {}, user: 'u', response_mode: 'blocking' } });
      const body = (await r.json()) as { answer?: string };
      return r.status === 200 && body.answer === CHUNKS.join('');
    };
    for (const i of [1, 2]) expect(await ask(i)).toBe(true);
    const toggle = (action: string) =>
      at(0, 'PUT', `/api/v1/admin/models/model-providers/deepseek/models/${action}`, { token: h.adminToken, body: { model: 'deepseek-chat', model_type: 'llm' } });
    const notice = await noticeOn('weft_cache_models');
    expect((await toggle('disable')).status).toBe(200);
    try {
      const took = await seenOnOthers(async (i) => !(await ask(i)), notice);
      console.log(`[scale-limits] disabled model refused on B and C after ${took.toFixed(0)} ms`);
    } finally {
      expect((await toggle('enable')).status).toBe(200);
    }
    await seenOnOthers(ask);
  });

  it('the outbound allow-list changed through A is announced, then opens the destination on B and C', async () => {
    const policy = '/api/v1/admin/security/network-policy';
    const check = async (i: number) => {
      const r = await at(i, 'POST', '/api/v1/console/databases/check-connection', {
        token: f.u.owner.token,
        workspace: true,
        body: { type: 'postgresql', host: '127.0.0.2', port, account: 'a', password: 'b', database: '', sid: '' },
      });
      return { status: r.status, body: (await r.json()) as { code: string; data: { status?: string } } };
    };
    // Refused by the policy on B and C (which now hold the stored lists).
    for (const i of [1, 2]) expect(await check(i)).toMatchObject({ status: 400, body: { code: 'NETWORK-1000' } });
    expectOk(await h.call('GET', policy, { token: h.adminToken }));
    const put = (allow: string[]) => at(0, 'PUT', policy, { token: h.adminToken, body: { allow, mcp_stdio_commands: [] } });
    const notice = await noticeOn('weft_cache_network_policy');
    expect((await put([`127.0.0.2:${port}`])).status).toBe(200);
    try {
      // Allowed: the check now connects (and fails to speak PostgreSQL to a socket that closes).
      const took = await seenOnOthers(async (i) => (await check(i)).status === 200, notice);
      console.log(`[scale-limits] allow-list change seen on B and C after ${took.toFixed(0)} ms`);
    } finally {
      expect((await put([])).status).toBe(200);
    }
    await seenOnOthers(async (i) => (await check(i)).body.code === 'NETWORK-1000');
  });
});

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

describe('load across processes', () => {
  it('200 chat streams at once, spread over the three: every one complete, no error', async () => {
    const N = 200;
    cluster.spread();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: N }, async () => {
        const t0 = performance.now();
        try {
          const res = await fetch(`${cluster.url}/api/v1/web/portal/${appId}/chat-messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${f.u.member.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query: 'a story' }),
          });
          if (res.status !== 200) return { ok: false, error: `status ${res.status}: ${await res.text()}` };
          let text = '';
          let first: number | undefined;
          let last = '';
          for await (const fr of readFrames(res.body!)) {
            if (fr.event.type === 'answer_chunk') {
              first ??= performance.now() - t0;
              text += fr.event.text as string;
            }
            last = fr.event.type;
          }
          const ok = text === CHUNKS.join('') && last === 'message_end';
          return { ok, first, total: performance.now() - t0, error: ok ? undefined : `ended with ${last}, said ${JSON.stringify(text)}` };
        } catch (e) {
          return { ok: false, error: String(e) };
        }
      }),
    );
    const wall = performance.now() - started;
    cluster.route(0);
    const errors = results.filter((r) => !r.ok).map((r) => r.error);
    const firsts = results.map((r) => r.first ?? Infinity).sort((a, b) => a - b);
    const totals = results.map((r) => r.total ?? Infinity).sort((a, b) => a - b);
    console.log(
      `[scale-limits] ${N} chat streams over ${cluster.servers.length} ${cluster.kind === 'process' ? 'processes' : 'in-process servers'}: ` +
        `${N - errors.length} complete, ${errors.length} errors, wall ${wall.toFixed(0)} ms; ` +
        `first token p50 ${pct(firsts, 50).toFixed(0)} / p95 ${pct(firsts, 95).toFixed(0)} / max ${firsts.at(-1)!.toFixed(0)} ms; ` +
        `stream p50 ${pct(totals, 50).toFixed(0)} / p95 ${pct(totals, 95).toFixed(0)} ms (provider alone: ${CHUNKS.length} chunks × 20 ms); ` +
        `uptime: ${execSync('uptime').toString().trim()}`,
    );
    expect(errors).toEqual([]);
  }, 60_000);
});
