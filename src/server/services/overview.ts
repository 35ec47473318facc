import { sql } from 'drizzle-orm';
import type { Overview, OverviewDay, OverviewQuery } from '../../../schemas/app-api';
import type { ServerContext } from '../context';
import { badRequest } from '../errors';
import { rowsOf } from '../knowledge/queue';
import type { AppRef } from '../runs/app-flow';

/**
 * An app's overview (schemas/app-api.ts): per day over a period, in a time zone, the runs, messages,
 * new conversations, active end users, tokens, average and p95 latency and error rate of its use —
 * every source but the editor's debug runs (`draft`, `single-node`), as Dify's overview leaves out
 * the debugger. Aggregated in SQL (percentile_cont for the p95).
 *
 * Over a million runs a period's aggregate takes seconds, so a day that ended more than
 * SETTLED_MS ago (no run of it can still change) is computed once and kept (`app_overview_days`);
 * the days after it are computed live. The period's totals add the days up, except two figures that
 * do not add: its active users (`app_end_users`: each user's last run in a kept day, plus the live
 * days' users) and its p95 (read from the slow end of the `runs_app_elapsed` index, skipping 5% of
 * the period's runs: the same value percentile_cont gives, without sorting them all).
 */

/** Longer than a run may last (the engine's limit is 20 minutes). */
export const SETTLED_MS = 30 * 60_000;
const PERIOD_DAYS = { today: 1, '7d': 7, '30d': 30, '90d': 90, '180d': 180 } as const;
const P = 0.95;
/** The key of computeDays' figures of its whole range. */
const TOTAL = 'total';

/** Runs that count: the app's, but not the editor's debug runs. */
export const counted = (appId: string) => sql`r.app_id = ${appId}::uuid AND r.source NOT IN ('draft', 'single-node')`;

export type DayFigures = Omit<OverviewDay, 'avg_latency_ms' | 'error_rate'> & { finished: number; latency_sum_ms: number; failed: number };

function validZone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    throw badRequest(`Unknown time zone '${tz}'`, [{ path: 'querystring/tz', message: 'an IANA time zone, e.g. Asia/Shanghai' }]);
  }
}

const num = (v: unknown) => Number(v ?? 0);

function finish(d: DayFigures): OverviewDay {
  return {
    date: d.date,
    runs: d.runs,
    conversations: d.conversations,
    messages: d.messages,
    active_users: d.active_users,
    tokens: d.tokens,
    avg_latency_ms: d.finished ? d.latency_sum_ms / d.finished : 0,
    p95_latency_ms: d.p95_latency_ms,
    error_rate: d.runs ? d.failed / d.runs : 0,
  };
}

/** Days of the period in the zone, oldest first, with where each starts and ends. */
async function calendar(ctx: ServerContext, app: AppRef, q: OverviewQuery, tz: string) {
  const first =
    q.period === 'all'
      ? sql`coalesce((SELECT (min(r.created_at) AT TIME ZONE ${tz})::date FROM runs r WHERE ${counted(app.id)}), (now() AT TIME ZONE ${tz})::date)`
      : sql`(now() AT TIME ZONE ${tz})::date - ${PERIOD_DAYS[q.period] - 1}::int`;
  const rows = rowsOf<{ day: string; start: string | Date; settled: boolean }>(
    await ctx.db.execute(sql`
      WITH b AS (SELECT ${first} AS f, (now() AT TIME ZONE ${tz})::date AS t), days AS (SELECT b.f + g.n AS d FROM b, generate_series(0, b.t - b.f) AS g(n))
      SELECT to_char(d, 'YYYY-MM-DD') AS day, (d::timestamp AT TIME ZONE ${tz}) AS start,
             ((d + 1)::timestamp AT TIME ZONE ${tz}) <= now() - make_interval(secs => ${SETTLED_MS / 1000}) AS settled
      FROM days ORDER BY d`),
  );
  return rows.map((r) => ({ day: r.day, start: new Date(r.start), settled: r.settled === true || (r.settled as unknown) === 't' }));
}

/** The kept days of the period. */
async function keptDays(ctx: ServerContext, appId: string, tz: string, from: string): Promise<Map<string, DayFigures>> {
  const rows = rowsOf<Record<string, unknown>>(
    await ctx.db.execute(sql`SELECT to_char(day, 'YYYY-MM-DD') AS date, runs, conversations, messages, active_users, tokens, finished, latency_sum_ms, p95_latency_ms, failed
      FROM app_overview_days WHERE app_id = ${appId}::uuid AND tz = ${tz} AND day >= ${from}::date`),
  );
  return new Map(rows.map((r) => [String(r.date), figures(r)]));
}

export function figures(r: Record<string, unknown>): DayFigures {
  return {
    date: String(r.date),
    runs: num(r.runs),
    conversations: num(r.conversations),
    messages: num(r.messages),
    active_users: num(r.active_users),
    tokens: num(r.tokens),
    finished: num(r.finished),
    latency_sum_ms: num(r.latency_sum_ms),
    p95_latency_ms: num(r.p95_latency_ms),
    failed: num(r.failed),
  };
}

/**
 * Every day from `from` on (before `until` if given), computed from the runs and conversations
 * (days without any are absent), and with `withTotal` the whole range's figures (ROLLUP: its
 * distinct users and p95 too, under the key `total`; it sorts the whole range, so only when needed).
 */
export async function computeDays(ctx: ServerContext, appId: string, tz: string, from: Date, opts: { until?: Date; withTotal?: boolean } = {}): Promise<Map<string, DayFigures>> {
  const before = (col: string) => (opts.until ? sql` AND ${sql.raw(col)} < ${opts.until.toISOString()}::timestamptz` : sql``);
  const runRows = rowsOf<Record<string, unknown>>(
    await ctx.db.execute(sql`
      SELECT to_char((r.created_at AT TIME ZONE ${tz})::date, 'YYYY-MM-DD') AS date,
        count(*) AS runs, count(r.conversation_id) AS messages, count(DISTINCT r.created_by) AS active_users,
        coalesce(sum(r.total_tokens), 0) AS tokens,
        count(*) FILTER (WHERE r.status <> 'running') AS finished,
        coalesce(sum(r.elapsed_ms) FILTER (WHERE r.status <> 'running'), 0) AS latency_sum_ms,
        coalesce(percentile_cont(${P}) WITHIN GROUP (ORDER BY r.elapsed_ms) FILTER (WHERE r.status <> 'running'), 0) AS p95_latency_ms,
        count(*) FILTER (WHERE r.status = 'failed') AS failed
      FROM runs r WHERE ${counted(appId)} AND r.created_at >= ${from.toISOString()}::timestamptz${before('r.created_at')}
      GROUP BY ${opts.withTotal ? sql`ROLLUP (1)` : sql`1`}`),
  );
  const convRows = rowsOf<{ date: string; n: number }>(
    await ctx.db.execute(sql`SELECT to_char((c.created_at AT TIME ZONE ${tz})::date, 'YYYY-MM-DD') AS date, count(*) AS n
      FROM conversations c WHERE c.app_id = ${appId}::uuid AND c.source <> 'draft' AND c.created_at >= ${from.toISOString()}::timestamptz${before('c.created_at')} GROUP BY 1`),
  );
  const out = new Map<string, DayFigures>();
  for (const r of runRows) out.set(r.date === null ? TOTAL : String(r.date), figures({ ...r, conversations: 0 }));
  for (const c of convRows) {
    const d = out.get(c.date) ?? figures({ date: c.date });
    d.conversations = num(c.n);
    out.set(c.date, d);
  }
  return out;
}

/** Keeps settled days (and each user's last run in them, for the periods' active users). */
export async function keep(ctx: ServerContext, appId: string, tz: string, days: DayFigures[], from: Date, until: Date): Promise<void> {
  if (days.length) {
    const values = sql.join(
      days.map(
        (d) =>
          sql`(${appId}::uuid, ${tz}, ${d.date}::date, ${d.runs}, ${d.conversations}, ${d.messages}, ${d.active_users}, ${d.tokens}, ${d.finished}, ${d.latency_sum_ms}, ${d.p95_latency_ms}, ${d.failed})`,
      ),
      sql`, `,
    );
    await ctx.db.execute(sql`INSERT INTO app_overview_days (app_id, tz, day, runs, conversations, messages, active_users, tokens, finished, latency_sum_ms, p95_latency_ms, failed)
      VALUES ${values} ON CONFLICT DO NOTHING`);
  }
  await ctx.db.execute(sql`INSERT INTO app_end_users (app_id, user_id, last_seen)
    SELECT ${appId}::uuid, r.created_by, max(r.created_at) FROM runs r
    WHERE ${counted(appId)} AND r.created_at >= ${from.toISOString()}::timestamptz AND r.created_at < ${until.toISOString()}::timestamptz
    GROUP BY r.created_by
    ON CONFLICT (app_id, user_id) DO UPDATE SET last_seen = greatest(app_end_users.last_seen, excluded.last_seen)`);
}

/** Distinct end users since `since`: those of the kept days (their last run) and of the live days. */
async function activeUsers(ctx: ServerContext, appId: string, since: Date, liveFrom: Date): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`
      WITH live AS (SELECT DISTINCT r.created_by FROM runs r WHERE ${counted(appId)} AND r.created_at >= ${liveFrom.toISOString()}::timestamptz)
      SELECT (SELECT count(*) FROM live) + (SELECT count(*) FROM app_end_users e
        WHERE e.app_id = ${appId}::uuid AND e.last_seen >= ${since.toISOString()}::timestamptz
          AND NOT EXISTS (SELECT 1 FROM live l WHERE l.created_by = e.user_id)) AS n`),
  );
  return num(row?.n);
}

/**
 * percentile_cont(0.95) of the latencies of the `n` finished runs since `since`: the two values
 * around its position, read from the slowest end of the index (5% of the runs skipped, not all sorted).
 */
async function periodP95(ctx: ServerContext, appId: string, since: Date, n: number): Promise<number> {
  if (n <= 0) return 0;
  const pos = P * (n - 1);
  const hi = Math.ceil(pos);
  const lo = Math.floor(pos);
  const rows = rowsOf<{ v: number }>(
    await ctx.db.execute(sql`SELECT r.elapsed_ms AS v FROM runs r
      WHERE ${counted(appId)} AND r.created_at >= ${since.toISOString()}::timestamptz AND r.status <> 'running'
      ORDER BY r.elapsed_ms DESC OFFSET ${n - 1 - hi} LIMIT 2`),
  );
  const vHi = num(rows[0]?.v);
  const vLo = hi === lo ? vHi : num(rows[1]?.v ?? rows[0]?.v);
  return vLo + (pos - lo) * (vHi - vLo);
}

/** Zones asked since the start: the background keeper (overview-keeper.ts) keeps their days too. */
export const askedZones = new Set<string>();

export async function appOverview(ctx: ServerContext, app: AppRef, q: OverviewQuery): Promise<Overview> {
  const tz = validZone(q.tz ?? 'UTC');
  askedZones.add(tz);
  const days = await calendar(ctx, app, q, tz);
  const since = days[0]!.start;
  const kept = await keptDays(ctx, app.id, tz, days[0]!.day);
  // From the first day not kept on, everything is computed (usually only today).
  const firstMissing = days.find((d) => !(d.settled && kept.has(d.day))) ?? days[days.length - 1]!;
  // Nothing of the period kept: the computed range is the period, and its totals come with it.
  const computed = await computeDays(ctx, app.id, tz, firstMissing.start, { withTotal: firstMissing.start <= since });
  const settledNew = days.filter((d) => d.settled && !kept.has(d.day) && d.start >= firstMissing.start);
  const liveFrom = (days.find((d) => !d.settled) ?? days[days.length - 1]!).start;
  if (settledNew.length) {
    const empty = (date: string) => figures({ date });
    await keep(ctx, app.id, tz, settledNew.map((d) => computed.get(d.day) ?? empty(d.day)), settledNew[0]!.start, liveFrom);
  }
  const list = days.map((d) => (d.start >= firstMissing.start ? computed.get(d.day) : kept.get(d.day)) ?? figures({ date: d.day }));
  const sum = (k: keyof DayFigures) => list.reduce((a, d) => a + (d[k] as number), 0);
  const total: DayFigures = {
    date: '',
    runs: sum('runs'),
    conversations: sum('conversations'),
    messages: sum('messages'),
    tokens: sum('tokens'),
    finished: sum('finished'),
    latency_sum_ms: sum('latency_sum_ms'),
    failed: sum('failed'),
    active_users: 0,
    p95_latency_ms: 0,
  };
  const range = computed.get(TOTAL);
  if (firstMissing.start <= since) {
    // Nothing of the period was kept: the computed range is the period, its figures the totals.
    total.active_users = range?.active_users ?? 0;
    total.p95_latency_ms = range?.p95_latency_ms ?? 0;
  } else {
    total.active_users = await activeUsers(ctx, app.id, since, liveFrom);
    total.p95_latency_ms = await periodP95(ctx, app.id, since, total.finished);
  }
  const { date: _date, ...totals } = finish(total);
  return { period: q.period, days: list.map(finish), totals };
}
