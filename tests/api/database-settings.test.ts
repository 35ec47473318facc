import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import { serverDatabaseUrl } from './harness';
import { postgresServer } from './postgres-server';
import { readSettings } from '../../src/server/settings';

// WEFT_PG_SHARED_BUFFERS: the embedded database's shared buffers, given on PGlite's command line
// for each start, so the data directory's postgresql.conf (time zone, locale) is left as initdb wrote it.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('embedded database settings', () => {
  it('reads WEFT_PG_SHARED_BUFFERS as a size, 16MB when unset (sized for idle), and refuses anything else', () => {
    expect(readSettings({}).pgSharedBuffers).toBe('16MB');
    expect(readSettings({ WEFT_PG_SHARED_BUFFERS: '512MB' }).pgSharedBuffers).toBe('512MB');
    expect(readSettings({ WEFT_PG_SHARED_BUFFERS: '1GB' }).pgSharedBuffers).toBe('1GB');
    for (const bad of ['lots', '512', '0MB', '512mb', '-1GB']) expect(() => readSettings({ WEFT_PG_SHARED_BUFFERS: bad }), bad).toThrow();
  });

  it('starts PGlite with the shared buffers asked for, each start on its own, and keeps the data directory configuration', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-pgconf-'));
    dirs.push(dir);
    const show = async (sharedBuffers: string) => {
      const database = await openDatabase({ dataDir: dir, sharedBuffers });
      try {
        const one = async (name: string) => Object.values(((await database.db.execute(sql.raw(`show ${name}`))) as unknown as { rows: Record<string, string>[] }).rows[0]!)[0];
        return { sharedBuffers: await one('shared_buffers'), timeZone: await one('timezone') };
      } finally {
        await database.close();
      }
    };
    expect(await show('256MB')).toEqual({ sharedBuffers: '256MB', timeZone: 'UTC' });
    // Not written into the data directory: the next start takes its own value.
    expect(await show('128MB')).toEqual({ sharedBuffers: '128MB', timeZone: 'UTC' });
    expect(fs.readFileSync(path.join(dir, 'postgresql.conf'), 'utf8')).not.toMatch(/^shared_buffers\s*=\s*256MB/m);
  });
});

describe('on a PostgreSQL server', () => {
  it('survives the server ending its idle connections (a restart, pg_terminate_backend): the pool replaces them', async () => {
    const { Client } = await import('pg');
    // A PostgreSQL server (tests/api/postgres-server.ts): the embedded database has no connections to end.
    const { url: server, stop } = await postgresServer();
    const made = await serverDatabaseUrl(server);
    const database = await openDatabase({ databaseUrl: made.url });
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    const logged: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    try {
      const one = async () => ((await database.db.execute(sql`select 1 as one`)) as unknown as { rows: { one: number }[] }).rows[0]!.one;
      expect(await one()).toBe(1);
      const admin = new Client({ connectionString: server });
      await admin.connect();
      const name = new URL(made.url).pathname.slice(1);
      const killed = await admin.query('select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()) t', [name]);
      await admin.end();
      expect(killed.rows[0].n).toBeGreaterThan(0);
      await expect.poll(() => logged.length).toBeGreaterThan(0);
      expect(logged[0]).toContain('an idle database connection was closed by the server');
      expect(await one()).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      console.error = error;
      process.off('uncaughtException', onUncaught);
      await database.close();
      await made.drop();
      await stop();
    }
  });
});
