/**
 * pg-boss's `db` option (`{ executeSql(text, values) }`) over the app's own database access, so the
 * job queue runs on the embedded database (PGlite, in its worker thread) and on a PostgreSQL server
 * with the same code and no connection pool of its own.
 *
 * - `clientAdapter` sends pg-boss's SQL to the driver as it is: node-postgres' pool, or PGlite's
 *   client (`query` with values; `exec` without, because pg-boss's maintenance and schema commands
 *   are several statements in one text, which PGlite's extended-protocol `query` refuses).
 * - `executorAdapter` runs it on a drizzle database or transaction (`send` inside the caller's
 *   transaction: a task's row and its job commit together, and on PGlite a send outside the open
 *   transaction would wait for it forever). `$n` placeholders become drizzle parameters.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import type { Tx } from '../services/workspace-resources';

export interface BossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

interface QueryClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec?(text: string): Promise<{ rows: unknown[] }[]>;
}

/** The driver's client under drizzle (node-postgres' Pool, PGlite or its worker-thread remote). */
const clientOf = (db: Db) => (db as unknown as { $client: QueryClient }).$client;

/** pg-boss's commands on jobs by id (complete, fail, cancel, resume…), which answer how many they changed. */
const COUNTED = /SELECT COUNT\(\*\) FROM results\s*$/i;

/** pg-boss straight to the database's driver; `inflight` counts calls under way (a clean stop waits for them). */
export function clientAdapter(database: Pick<Database, 'db' | 'kind'>): BossDb & { inflight(): number; close(): void } {
  const client = clientOf(database.db);
  let inflight = 0;
  let closed = false;
  const run = async (text: string, values?: unknown[]) => {
    if (database.kind === 'pglite' && !values?.length && client.exec) {
      const results = await client.exec(text);
      return { rows: (results[results.length - 1]?.rows ?? []) as any[] };
    }
    return (await client.query(text, values?.length ? values : undefined)) as { rows: any[] };
  };
  return {
    async executeSql(text, values) {
      // After the stop, a poll or a completion still under way in pg-boss must not reach a database that is
      // closing. It gets nothing done rather than an error: pg-boss calls `complete` without awaiting it (a
      // rejection there is unhandled), and a job left active expires into a retry by its lease as after a crash.
      // Its complete/fail/cancel commands answer a count that it reads as `rows[0].count` (no row: a TypeError).
      if (closed) return { rows: COUNTED.test(text) ? [{ count: 0 }] : [] };
      inflight++;
      try {
        return await run(text, values);
      } finally {
        inflight--;
      }
    },
    inflight: () => inflight,
    close: () => void (closed = true),
  };
}

/** `text` with `$1`… as a drizzle statement (each placeholder a parameter of its value, arrays kept whole). */
export function statementOf(text: string, values: unknown[] = []): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, m.index)));
    chunks.push(sql`${sql.param(values[Number(m[1]) - 1] ?? null)}`);
    last = m.index! + m[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks, sql.raw(''));
}

/** pg-boss on a drizzle database or transaction (one statement with values, as `send` issues). */
export function executorAdapter(db: Db | Tx): BossDb {
  return {
    async executeSql(text, values) {
      const r = (await db.execute(statementOf(text, values))) as unknown;
      return { rows: Array.isArray(r) ? r : ((r as { rows?: unknown[] }).rows ?? []) };
    },
  };
}
