import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema';

export type Schema = typeof schema;
/** The drizzle database, the same type for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** postgres://… selects a real server; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** A PGlite data-dir dump (tar) to start from, to skip initdb in tests. */
  loadDataDir?: Blob;
  /** PGlite's shared_buffers (e.g. '128MB'); PostgreSQL's default when omitted. */
  sharedBuffers?: string;
  /** PGlite in a worker thread of its own (default) or, false, on this thread. */
  inWorker?: boolean;
}

/** Opens the database and runs the migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
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
    await migrate(db as never, { migrationsFolder });
    return {
      db,
      kind: 'postgres',
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
  await client.exec('CREATE EXTENSION IF NOT EXISTS vector;');
  const db = drizzle(client as never, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await client.close();
    },
  };
}

/** PGlite on this thread (WEFT_PG_WORKER=false). */
async function openPgliteHere(opts: OpenOptions) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  return PGlite.create({
    dataDir: opts.dataDir,
    extensions: { vector },
    loadDataDir: opts.loadDataDir,
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
