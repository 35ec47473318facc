import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiRateCounters } from '../../src/server/db/schema';
import { rateLimiterOf } from '../../src/server/security/rate-limit';
import { useStudio } from './harness';
import { createKey, expectDifyError, publishedApp, sayFlow, v1, type Owner } from './public-kit';
import { startSecondServer, type SecondServer } from './second-server';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// Rate limits per API key (issue 22): a key's own limit or the server's default, 429 RATE-1000 with
// Retry-After (Dify's error shape; OpenAI's on its paths), other keys unaffected, and the count shared
// by every server process on the database.

const h = useStudio();
let f: Fixture;
let appId = '';
let second: SecondServer | undefined;
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });
const flush = () => rateLimiterOf(h.studio.ctx, () => undefined).flush();

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'ratelimit');
  appId = await publishedApp(h, owner(), 'Limited', sayFlow());
});
afterAll(async () => {
  await second?.stop();
});

function expectRetryAfter(r: { raw: { headers: Record<string, unknown> } }) {
  const after = Number(r.raw.headers['retry-after']);
  expect(after).toBeGreaterThanOrEqual(1);
  expect(after).toBeLessThanOrEqual(60);
}

describe('rate limits per key', () => {
  it('refuses the request past the key’s limit with 429, RATE-1000 and Retry-After; other keys go on', async () => {
    // Not across a minute's turn: the window is the clock's minute.
    const now = new Date();
    if (now.getSeconds() > 55) await new Promise((r) => setTimeout(r, (61 - now.getSeconds()) * 1000));
    const limited = await createKey(h, owner(), appId, { name: 'three', rate_limit_per_minute: 3 });
    const free = await createKey(h, owner(), appId, { name: 'free' });
    for (let i = 0; i < 3; i++) expect((await v1(h, limited.secret, 'GET', '/parameters')).status).toBe(200);
    const refused = await v1(h, limited.secret, 'POST', '/workflows/run', { body: { inputs: { word: 'x' }, user: 'u' } });
    expectDifyError(refused, 429, 'RATE-1000');
    expectRetryAfter(refused);
    const openai = await v1(h, limited.secret, 'GET', '/models');
    expect(openai.status).toBe(429);
    expect(openai.body).toMatchObject({ error: { type: 'rate_limit_error', code: 'RATE-1000' } });
    expectRetryAfter(openai);
    expect((await v1(h, free.secret, 'GET', '/parameters')).status).toBe(200);
    await flush();
    const [row] = await h.studio.ctx.db.select().from(apiRateCounters).where(eq(apiRateCounters.keyId, limited.id));
    expect(row!.count).toBe(3);
  });

  it('counts in memory on the embedded database, written in the background at most once a second; on a server at once', async () => {
    const k = await createKey(h, owner(), appId, { name: 'background', rate_limit_per_minute: 5 });
    const rows = () => h.studio.ctx.db.select({ count: apiRateCounters.count }).from(apiRateCounters).where(eq(apiRateCounters.keyId, k.id));
    expect((await v1(h, k.secret, 'GET', '/info')).status).toBe(200);
    // A wait, not a timing: a timer of a second never fires within 200 ms, however loaded the machine.
    await new Promise((r) => setTimeout(r, 200));
    // One process owns the embedded database and its count is exact in memory, so writing it every
    // 50 ms under load bought nothing but statements; other processes (a server) count in the table.
    expect(await rows()).toEqual(h.studio.ctx.bus.shared ? [{ count: 1 }] : []);
    await flush();
    expect(await rows()).toEqual([{ count: 1 }]);
  });

  it('uses the server’s default (WEFT_API_RATE_LIMIT) for a key without its own limit', async () => {
    const settings = h.studio.ctx.settings;
    const before = settings.apiRateLimit;
    settings.apiRateLimit = 2;
    try {
      const k = await createKey(h, owner(), appId, { name: 'default' });
      expect((await v1(h, k.secret, 'GET', '/info')).status).toBe(200);
      expect((await v1(h, k.secret, 'GET', '/info')).status).toBe(200);
      expectDifyError(await v1(h, k.secret, 'GET', '/info'), 429, 'RATE-1000');
    } finally {
      settings.apiRateLimit = before;
    }
  });

  it('counts a key’s requests across server processes on the same database', async () => {
    const now = new Date();
    if (now.getSeconds() > 50) await new Promise((r) => setTimeout(r, (61 - now.getSeconds()) * 1000));
    second = await startSecondServer(h);
    const k = await createKey(h, owner(), appId, { name: 'shared', rate_limit_per_minute: 4 });
    for (let i = 0; i < 2; i++) expect((await v1(h, k.secret, 'GET', '/info')).status).toBe(200);
    await flush();
    // The other process admits what is left of the minute's 4, then refuses: it counted this one's 2.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await second.call('GET', '/v1/info', { token: k.secret });
      statuses.push(r.status);
      if (r.status === 429) {
        expect(r.body).toMatchObject({ code: 'RATE-1000', status: 429 });
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // Its count reaches the database (and it learns the shared count) within a flush (50 ms).
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(statuses).toEqual([200, 200, 429]);
    // The embedded database's counts reach the table in the background (a second at most).
    await flush();
    const [row] = await h.studio.ctx.db.select().from(apiRateCounters).where(eq(apiRateCounters.keyId, k.id));
    expect(row!.count).toBe(4);
  });
});
