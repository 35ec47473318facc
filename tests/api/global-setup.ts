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
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-pgdump-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
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
