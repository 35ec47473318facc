import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Embedded mode: initdb + migrations once, dumped to a tarball that every test file loads
 * (a fresh, isolated database per file without paying initdb each time).
 * DATABASE_URL mode: one database migrated once on the server, that each file's database is copied
 * from (`CREATE DATABASE … TEMPLATE`: ~0.1 s instead of every migration per file).
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) return serverTemplate(project, process.env.DATABASE_URL);
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const pg = await PGlite.create({ extensions: { vector } });
  await pg.exec('CREATE EXTENSION IF NOT EXISTS vector;');
  await migrate(drizzle(pg), { migrationsFolder: path.resolve('src/server/db/migrations') });
  await trimWal(pg);
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-pgdump-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Leaves the template's data directory with nothing to replay and no WAL it does not need: every
 * file's database starts from it (~0.3 s of CPU less per start). Without this, a start replayed the
 * migrations' WAL from the last checkpoint (~13 MB) and loaded a whole 16 MB segment.
 * A checkpoint, a switch to a new segment and a second checkpoint put the redo point at the start of
 * a fresh segment; the older one is then recycled by PostgreSQL (kept as a future segment) and the
 * new one is zeros past its first records. What is dropped: the segments after the current one (a
 * start makes them again when it needs them), and the current one's tail past the page the next
 * record goes in (PostgreSQL reads a short segment's end as the end of the WAL, as it reads zeros).
 */
async function trimWal(pg: import('@electric-sql/pglite').PGlite) {
  await pg.exec('CHECKPOINT');
  await pg.query('SELECT pg_switch_wal()');
  await pg.exec('CHECKPOINT');
  const { rows } = await pg.query<{ file: string; offset: number; redo: string }>(
    `SELECT w.file_name AS file, w.file_offset AS offset, c.redo_wal_file AS redo
     FROM pg_walfile_name_offset(pg_current_wal_lsn()) w, pg_control_checkpoint() c`,
  );
  const { file, offset, redo } = rows[0]!;
  // Only the current segment is kept: the checkpoint's redo must be in it.
  if (redo !== file) throw new Error(`The template's checkpoint redoes from ${redo}, not the current WAL segment ${file}`);
  const FS = pg.Module.FS;
  const dir = '/pglite/data/pg_wal';
  for (const name of FS.readdir(dir)) if (/^[0-9A-F]{24}$/.test(name) && name !== file) FS.unlink(`${dir}/${name}`);
  const page = 8192;
  FS.truncate(`${dir}/${file}`, (Math.floor(offset / page) + 1) * page);
}

async function serverTemplate(project: TestProject, base: string) {
  const { Client } = await import('pg');
  const { openDatabase } = await import('../../src/server/db/client');
  const name = `weft_template_${process.pid}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  // Migrated, then closed: a template database may have no connection while it is copied.
  const database = await openDatabase({ databaseUrl: url.toString() });
  await database.close();
  project.provide('pgServerTemplate', name);
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerTemplate: string;
    pgTemplate: string;
  }
}
