import { sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { apiRateCounters } from '../db/schema';
import { rowsOf } from '../knowledge/queue';

/**
 * Requests per public-API key and minute, counted across every server process on the database
 * (table `api_rate_counters`), without a database round trip on a request's way.
 *
 * Each process decides from what it knows: the key's count in the database as of its last flush
 * plus its own requests since. Its own requests are added to the database in the background, one
 * statement for all keys (`INSERT … ON CONFLICT DO UPDATE … RETURNING count`), at most FLUSH_MS
 * after the first unflushed one; the statement answers every key's shared count, which the next
 * decisions use. So one process alone is exact, and with several a key can get past its limit by at
 * most what the other processes admitted in their last FLUSH_MS (they learn of each other's
 * requests one flush later). A minute's count starts at 0 (fixed windows, as the limit says "a minute").
 */

const FLUSH_MS = 50;
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
    private readonly ctx: ServerContext,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Counts one request of the key if it is within `limit` a minute. */
  take(keyId: string, limit: number, now = Date.now()): RateDecision {
    const minute = now - (now % 60_000);
    let w = this.windows.get(keyId);
    if (!w || w.minute !== minute) {
      w = { minute, known: 0, pending: 0 };
      this.windows.set(keyId, w);
    }
    if (w.known + w.pending >= limit) return { ok: false, retryAfter: Math.max(1, Math.ceil((minute + 60_000 - now) / 1000)) };
    w.pending++;
    if (!this.timer && !this.closed) this.timer = setTimeout(() => this.flush(), FLUSH_MS);
    return { ok: true, retryAfter: 0 };
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
    for (const b of batch) b.w.pending -= b.n;
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
        if (c !== undefined && this.windows.get(b.keyId) === b.w) b.w.known = c;
      }
    } catch (e) {
      // Not written: count them as known here, so this process still holds its own limit.
      for (const b of batch) b.w.known += b.n;
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

const limiters = new WeakMap<ServerContext, RateLimiter>();

/** The rate limiter of a server (one per context). */
export function rateLimiterOf(ctx: ServerContext, onError: (e: unknown) => void): RateLimiter {
  let r = limiters.get(ctx);
  if (!r) limiters.set(ctx, (r = new RateLimiter(ctx, onError)));
  return r;
}
