import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { appOverviewDays, conversations, runs } from '../../src/server/db/schema';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { useStudio } from './harness';
import { chatFlow, publishedApp, type Owner } from './public-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The overview (issue 22) on a small seed of runs and conversations whose figures are known exactly:
// per day in a time zone (Asia/Shanghai, UTC+8, no daylight saving), each period's totals (distinct
// users and p95 over the whole period, not added up), debug runs left out, settled days kept.

const h = useStudio();
let f: Fixture;
let appId = '';
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });
const OVERVIEW = (id: string) => `/api/v1/console/apps/${id}/overview`;
const TZ = 'Asia/Shanghai';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const users = Object.fromEntries(['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((k) => [k, randomUUID()]));

/** Midnight today in Shanghai, and YYYY-MM-DD of a Shanghai day `n` days back. */
function shanghai(now = Date.now()) {
  const local = new Date(now + 8 * HOUR);
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - 8 * HOUR;
  const date = (n: number) => new Date(midnight - n * DAY + 8 * HOUR).toISOString().slice(0, 10);
  return { midnight, date };
}

type Seed = { day: number; at: number; user: string; source: string; status: string; ms: number; tokens: number; conv?: string };
let seeds: Seed[] = [];
let t0 = 0;

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'overview');
  appId = await publishedApp(h, owner(), 'Measured', chatFlow('Bot'));
  const { midnight } = shanghai();
  t0 = midnight;
  const at = (day: number, hours: number) => midnight - day * DAY + hours * HOUR;
  const conv = async (id: string, when: number, source: string) =>
    h.studio.ctx.db.insert(conversations).values({ id, tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId, source: source as 'api', createdBy: users.A!, createdAt: new Date(when), updatedAt: new Date(when) });
  const c1 = randomUUID();
  const c2 = randomUUID();
  const c3 = randomUUID();
  await conv(c1, at(1, 10), 'api');
  await conv(c2, at(1, 11), 'portal');
  await conv(randomUUID(), at(1, 12), 'draft');
  await conv(c3, midnight + 1000, 'api');
  seeds = [
    { day: 1, at: at(1, 10), user: 'A', source: 'api', status: 'succeeded', ms: 100, tokens: 10, conv: c1 },
    { day: 1, at: at(1, 11), user: 'B', source: 'portal', status: 'failed', ms: 300, tokens: 0, conv: c2 },
    { day: 1, at: at(1, 12), user: 'A', source: 'mcp', status: 'succeeded', ms: 200, tokens: 5 },
    { day: 1, at: at(1, 13), user: 'C', source: 'draft', status: 'succeeded', ms: 9999, tokens: 999 },
    { day: 0, at: midnight + 1000, user: 'B', source: 'api', status: 'succeeded', ms: 400, tokens: 7, conv: c3 },
    { day: 0, at: Math.max(Date.now() - 1000, midnight + 2000), user: 'E', source: 'api', status: 'running', ms: 0, tokens: 0 },
    { day: 3, at: at(3, 9), user: 'A', source: 'tool', status: 'succeeded', ms: 1000, tokens: 20 },
    { day: 10, at: at(10, 9), user: 'F', source: 'api', status: 'failed', ms: 10, tokens: 0 },
    { day: 100, at: at(100, 9), user: 'G', source: 'api', status: 'succeeded', ms: 5, tokens: 0 },
  ];
  await h.studio.ctx.db.insert(runs).values(
    seeds.map((s) => ({
      id: randomUUID(),
      tenantId: DEFAULT_TENANT_ID,
      workspaceId: f.wsA,
      appId,
      mode: 'chatflow',
      source: s.source as 'api',
      status: s.status as 'succeeded',
      elapsedMs: s.ms,
      totalTokens: s.tokens,
      createdBy: users[s.user]!,
      conversationId: s.conv ?? null,
      createdAt: new Date(s.at),
    })),
  );
});

const day = (date: string, v: Partial<Record<string, number>> = {}) => ({
  date,
  runs: 0,
  conversations: 0,
  messages: 0,
  active_users: 0,
  tokens: 0,
  avg_latency_ms: 0,
  p95_latency_ms: 0,
  error_rate: 0,
  ...v,
});

describe('GET /console/apps/{app_id}/overview', () => {
  it('7 days in Asia/Shanghai: each day, and totals with distinct users and the p95 of the whole period', async () => {
    const { date } = shanghai();
    const o = expectOk(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period: '7d', tz: TZ } }));
    expect(o.period).toBe('7d');
    expect(o.days).toHaveLength(7);
    expect(o.days[0].date).toBe(date(6));
    expect(o.days.find((d: { date: string }) => d.date === date(3))).toEqual(day(date(3), { runs: 1, active_users: 1, tokens: 20, avg_latency_ms: 1000, p95_latency_ms: 1000 }));
    const d1 = o.days.find((d: { date: string }) => d.date === date(1));
    expect(d1).toEqual(day(date(1), { runs: 3, conversations: 2, messages: 2, active_users: 2, tokens: 15, avg_latency_ms: 200, p95_latency_ms: expect.closeTo(290, 9), error_rate: expect.closeTo(1 / 3, 9) }));
    expect(o.days[6]).toEqual(day(date(0), { runs: 2, conversations: 1, messages: 1, active_users: 2, tokens: 7, avg_latency_ms: 400, p95_latency_ms: 400 }));
    expect(o.days.find((d: { date: string }) => d.date === date(2))).toEqual(day(date(2)));
    expect(o.totals).toEqual({
      runs: 6,
      conversations: 3,
      messages: 3,
      active_users: 3,
      tokens: 42,
      avg_latency_ms: 400,
      // percentile_cont(0.95) of 100, 200, 300, 400, 1000: position 3.8, 400 + 0.8 × 600.
      p95_latency_ms: expect.closeTo(880, 9),
      error_rate: expect.closeTo(1 / 6, 9),
    });
    // Again, with the settled days now kept: the totals' distinct users and p95 come from the kept
    // days' end users and the latency index instead of the computed range, and must not differ.
    const again = expectOk(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period: '7d', tz: TZ } }));
    if (Date.now() - t0 > 30 * 60_000) expect(await h.studio.ctx.db.select().from(appOverviewDays).where(eq(appOverviewDays.appId, appId))).not.toHaveLength(0);
    expect(again).toEqual({ ...o, totals: { ...o.totals, p95_latency_ms: expect.closeTo(880, 9), error_rate: expect.closeTo(1 / 6, 9) } });
  });

  it('today, 30 days and all time', async () => {
    const { date } = shanghai();
    const today = expectOk(await h.call('GET', OVERVIEW(appId), { token: f.u.member.token, workspaceId: f.wsA, query: { period: 'today', tz: TZ } }));
    expect(today.days).toEqual([day(date(0), { runs: 2, conversations: 1, messages: 1, active_users: 2, tokens: 7, avg_latency_ms: 400, p95_latency_ms: 400 })]);
    expect(today.totals).toMatchObject({ runs: 2, active_users: 2, p95_latency_ms: 400 });
    const month = expectOk(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period: '30d', tz: TZ } }));
    expect(month.days).toHaveLength(30);
    // 10, 100, 200, 300, 400, 1000: position 4.75.
    expect(month.totals).toMatchObject({ runs: 7, active_users: 4, tokens: 42, error_rate: 2 / 7, p95_latency_ms: expect.closeTo(850, 9), avg_latency_ms: 2010 / 6 });
    const all = expectOk(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period: 'all', tz: TZ } }));
    expect(all.days).toHaveLength(101);
    expect(all.days[0]).toEqual(day(date(100), { runs: 1, active_users: 1, avg_latency_ms: 5, p95_latency_ms: 5 }));
    // 5, 10, 100, 200, 300, 400, 1000: position 5.7.
    expect(all.totals).toMatchObject({ runs: 8, active_users: 5, conversations: 3, messages: 3, p95_latency_ms: expect.closeTo(820, 9) });
  });

  it('cuts days in the asked time zone (UTC by default)', async () => {
    const utcToday = new Date().toISOString().slice(0, 10);
    const expected = seeds.filter((s) => s.source !== 'draft' && new Date(s.at).toISOString().slice(0, 10) === utcToday).length;
    const o = expectOk(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period: 'today' } }));
    expect(o.days.map((d: { date: string }) => d.date)).toEqual([utcToday]);
    expect(o.totals.runs).toBe(expected);
  });

  it('keeps settled days and reads them back (today is always computed)', async () => {
    const { date } = shanghai();
    const kept = await h.studio.ctx.db.select().from(appOverviewDays).where(and(eq(appOverviewDays.appId, appId), eq(appOverviewDays.tz, TZ)));
    // Days that ended more than 30 minutes ago are kept: all but today (and yesterday just after midnight).
    expect(kept.some((k) => k.day === date(0))).toBe(false);
    const yesterday = kept.find((k) => k.day === date(1));
    if (Date.now() - t0 > 30 * 60_000) {
      expect(yesterday).toMatchObject({ runs: 3, conversations: 2, messages: 2, activeUsers: 2, tokens: 15, finished: 3, latencySumMs: 600, failed: 1 });
      await h.studio.ctx.db.execute(sql`update app_overview_days set runs = 33 where app_id = ${appId}::uuid and tz = ${TZ} and day = ${date(1)}::date`);
      const o = expectOk(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period: '7d', tz: TZ } }));
      expect(o.days.find((d: { date: string }) => d.date === date(1)).runs).toBe(33);
      await h.studio.ctx.db.execute(sql`update app_overview_days set runs = 3 where app_id = ${appId}::uuid and tz = ${TZ} and day = ${date(1)}::date`);
    }
  });

  it('is for members of the app’s space; a bad period or time zone is refused', async () => {
    expectCode(await h.call('GET', OVERVIEW(appId), { token: f.u.outsider.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period: '8d' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { tz: 'Mars/Olympus' } }), 400, 'VALIDATION-1000');
    const empty = await publishedApp(h, owner(), 'Unused', chatFlow('Bot'));
    const o = expectOk(await h.call('GET', OVERVIEW(empty), { ...owner(), query: { period: 'all' } }));
    expect(o.days).toHaveLength(1);
    expect(o.totals).toEqual({ runs: 0, conversations: 0, messages: 0, active_users: 0, tokens: 0, avg_latency_ms: 0, p95_latency_ms: 0, error_rate: 0 });
  });
});
