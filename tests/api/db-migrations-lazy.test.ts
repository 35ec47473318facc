import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenOptions } from '../../src/server/db/client';
import { serverDatabaseUrl } from './harness';

// A start migrates only a database that lags the journal: a new one gets every migration, an
// up-to-date one none (the migrator is not even run).

const journal = JSON.parse(fs.readFileSync(path.resolve('src/server/db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-migrate-'));
let drop: (() => Promise<void>) | undefined;

afterAll(async () => {
  await drop?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let url: string | undefined;

/** The same database each time: a data directory of PGlite, or a new database on the server. */
async function target(): Promise<OpenOptions> {
  if (!process.env.DATABASE_URL) return { dataDir: path.join(dataDir, 'pgdata') };
  if (!url) ({ url, drop } = await serverDatabaseUrl(process.env.DATABASE_URL));
  return { databaseUrl: url };
}

describe('migrations on start', () => {
  it('applies every migration to a new database, then none on the next start', async () => {
    const first = await openDatabase(await target());
    try {
      expect(first.timings.migrated).toBe(journal.entries.length);
    } finally {
      await first.close();
    }
    const second = await openDatabase(await target());
    try {
      expect(second.timings.migrated).toBe(0);
      // The schema is there: a table of the last migrations answers.
      await second.db.execute(sql`select count(*) from plugin_packages`);
    } finally {
      await second.close();
    }
  }, 240_000);
});
