import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { appEndUsers, appOverviewDays, conversations, runs } from '../../src/server/db/schema';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { DAYS_PER_STATEMENT, keepOverviewDays } from '../../src/server/services/overview-keeper';
import { useStudio } from './harness';
import { chatFlow, publishedApp, type Owner } from './public-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The overview's settled days kept in the background (issue 22: the first call of a period must
// not compute the whole history): the kept days give exactly the answers the request computes by
// itself, in UTC and in a zone asked before (a half-hour one), and a pass is bounded.

const h = useStudio();
let f: Fixture;
let appId = '';
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });
const OVERVIEW = (id: string) => `/api/v1/console/apps/${id}/overview`;
const DAY = 86_400_000;
const ZONES = ['UTC', 'Asia/Kolkata'];
const PERIODS = ['today', '7d', '30d', 'all'];

/** The answer with its floats rounded (the p95 of a period is read two ways, equal to 1e-9). */
const rounded = (o: unknown): unknown => JSON.parse(JSON.stringify(o, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v)));

async function answers(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const tz of ZONES) {
    for (const period of PERIODS) out[`${tz} ${period}`] = rounded(expectOk(await h.call('GET', OVERVIEW(appId), { ...owner(), query: { period, tz } })));
  }
  return out;
}

const keptRows = async (tz: string) =>
  h.studio.ctx.db
    .select()
    .from(appOverviewDays)
    .where(and(eq(appOverviewDays.appId, appId), eq(appOverviewDays.tz, tz)));

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'overview-keeper');
  appId = await publishedApp(h, owner(), 'Kept', chatFlow('Bot'));
  const users = Array.from({ length: 6 }, () => randomUUID());
  const convs = Array.from({ length: 5 }, () => randomUUID());
  const now = Date.now();
  // 40 days back, every 7 hours (days cut differently in UTC and UTC+5:30), a few sources and outcomes.
  const at = Array.from({ length: (40 * 24) / 7 }, (_, i) => now - 40 * DAY + i * 7 * 3_600_000 + 1_000);
  await h.studio.ctx.db.insert(conversations).values(
    convs.map((id, i) => ({ id, tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId, source: 'api' as const, createdBy: users[i]!, createdAt: new Date(at[i * 20]!), updatedAt: new Date(at[i * 20]!) })),
  );
  await h.studio.ctx.db.insert(runs).values(
    at.map((t, i) => ({
      id: randomUUID(),
      tenantId: DEFAULT_TENANT_ID,
      workspaceId: f.wsA,
      appId,
      mode: 'chatflow',
      source: (['api', 'portal', 'mcp', 'draft'] as const)[i % 4]!,
      status: i % 9 === 0 ? ('failed' as const) : ('succeeded' as const),
      elapsedMs: (i * 37) % 1000,
      totalTokens: i % 13,
      createdBy: users[i % users.length]!,
      conversationId: i % 3 === 0 ? convs[(i / 3) % convs.length]! : null,
      createdAt: new Date(t),
    })),
  );
});

describe('the overview keeper', () => {
  it('keeps the settled days of the zones asked before, and the answers stay exactly the same', async () => {
    // Computed by the requests themselves (they keep what they compute: forget it again).
    const computed = await answers();
    await h.studio.ctx.db.delete(appOverviewDays).where(eq(appOverviewDays.appId, appId));
    await h.studio.ctx.db.delete(appEndUsers).where(eq(appEndUsers.appId, appId));
    expect(await keptRows('UTC')).toHaveLength(0);

    // A bounded pass: one statement keeps at most a week of one app.
    const first = await keepOverviewDays(h.studio.ctx, 1);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(DAYS_PER_STATEMENT);
    // Then everything (other apps' days may be kept too).
    while ((await keepOverviewDays(h.studio.ctx)) > 0);
    for (const tz of ZONES) {
      const kept = await keptRows(tz);
      // 40 days back to yesterday (the first day may be a day earlier in UTC+5:30; yesterday
      // may not be settled just after midnight).
      expect(kept.length).toBeGreaterThanOrEqual(39);
      expect(kept.length).toBeLessThanOrEqual(41);
    }
    expect(await h.studio.ctx.db.select().from(appEndUsers).where(eq(appEndUsers.appId, appId))).toHaveLength(6);

    // Now the requests only read the kept days (and compute today): nothing is missing any more.
    const allKept = async () => (await h.studio.ctx.db.select().from(appOverviewDays).where(eq(appOverviewDays.appId, appId))).length;
    const before = await allKept();
    expect(await answers()).toEqual(computed);
    expect(await allKept()).toBe(before);
    expect(await keepOverviewDays(h.studio.ctx)).toBe(0);
  });
});
