import { sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { rowsOf } from '../knowledge/queue';
import { askedZones, computeDays, counted, figures, keep, SETTLED_MS } from './overview';

/**
 * Keeps the overview's settled days (services/overview.ts) in the background, so that the first
 * overview call of a period reads them instead of computing the whole history on the request's path
 * (issue 22: ≤ 200 ms over a million runs; the first 180-day call computed them all: 6–12 s).
 *
 * A pass walks every app that has runs, in UTC and in every zone an overview was asked in before
 * (the zones of the kept days and those asked since the start), oldest missing day first, a few days per statement: the embedded
 * database runs one statement at a time, so no statement may hold it for long. The answers are the
 * same as the request's own computation (the same functions): a zone never asked before is still
 * computed by its first request, and kept from then on.
 */

/** Days computed by one statement: about a week of a busy app is a fraction of a second. */
export const DAYS_PER_STATEMENT = 7;
/** Statements per pass, over all apps and zones; the next pass goes on where this one stopped. */
export const STATEMENTS_PER_PASS = 200;

/** The next missing settled days of an app in a zone (at most `limit`, oldest first), with their bounds. */
async function missingDays(ctx: ServerContext, appId: string, tz: string, limit: number) {
  const rows = rowsOf<{ day: string; start: string | Date; end: string | Date }>(
    await ctx.db.execute(sql`
      WITH b AS (SELECT (min(r.created_at) AT TIME ZONE ${tz})::date AS f, (now() AT TIME ZONE ${tz})::date AS t FROM runs r WHERE ${counted(appId)}),
        days AS (SELECT b.f + g.n AS d FROM b, generate_series(0, b.t - b.f) AS g(n) WHERE b.f IS NOT NULL)
      SELECT to_char(d, 'YYYY-MM-DD') AS day, (d::timestamp AT TIME ZONE ${tz}) AS start, ((d + 1)::timestamp AT TIME ZONE ${tz}) AS "end"
      FROM days
      WHERE ((d + 1)::timestamp AT TIME ZONE ${tz}) <= now() - make_interval(secs => ${SETTLED_MS / 1000})
        AND NOT EXISTS (SELECT 1 FROM app_overview_days k WHERE k.app_id = ${appId}::uuid AND k.tz = ${tz} AND k.day = days.d)
      ORDER BY d LIMIT ${limit}`),
  );
  return rows.map((r) => ({ day: r.day, start: new Date(r.start), end: new Date(r.end) }));
}

/**
 * One pass: keeps up to `statements` × DAYS_PER_STATEMENT missing settled days. Returns how many
 * days it kept (0: everything was already kept).
 */
export async function keepOverviewDays(ctx: ServerContext, statements = STATEMENTS_PER_PASS, onError: (e: unknown) => void = (e) => { throw e; }): Promise<number> {
  const zones = rowsOf<{ tz: string }>(await ctx.db.execute(sql`SELECT DISTINCT tz FROM app_overview_days`)).map((r) => r.tz);
  const apps = rowsOf<{ id: string }>(
    await ctx.db.execute(sql`SELECT a.id FROM apps a WHERE EXISTS (SELECT 1 FROM runs r WHERE r.app_id = a.id) ORDER BY a.id`),
  ).map((r) => r.id);
  let left = statements;
  let kept = 0;
  for (const appId of apps) {
    try {
      for (const tz of new Set(['UTC', ...zones, ...askedZones])) {
        while (left > 0) {
          const days = await missingDays(ctx, appId, tz, DAYS_PER_STATEMENT);
          if (!days.length) break;
          left--;
          // The range from the first missing day to the end of the last (kept days inside it are
          // computed again but not written: ON CONFLICT DO NOTHING).
          const from = days[0]!.start;
          const until = days[days.length - 1]!.end;
          const computed = await computeDays(ctx, appId, tz, from, { until });
          await keep(ctx, appId, tz, days.map((d) => computed.get(d.day) ?? figures({ date: d.day })), from, until);
          kept += days.length;
        }
      }
    } catch (e) {
      // One app (deleted meanwhile, say) does not hold up the others.
      onError(e);
    }
  }
  // Keeping a week moves its users' last run on (services/overview.ts keep): an update that leaves
  // a dead row and index entry behind, which every period's active-user count then reads through
  // (bench:overview's 180 days: 129,634 index entries for 5,000 users). The embedded database has
  // no autovacuum to clear them; on a server autovacuum does. A small table: a quick statement.
  if (ctx.exclusiveDb) await ctx.db.execute(sql`VACUUM app_end_users`);
  return kept;
}
