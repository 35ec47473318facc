import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Embedded mode: initdb + migrations once, dumped to a tarball that every test file loads
 * (a fresh, isolated database per file without paying initdb each time).
 * DATABASE_URL mode: nothing to prepare; each file creates its own database on the server.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) return;
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

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
  }
}
