import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema';
import type { ThreadMemory } from './pglite-remote';

export type Schema = typeof schema;
/** The drizzle database, the same type for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** How the start spent its time here (the start line and `npm run bench:start` print it). */
  timings: { openMs: number; migrationsMs: number; migrated: number };
  /** The embedded database's thread: its heap and WASM memory (null on this thread or a server). */
  memory(): Promise<ThreadMemory | null>;
  close(): Promise<void>;
}

// Beside this file in sources; beside the bundle in dist-server/ (scripts/build-server.mjs copies it).
const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The newest migration's time in the journal (drizzle's `folderMillis`). */
function newestJournalMillis(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/**
 * Whether the database lacks a migration of the journal. drizzle's migrator applies exactly the
 * migrations newer than the newest one recorded in drizzle.__drizzle_migrations; it also reads and
 * hashes every migration file and creates its schema and table first, which a start of an
 * up-to-date database need not pay for.
 */
async function needsMigration(db: Db): Promise<boolean> {
  const newest = await newestApplied(db);
  return newest === null || newest < newestJournalMillis();
}

/**
 * The newest applied migration's time, or null before the first migration. Two statements: one
 * naming the table when it does not exist fails to parse, even in a branch that is never taken.
 */
async function newestApplied(db: Db): Promise<number | null> {
  const { exists } = firstRow<{ exists: boolean }>(await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`));
  if (!exists) return null;
  const { newest } = firstRow<{ newest: string | number | null }>(await db.execute(sql`SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations`));
  return newest === null || newest === undefined ? null : Number(newest);
}

/** The first row of db.execute's answer (both drivers answer `{ rows }`). */
const firstRow = <T>(r: unknown): T => ((r as { rows: T[] }).rows[0] ?? {}) as T;

export interface OpenOptions {
  /** postgres://… selects a real server; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /**
   * A PGlite data-dir dump (tar) to start from, to skip initdb in tests. Bytes are handed over: in
   * a worker (the default) their buffer moves to its thread and the caller's view is left empty.
   */
  loadDataDir?: Blob | Uint8Array;
  /** PGlite's shared_buffers (e.g. '128MB'); PostgreSQL's default when omitted. */
  sharedBuffers?: string;
  /** PGlite in a worker thread of its own (default) or, false, on this thread. */
  inWorker?: boolean;
}

/** Opens the database and runs the migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const t0 = performance.now();
  if (opts.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection that the server ends (a restart, pg_terminate_backend, DROP DATABASE ...
    // FORCE) makes the pool emit 'error'; unheard, that is an uncaught exception that stops the
    // process. The pool has already dropped the connection and opens a new one when needed.
    let closing = false;
    pool.on('error', (err) => {
      if (!closing) console.error('[weft] an idle database connection was closed by the server; the pool replaces it:', err.message);
    });
    const db = drizzle(pool, { schema }) as unknown as Db;
    const opened = performance.now();
    const migrated = (await needsMigration(db)) ? await migrateCounting(db, () => migrate(db as never, { migrationsFolder })) : 0;
    return {
      db,
      kind: 'postgres',
      timings: { openMs: opened - t0, migrationsMs: performance.now() - opened, migrated },
      memory: async () => null,
      close: () => {
        // pool.end() resolves before its connections' sockets have closed: the server may still end them.
        closing = true;
        return pool.end();
      },
    };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  // By default PGlite runs in a worker thread of its own (pglite-remote.ts): its queries never take the event loop.
  const client = opts.inWorker === false ? await openPgliteHere(opts) : await (await import('./pglite-remote')).openPgliteRemote(opts);
  const db = drizzle(client as never, { schema }) as unknown as Db;
  const opened = performance.now();
  const migrated = (await needsMigration(db))
    ? await migrateCounting(db, async () => {
        await client.exec('CREATE EXTENSION IF NOT EXISTS vector;');
        await migrate(db as never, { migrationsFolder });
      })
    : 0;
  return {
    db,
    kind: 'pglite',
    timings: { openMs: opened - t0, migrationsMs: performance.now() - opened, migrated },
    memory: async () => ('memory' in client ? client.memory() : null),
    close: async () => {
      await client.close();
    },
  };
}

/** Runs the migrator; answers how many migrations it applied. */
async function migrateCounting(db: Db, run: () => Promise<void>): Promise<number> {
  const count = async () => {
    const { exists } = firstRow<{ exists: boolean }>(await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`));
    if (!exists) return 0;
    return Number(firstRow<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).n ?? 0);
  };
  const before = await count();
  await run();
  return (await count()) - before;
}

/** PGlite on this thread (WEFT_PG_WORKER=false). */
async function openPgliteHere(opts: OpenOptions) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  return PGlite.create({
    dataDir: opts.dataDir,
    extensions: { vector },
    loadDataDir: opts.loadDataDir instanceof Uint8Array ? new Blob([opts.loadDataDir as Uint8Array<ArrayBuffer>]) : opts.loadDataDir,
    // On the command line (-c), not through PGlite's postgresqlconf option, which replaces the data
    // directory's postgresql.conf (time zone, locale and date style lines included).
    ...(opts.sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.sharedBuffers}`] } : {}),
  });
}

/** A cheap liveness query. */
export async function ping(db: Db): Promise<boolean> {
  await db.execute(sql`select 1`);
  return true;
}
