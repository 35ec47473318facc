/**
 * Overview benchmark (`npm run bench:overview`): prints figures, asserts nothing. Seeds 1,000,000
 * run records of one app (the worst case: every record in the app measured), spread over 180 days
 * and inserted in time order as a server writes them, 5,000 end users, half in 20,000
 * conversations, 5% failed, a fifth of them debug runs (left out of the overview); then times
 * GET /console/apps/{id}/overview for each period: the first call and the median of the next five.
 * A running server keeps the settled days in the background (services/overview-keeper.ts: after the
 * start and every 10 minutes); the seed is written behind its back, so the bench times one such pass
 * (UTC and the zones asked before) and then the calls, which read the kept days and compute today.
 * BENCH_NO_KEEPER=1 leaves the pass out: the first call of a period then computes the missing days.
 * On the embedded database by default; with DATABASE_URL on that PostgreSQL server. Every figure is
 * printed beside `uptime` (the machine's load).
 */
import { execSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { LOG_PERIODS } from '../../schemas/run-api';
import { Settings } from '../../src/server/settings';
import { createStudio } from '../../src/server/server';
import { keepOverviewDays } from '../../src/server/services/overview-keeper';
import { serverDatabaseUrl } from '../api/harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 1_000_000);
const CHUNK = 100_000;
const load = () => execSync('uptime').toString().trim().replace(/^.*load/, 'load');
const fmt = (n: number) => n.toFixed(1).padStart(9);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const made = process.env.DATABASE_URL ? await serverDatabaseUrl(process.env.DATABASE_URL) : undefined;
const password = 'Bench12345';
const studio = await createStudio(Settings.parse({ adminUser: 'admin', adminPassword: password, clientDir: '/nonexistent', logLevel: 'silent', databaseUrl: made?.url }), { inMemory: true });
try {
  const inj = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await studio.app.inject({ method: method as never, url, payload: body as never, headers });
    const json = r.json() as { code: number; data: any; msg: string };
    if (json.code !== 0) throw new Error(`${url}: ${json.code} ${json.msg}`);
    return json.data;
  };
  const login = await inj('POST', '/api/v1/console/base/login', { tenantId: DEFAULT_TENANT_ID, username: 'admin', password });
  const auth = { authorization: `Bearer ${login.access_token}` };
  const ws = await inj('POST', '/api/v1/console/workspaces', { name: 'Bench' }, auth);
  const h = { ...auth, 'x-workspace-id': ws.id };
  const app = await inj('POST', '/api/v1/console/apps', { name: 'Busy', description: 'x', type: 'chatflow', icon: { icon: 'bot' } }, h);
  const db = studio.ctx.db;

  const t0 = performance.now();
  await db.execute(sql`INSERT INTO conversations (id, tenant_id, workspace_id, app_id, source, name, created_by, created_at, updated_at)
    SELECT md5('c' || i)::uuid, ${DEFAULT_TENANT_ID}::uuid, ${ws.id}::uuid, ${app.id}::uuid, 'api', 'c', md5('u' || (i % 5000))::uuid,
           now() - (i % 180) * interval '1 day', now() - (i % 180) * interval '1 day'
    FROM generate_series(1, 20000) AS g(i)`);
  for (let done = 0; done < RUNS; done += CHUNK) {
    const n = Math.min(CHUNK, RUNS - done);
    await db.execute(sql`INSERT INTO runs (id, tenant_id, workspace_id, app_id, mode, source, status, elapsed_ms, total_tokens, created_by, conversation_id, created_at, finished_at)
      SELECT gen_random_uuid(), ${DEFAULT_TENANT_ID}::uuid, ${ws.id}::uuid, ${app.id}::uuid, 'chatflow',
             (ARRAY['api', 'portal', 'mcp', 'draft'])[1 + (random() * 3.2)::int % 4],
             CASE WHEN random() < 0.05 THEN 'failed' ELSE 'succeeded' END,
             random() * 2000, (random() * 500)::int, md5('u' || (random() * 4999)::int)::uuid,
             CASE WHEN random() < 0.5 THEN md5('c' || (1 + (random() * 19999)::int))::uuid END,
             t, t
      FROM (SELECT now() - interval '180 days' + ((${done} + i + random()) / ${RUNS}) * interval '180 days' AS t FROM generate_series(0, ${n - 1}) AS g(i)) AS s`);
  }
  const seeded = performance.now() - t0;
  const t1 = performance.now();
  // A server's autovacuum keeps the visibility map current (index-only scans); PGlite runs none.
  await db.execute(sql`VACUUM ANALYZE runs`);
  await db.execute(sql`VACUUM ANALYZE conversations`);
  console.log(`seeded ${RUNS.toLocaleString('en')} runs of one app in ${(seeded / 1000).toFixed(0)} s, vacuum ${((performance.now() - t1) / 1000).toFixed(0)} s (${studio.database.kind}) | ${load()}`);

  if (!process.env.BENCH_NO_KEEPER) {
    // As if Asia/Shanghai had been asked before (a zone's first ever call computes its days).
    await inj('GET', `/api/v1/console/apps/${app.id}/overview?period=today&tz=Asia%2FShanghai`, undefined, h);
    const t2 = performance.now();
    let days = 0;
    for (let n = -1; n !== 0; days += n) n = await keepOverviewDays(studio.ctx);
    console.log(`background keeper: ${days} days kept (UTC, Asia/Shanghai) in ${((performance.now() - t2) / 1000).toFixed(1)} s, off the requests' path | ${load()}`);
  }
  for (const tz of ['UTC', 'Asia/Shanghai']) {
    for (const period of LOG_PERIODS) {
      const url = `/api/v1/console/apps/${app.id}/overview?period=${period}&tz=${encodeURIComponent(tz)}`;
      let t = performance.now();
      const first = await inj('GET', url, undefined, h);
      const cold = performance.now() - t;
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) {
        t = performance.now();
        await inj('GET', url, undefined, h);
        warm.push(performance.now() - t);
      }
      console.log(
        `overview ${period.padEnd(5)} ${tz.padEnd(13)} runs ${String(first.totals.runs).padStart(8)} | first ${fmt(cold)} ms | then median ${fmt(median(warm))} ms (target <= 200 ms) | ${load()}`,
      );
    }
  }
} finally {
  await studio.close();
  await made?.drop();
}
