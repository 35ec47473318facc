import { sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { apiRateCounters } from '../db/schema';
import { rowsOf } from '../knowledge/queue';

/**
 * Requests per public-API key and minute, counted across every server process on the database
 * (table `api_rate_counters`). A minute's count starts at 0 (fixed windows, as the limit says "a minute").
 *
 * On a PostgreSQL server (`shared`: several processes may serve the same keys) every admitted request
 * is one statement, `INSERT … ON CONFLICT DO UPDATE SET count = count + 1 WHERE count < limit
 * RETURNING count`: the row lock makes the check and the count one step, so N a minute is N in
 * total whichever processes the requests reach (issue 34; a local round trip, ~0.2 ms). A key this
 * process already saw at its limit is refused without the database until the minute turns.
 *
 * On the embedded database (one process owns it) the count is exact in memory, so there is no
 * statement on the request's way (measured on PGlite: see the README); the counts go to the table in
 * the background, one statement for all keys, at most FLUSH_MS after the first unflushed request.
 * The table is then only the record (and the count a restart within the minute goes on from; a
 * shutdown writes the rest), so FLUSH_MS is long: at 50 ms a busy key cost a write (~0.7 ms of the
 * database's CPU) 20 times a second for nothing. No timer is armed while no request came.
 */

const FLUSH_MS = 1000;
/** Counter rows older than this are deleted by a flush now and then. */
const KEEP_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

interface Window {
  /** Start of the minute, epoch ms. */
  minute: number;
  /** The shared count as of the last flush (this process's flushed requests included). */
  known: number;
  /** This process's requests not yet flushed. */
  pending: number;
}

export interface RateDecision {
  ok: boolean;
  /** Seconds until the next minute starts (when refused). */
  retryAfter: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private lastSweep = 0;
  private closed = false;

  constructor(
    private readonly ctx: Pick<ServerContext, 'db'>,
    private readonly onError: (e: unknown) => void,
    /** Whether other processes count on the same table (a PostgreSQL server): then each request is counted there at once. */
    private readonly shared = false,
  ) {}

  /** Counts one request of the key if it is within `limit` a minute. */
  take(keyId: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const minute = now - (now % 60_000);
    let w = this.windows.get(keyId);
    if (!w || w.minute !== minute) {
      w = { minute, known: 0, pending: 0 };
      this.windows.set(keyId, w);
    }
    const refused = { ok: false, retryAfter: Math.max(1, Math.ceil((minute + 60_000 - now) / 1000)) };
    if (w.known + w.pending >= limit) return Promise.resolve(refused);
    if (this.shared) return this.takeShared(keyId, w, limit, refused);
    w.pending++;
    if (!this.timer && !this.closed) this.timer = setTimeout(() => this.flush(), FLUSH_MS);
    return Promise.resolve({ ok: true, retryAfter: 0 });
  }

  /** One statement: counts the request only while the shared count is below the limit. */
  private async takeShared(keyId: string, w: Window, limit: number, refused: RateDecision): Promise<RateDecision> {
    try {
      const rows = rowsOf<{ count: number }>(
        await this.ctx.db.execute(sql`INSERT INTO ${apiRateCounters} (key_id, window_start, count) VALUES (${keyId}::uuid, to_timestamp(${w.minute / 1000}), 1)
          ON CONFLICT (key_id, window_start) DO UPDATE SET count = ${apiRateCounters}.count + 1 WHERE ${apiRateCounters}.count < ${limit}
          RETURNING count`),
      );
      if (!rows.length) {
        // At the limit: later requests of this minute are refused here without asking again.
        w.known = Math.max(w.known, limit);
        return refused;
      }
      w.known = Math.max(w.known, Number(rows[0].count));
      void this.sweep();
      return { ok: true, retryAfter: 0 };
    } catch (e) {
      // The database did not answer: this process still holds the limit on its own requests.
      this.onError(e);
      w.known++;
      return w.known > limit ? refused : { ok: true, retryAfter: 0 };
    }
  }

  /** Writes every key's unflushed requests (one statement) and learns the shared counts. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    const batch: { keyId: string; w: Window; n: number }[] = [];
    for (const [keyId, w] of this.windows) {
      if (w.pending > 0) batch.push({ keyId, w, n: w.pending });
      else if (w.minute < Date.now() - 120_000) this.windows.delete(keyId);
    }
    if (!batch.length) return;
    // Counted as known from now on: requests that come while the statement runs see them (they
    // were admitted twice over before, one process alone included).
    for (const b of batch) {
      b.w.pending -= b.n;
      b.w.known += b.n;
    }
    const values = sql.join(
      batch.map((b) => sql`(${b.keyId}::uuid, to_timestamp(${b.w.minute / 1000}), ${b.n}::int)`),
      sql`, `,
    );
    try {
      const rows = rowsOf<{ key_id: string; count: number }>(
        await this.ctx.db.execute(sql`INSERT INTO ${apiRateCounters} (key_id, window_start, count) VALUES ${values}
          ON CONFLICT (key_id, window_start) DO UPDATE SET count = ${apiRateCounters}.count + excluded.count
          RETURNING key_id, count`),
      );
      const counts = new Map(rows.map((r) => [r.key_id, Number(r.count)]));
      for (const b of batch) {
        const c = counts.get(b.keyId);
        // The window may have moved on meanwhile (a new minute): its count starts afresh.
        if (c !== undefined && this.windows.get(b.keyId) === b.w) b.w.known = Math.max(b.w.known, c);
      }
    } catch (e) {
      // Not written: they stay counted as known here, so this process still holds its own limit.
      this.onError(e);
    }
    await this.sweep();
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    try {
      await this.ctx.db.execute(sql`DELETE FROM ${apiRateCounters} WHERE window_start < to_timestamp(${(now - KEEP_MS) / 1000})`);
    } catch (e) {
      this.onError(e);
    }
  }

  /** Shutdown: the last counts go to the database. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}

const limiters = new WeakMap<object, RateLimiter>();

/** The rate limiter of a database (one per database: the apps of one process on it share its counts). */
export function rateLimiterOf(ctx: Pick<ServerContext, 'db' | 'bus'>, onError: (e: unknown) => void): RateLimiter {
  let r = limiters.get(ctx.db);
  if (!r) limiters.set(ctx.db, (r = new RateLimiter(ctx, onError, ctx.bus.shared)));
  return r;
}
